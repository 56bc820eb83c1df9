import ReelCore

/// An engine that records commands and lets a test play the engine's part.
@MainActor
public final class ScriptedEngine: PlaybackEngine {
    public init() {}

    public enum Command: Equatable {
        case load(String), restart, play, pause, stop, seek(Seconds, accurate: Bool), rate(Double), volume(Double),
             muted(Bool), video(Bool), audioTrack(Int), subtitleTrack(Int?), subtitles(String)
    }
    public var onEvent: ((EngineEvent) -> Void)?
    public private(set) var commands: [Command] = []

    public func load(uri: String) { commands.append(.load(uri)) }
    public func restart() { commands.append(.restart) }
    public func play() { commands.append(.play) }
    public func pause() { commands.append(.pause) }
    public func stop() { commands.append(.stop) }
    public func seek(to position: Seconds, accurate: Bool) { commands.append(.seek(position, accurate: accurate)) }
    public func setRate(_ rate: Double) { commands.append(.rate(rate)) }
    public func setVolume(_ volume: Double) { commands.append(.volume(volume)) }
    public func setMuted(_ muted: Bool) { commands.append(.muted(muted)) }
    public func setVideoEnabled(_ enabled: Bool) { commands.append(.video(enabled)) }
    public func selectAudioTrack(_ index: Int) { commands.append(.audioTrack(index)) }
    public func selectSubtitleTrack(_ index: Int?) { commands.append(.subtitleTrack(index)) }
    public func setExternalSubtitles(uri: String) { commands.append(.subtitles(uri)) }

    public func send(_ events: EngineEvent...) { events.forEach { onEvent?($0) } }
    public func clear() { commands.removeAll() }

    /// The events of an item that loads and starts playing.
    public func startPlaying(duration: Seconds = 60) {
        send(.duration(duration), .mediaInfo(MediaInfo(hasVideo: true, hasAudio: true)), .state(.paused), .state(.playing))
    }
}
