// SPDX-License-Identifier: GPL-3.0-or-later
import ReelCore

/// An engine that records commands and lets a test play the engine's part.
@MainActor
public final class ScriptedEngine: PlaybackEngine {
    public init() {}

    public enum Command: Equatable {
        case load(String), restart, play, pause, stop, seek(Seconds, accurate: Bool), rate(Double), volume(Double),
             muted(Bool), video(Bool), audioTrack(Int), subtitleTrack(Int?), subtitles(String), readSubtitleTrack(Int),
             picture(Picture), audioDelay(Seconds)
    }
    public var onEvent: ((EngineEvent) -> Void)?
    public private(set) var commands: [Command] = []

    public func load(uri: String) { commands.append(.load(uri)) }
    /// The item last offered for joining (kept apart from `commands`: the model offers one
    /// whenever what follows may have changed).
    public private(set) var offeredNext: String?
    public func offerNext(uri: String?) { offeredNext = uri }
    public func restart() { commands.append(.restart) }
    public func play() { commands.append(.play) }
    public func pause() { commands.append(.pause) }
    public func stop() { commands.append(.stop) }
    public func seek(to position: Seconds, accurate: Bool) { commands.append(.seek(position, accurate: accurate)) }
    public func setRate(_ rate: Double) { commands.append(.rate(rate)) }
    public func setVolume(_ volume: Double) { commands.append(.volume(volume)) }
    public func setMuted(_ muted: Bool) { commands.append(.muted(muted)) }
    public func setPicture(_ picture: Picture) { commands.append(.picture(picture)) }
    public func setAudioDelay(_ delay: Seconds) { commands.append(.audioDelay(delay)) }
    public func setVideoEnabled(_ enabled: Bool) { commands.append(.video(enabled)) }
    public func selectAudioTrack(_ index: Int) { commands.append(.audioTrack(index)) }
    public func selectSubtitleTrack(_ index: Int?) { commands.append(.subtitleTrack(index)) }
    public func setExternalSubtitles(uri: String) { commands.append(.subtitles(uri)) }
    /// What readSubtitleTrack hands back.
    public var embeddedLines: [Int: [SubtitleLine]] = [:]
    public func readSubtitleTrack(_ index: Int, completion: @escaping @MainActor ([SubtitleLine]) -> Void) {
        commands.append(.readSubtitleTrack(index))
        completion(embeddedLines[index] ?? [])
    }

    public func send(_ events: EngineEvent...) { events.forEach { onEvent?($0) } }
    public func clear() { commands.removeAll() }

    /// Position updates every 0.1 s from `position` on to `target`, as playing on sends them.
    public func play(from position: Seconds, to target: Seconds) {
        var tenths = Int((position * 10).rounded())
        while tenths < Int((target * 10).rounded()) {
            tenths += 1
            send(.position(Seconds(tenths) / 10))
        }
    }

    /// Finishes the seek last asked for, where it was asked to go; false when none was.
    @discardableResult public func finishLastSeek() -> Bool {
        guard case .seek(let to, _)? = commands.last(where: { if case .seek = $0 { true } else { false } }) else { return false }
        send(.seekDone(to))
        return true
    }

    /// The events of an item that loads and starts playing.
    public func startPlaying(duration: Seconds = 60) {
        send(.duration(duration), .mediaInfo(MediaInfo(hasVideo: true, hasAudio: true)), .state(.paused), .state(.playing))
    }
}
