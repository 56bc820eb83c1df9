import ReelCore

/// An engine that records commands and lets a test play the engine's part.
@MainActor
final class ScriptedEngine: PlaybackEngine {
    enum Command: Equatable {
        case load(String), restart, play, pause, stop, seek(Seconds, accurate: Bool), rate(Double), volume(Double),
             muted(Bool), video(Bool), audioTrack(Int), subtitleTrack(Int?), subtitles(String)
    }
    var onEvent: ((EngineEvent) -> Void)?
    private(set) var commands: [Command] = []

    func load(uri: String) { commands.append(.load(uri)) }
    func restart() { commands.append(.restart) }
    func play() { commands.append(.play) }
    func pause() { commands.append(.pause) }
    func stop() { commands.append(.stop) }
    func seek(to position: Seconds, accurate: Bool) { commands.append(.seek(position, accurate: accurate)) }
    func setRate(_ rate: Double) { commands.append(.rate(rate)) }
    func setVolume(_ volume: Double) { commands.append(.volume(volume)) }
    func setMuted(_ muted: Bool) { commands.append(.muted(muted)) }
    func setVideoEnabled(_ enabled: Bool) { commands.append(.video(enabled)) }
    func selectAudioTrack(_ index: Int) { commands.append(.audioTrack(index)) }
    func selectSubtitleTrack(_ index: Int?) { commands.append(.subtitleTrack(index)) }
    func setExternalSubtitles(uri: String) { commands.append(.subtitles(uri)) }

    func send(_ events: EngineEvent...) { events.forEach { onEvent?($0) } }
    func clear() { commands.removeAll() }

    /// The events of an item that loads and starts playing.
    func startPlaying(duration: Seconds = 60) {
        send(.duration(duration), .mediaInfo(MediaInfo(hasVideo: true, hasAudio: true)), .state(.paused), .state(.playing))
    }
}
