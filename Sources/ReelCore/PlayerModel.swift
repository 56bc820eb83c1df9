// SPDX-License-Identifier: GPL-3.0-or-later
/// The single source of truth for what plays. The engine reports into it; the window, MPRIS and
/// the background-audio controller observe it and send their commands through it, so every
/// control surface sees the same state and obeys the same rules (rate kept across items and
/// seeks, skips clamped, a play after the end restarting from the beginning).
///
/// Its parts, one file each: this one (state, transport, tracks), `+Queue` (opening and the
/// queue), `+EngineEvents` (what the engine reports, the end of an item), `+Recovery` (stalls,
/// failures, resume positions), `+ABLoop`, `+Lines` (subtitle lines, delay), `+LineDrill`
/// (line by line, shadowing), `+SecondSubtitles`, `+FileChoices`, `+Chapters` and `+Observing`. Members
/// they share are internal to ReelCore.
@MainActor
public final class PlayerModel {
    nonisolated public static let rateRange: ClosedRange<Double> = 0.25...4.0
    /// Previous restarts the current item when it has played longer than this.
    public static let restartThreshold: Seconds = 3
    nonisolated public static let repeatRange = PlaySequencer.repeatRange
    nonisolated public static let gapRange = PlaySequencer.gapRange
    /// Playback counts as stalled when the position has not moved for this long while playing.
    public static let stallTimeout = StallWatchdog.stallTimeout
    /// A failed item stays on screen this long, its error shown (and MPRIS saying Stopped with
    /// its metadata), before the queue moves on: skipping at once would leave the user a toast
    /// about a file no longer in sight.
    public static let errorDwell: Seconds = 1.5

    /// What is known of the item loaded; all of it is forgotten when another starts.
    struct LoadedItem {
        /// The item's address (the queue may already have moved on to the next when its
        /// position is saved).
        var uri: String?
        var position: Seconds = 0
        /// nil while unknown: a length is never reported as 0 before it is known.
        var duration: Seconds?
        var media: MediaInfo?
        /// The target of a seek not yet done; position ticks from before it would pull the slider back.
        var pendingSeek: Seconds?
        var subtitles = SubtitleTimeline()
        /// The lines of the item's subtitle file, read ahead (`SubtitleCues`).
        var cues: [SubtitleLine] = []
        var subtitle: SubtitleLine?
        var abLoop: ABLoop?
        var drilling = Drilling()
        /// A subtitle file the user added; what was chosen for the item last time, until its
        /// tracks are known (`+FileChoices`).
        var subtitleFile: String?
        var restoring: FileChoices?
        var secondSubtitles = SecondSubtitles()
        var chapters: [Chapter] = []
        /// The chapter last said to be playing.
        var chapterPlaying: Chapter?
        /// How many times a dropped live stream has been reconnected since it last played (`+Live`).
        var reconnectAttempt: Int?
    }

    /// What the user chose, kept from item to item.
    struct Choices {
        var rate: Double = 1
        var volume: Double = 1
        var isMuted = false
        /// Play, or stay paused once the item is ready.
        var wantsToPlay = false
        var continueAfterErrors = true
        var pausesWhenHiddenByDesktop = false
        /// Subtitles shown this much later (earlier when negative) than the media says.
        var subtitleDelay: Seconds = 0
        var drill = LineDrill()
        var picture = Picture()
        var audioDelay: Seconds = 0
        var sleep: SleepTimer?
        /// Asleep with the sound at 0 (`+Sleep`): the volume set comes back with the next play.
        var fadedOut = false
    }

    public internal(set) var status: PlaybackStatus = .idle
    public internal(set) var queue = PlaybackQueue()
    /// Whether any of the video can be seen (the window is not minimized or hidden).
    public private(set) var isVideoVisible = true
    var loaded = LoadedItem()
    var choices = Choices()

    let engine: PlaybackEngine
    let scheduler: Scheduler
    let resume: ResumeKeeper
    let sequencer: PlaySequencer
    lazy var watchdog = StallWatchdog(
        scheduler: scheduler, watch: { [weak self] in self?.watched ?? .nothing },
        onPlayingTick: { [weak self] in self?.playedAWhile() },
        onFinding: { [weak self] finding in self?.recover(from: finding) })
    /// Moves on past a failed item once its error has been seen (see `errorDwell`).
    var skipAfterError: ScheduledAction?
    let observers = ObserverList<Change>()

    /// `resumePositions`, when given, remembers where long files were left.
    public init(engine: PlaybackEngine, scheduler: Scheduler, resumePositions: ResumePositions? = nil) {
        self.engine = engine
        self.scheduler = scheduler
        resume = ResumeKeeper(positions: resumePositions)
        sequencer = PlaySequencer(scheduler: scheduler)
        sequencer.onGapChange = { [weak self] in self?.notify(.gap) }
        engine.onEvent = { [weak self] event in self?.handle(event) }
    }

    // MARK: State

    public var position: Seconds { loaded.position }
    /// nil while unknown: a length is never reported as 0 before it is known.
    public var duration: Seconds? { loaded.duration }
    public var media: MediaInfo? { loaded.media }
    /// The subtitle line to show now, if any.
    public var subtitle: SubtitleLine? { loaded.subtitle }
    /// The speed playing: the user's, or 1× for a live stream (`+Live`).
    public var rate: Double { isLive ? 1 : choices.rate }
    public var volume: Double { choices.volume }
    public var isMuted: Bool { choices.isMuted }
    /// Move on to the next item when one fails (the queue keeps playing through broken files).
    public var continueAfterErrors: Bool {
        get { choices.continueAfterErrors }
        set { choices.continueAfterErrors = newValue }
    }
    /// Pause, rather than play on without decoding video, when the desktop hides the window
    /// (minimized; on Wayland any way the desktop hides it): the user's "When Minimized" choice.
    public var pausesWhenHiddenByDesktop: Bool {
        get { choices.pausesWhenHiddenByDesktop }
        set { choices.pausesWhenHiddenByDesktop = newValue }
    }
    /// Each item plays this many times before the queue moves on (the language learner's loop).
    public var repeatEach: Int { sequencer.repeatEach }
    /// Seconds between two plays, during which the transport waits and cannot be used.
    public var gapLength: Seconds { sequencer.gapLength }
    /// While waiting between two plays: the seconds left.
    public var gapRemaining: Seconds? { sequencer.gapRemaining }
    /// A stream that buffers (or is still connecting) this long without playing on is given up
    /// with a message; the app may shorten it (tests do, through REEL_NETWORK_TIMEOUT).
    public var bufferingTimeout: Seconds {
        get { watchdog.waitingTimeout }
        set { watchdog.waitingTimeout = newValue }
    }
    /// How many times playback stalled and was recovered, for logs and tests.
    public var stallRecoveries: Int { watchdog.stalls }

    public var currentItem: QueueItem? { queue.current }

    /// Never empty while an item is loaded: tags first, else the file name.
    public var title: String {
        if let title = media?.title, !title.isEmpty { return title }
        return currentItem?.fallbackTitle ?? ""
    }

    public var isInGap: Bool { gapRemaining != nil }
    /// Play, pause and seeking wait while the gap between two plays counts down.
    public var canControlTransport: Bool { currentItem != nil && !isInGap }
    public var canSeek: Bool { canControlTransport && duration != nil && (media?.isSeekable ?? true) }
    /// Next and Previous move by chapter when the queue holds one item with chapters (`+Chapters`).
    public var hasNext: Bool { movesByChapter ? nextChapter != nil : queue.nextIndex != nil }
    public var hasPrevious: Bool { currentItem != nil }

    // MARK: Starting an item

    func start(_ item: QueueItem, playing: Bool = true) {
        beginItem(item)
        let resumeAt = resume.position(for: item.uri)
        setStatus(.loading, notifying: false)
        if playing { wakeFromSleep() }
        choices.wantsToPlay = playing
        notify(.item)
        notify(.media)
        notify(.duration)
        load(item, at: resumeAt, playing: playing)
        notify(.position)
        notify(.status)
        if let resumeAt { notify(.resumed(at: resumeAt)) }
    }

    /// What every start of an item shares, loaded or joined (`+Gapless`): the last one's
    /// position kept, a clean slate, its plays counted from none, its file's choices restored.
    func beginItem(_ item: QueueItem) {
        skipAfterError = nil
        saveResumePosition()
        sequencer.endGap(continuing: false)
        _ = queue.select(id: item.id)
        resetItemState()
        sequencer.itemStarted()
        restoreFileChoices(for: item)
    }

    /// Loads `item` into the engine and plays it (or stops at its first frame), from `position`
    /// when given (GstPlay keeps a seek asked for before the item is ready and does it once it is).
    func load(_ item: QueueItem, at position: Seconds?, playing: Bool = true) {
        loaded.uri = item.uri
        engine.load(uri: item.uri)
        if let subtitles = SubtitleFiles.beside(item.uri) {
            engine.setExternalSubtitles(uri: subtitles)
            loaded.cues = SubtitleCues.read(uri: subtitles)
        }
        if let position, position > 0 {
            loaded.position = position
            loaded.pendingSeek = position
            engine.seek(to: position, accurate: true)
        }
        engine.setRate(rate)
        if playing { engine.play() } else { engine.pause() }
    }

    func resetItemState() {
        let had = (subtitle: loaded.subtitle != nil, loop: loaded.abLoop != nil, chapters: !loaded.chapters.isEmpty)
        loaded = LoadedItem()
        if had.subtitle { notify(.subtitle) }
        if had.loop { notify(.abLoop) }
        if had.chapters { notify(.chapters) }
    }

    func updateSubtitle() {
        let line = loaded.subtitles.line(at: position - choices.subtitleDelay)
        let secondChanged = updateSecondSubtitle()
        guard line != loaded.subtitle || secondChanged else { return }
        loaded.subtitle = line
        notify(.subtitle)
    }

    // MARK: Transport

    public func play() {
        guard canControlTransport else { return }
        choices.wantsToPlay = true
        switch status {
        case .ended, .stopped:
            // Start over: a play after the end must never do nothing.
            restartCurrentItem()
        case .failed, .idle:
            if let item = currentItem { start(item) }
        case .paused where isLive:
            wakeFromSleep()
            // What was buffered at the pause is old news: back to the live edge.
            restartCurrentItem()
        default:
            wakeFromSleep()
            resumeAfterSpeaking()
            engine.play()
        }
    }

    public func pause() {
        guard canControlTransport else { return }
        choices.wantsToPlay = false
        engine.pause()
        saveResumePosition()
    }

    public func togglePlayPause() {
        guard canControlTransport else { return }
        if status.isPlaying || (status == .loading && choices.wantsToPlay) { pause() } else { play() }
    }

    public func stop() {
        guard currentItem != nil else { return }
        saveResumePosition()
        sequencer.endGap(continuing: false)
        choices.wantsToPlay = false
        engine.stop()
        loaded.pendingSeek = nil
        loaded.position = 0
        setStatus(.stopped)
        notify(.position)
    }

    public func next() {
        if movesByChapter { return goToNextChapter() }
        guard let index = queue.nextIndex, let item = queue.moveTo(index: index) else { return }
        start(item)
    }

    /// Restarts the item when it has played a while, else goes back one item.
    public func previous() {
        guard currentItem != nil else { return }
        if movesByChapter, !isInGap { return goToPreviousChapter() }
        if isInGap {
            // Waiting after this item: play it again now.
            sequencer.endGap(continuing: false)
            restartCurrentItem()
        } else if position > Self.restartThreshold || queue.previousIndex == nil {
            seek(to: 0)
        } else if let index = queue.previousIndex, let item = queue.moveTo(index: index) {
            start(item)
        }
    }

    /// Seeks to an absolute time, clamped to the item. Keeps the play/pause state and the rate.
    /// `accurate: false` is for scrubbing: the nearest keyframe, fast.
    public func seek(to target: Seconds, accurate: Bool = true) {
        guard canSeek, target.isFinite else { return }
        let clamped = min(max(0, target), duration ?? 0)
        // Scrubbing seeks are superseded by the accurate one on release; only that one is awaited.
        if accurate { loaded.pendingSeek = clamped }
        // The position moved, by the user's hand: the stall watchdog counts from here.
        watchdog.progressed()
        loaded.position = clamped
        notify(.position)
        if status == .ended || status == .stopped {
            // From the end, a seek lands paused (the pipeline was left playing at its end).
            setStatus(.paused)
            engine.pause()
        }
        engine.seek(to: clamped, accurate: accurate)
    }

    /// Moves by `delta` seconds. Past the end, the item ends (or the next one starts).
    public func skip(by delta: Seconds) {
        guard canSeek, delta.isFinite else { return }
        let target = position + delta
        if let duration, target >= duration {
            endOfItem()
        } else {
            seek(to: max(0, target))
        }
    }

    /// Jumps to the end of the item: it ends (or the next one starts), as when it plays out.
    public func skipToEnd() {
        guard canSeek else { return }
        endOfItem()
    }

    public func setRate(_ newRate: Double) {
        guard newRate.isFinite, !isLive else { return }
        let clamped = min(max(newRate, Self.rateRange.lowerBound), Self.rateRange.upperBound)
        guard clamped != choices.rate else { return }
        choices.rate = clamped
        engine.setRate(clamped)
        notify(.rate)
    }

    public func setVolume(_ newVolume: Double) {
        guard newVolume.isFinite else { return }
        let clamped = min(max(newVolume, Self.volumeRange.lowerBound), Self.volumeRange.upperBound)
        guard clamped != volume else { return }
        choices.volume = clamped
        choices.fadedOut = false
        engine.setVolume(clamped)
        notify(.volume)
    }

    public func setMuted(_ muted: Bool) {
        guard muted != isMuted else { return }
        choices.isMuted = muted
        engine.setMuted(muted)
        notify(.volume)
    }

    // MARK: Tracks

    public func selectAudioTrack(_ index: Int) {
        guard let media, media.audioTracks.contains(where: { $0.index == index }), media.currentAudioTrack != index else { return }
        engine.selectAudioTrack(index)
    }

    /// Shows the subtitle track `index`; nil turns subtitles off.
    public func selectSubtitleTrack(_ index: Int?) {
        guard let media, media.currentSubtitleTrack != index else { return }
        if let index, !media.subtitleTracks.contains(where: { $0.index == index }) { return }
        engine.selectSubtitleTrack(index)
    }

    /// Subtitles from a file the user picked, for the item playing.
    public func openSubtitles(uri: String) {
        guard currentItem != nil, MediaLocation.isSupported(uri) else { return }
        engine.setExternalSubtitles(uri: uri)
        loaded.cues = SubtitleCues.read(uri: uri)
        loaded.subtitleFile = uri
    }

    // MARK: Video

    /// The window tells the model whether any of the video can be seen, and whether the desktop
    /// hid it (rather than the user closing it into the background); unseen video is not
    /// decoded. Audio-only media are left alone: there is nothing to detach, and switching the
    /// pipeline's video branch would only disturb their sound.
    public func setVideoVisible(_ visible: Bool, hiddenByDesktop: Bool = false) {
        guard visible != isVideoVisible else { return }
        isVideoVisible = visible
        if !visible, hiddenByDesktop, pausesWhenHiddenByDesktop, status.isPlaying || status == .loading { pause() }
        syncVideoBranch()
    }

    func syncVideoBranch() {
        guard let media else { return engine.setVideoEnabled(isVideoVisible) }
        if media.isAudioOnly { return }
        // Without sound the video's sink keeps the time: with the branch detached, the stream
        // raced to its end.
        engine.setVideoEnabled(media.hasAudio ? isVideoVisible : true)
    }

    func setStatus(_ newStatus: PlaybackStatus, notifying: Bool = true) {
        guard newStatus != status else { return }
        status = newStatus
        watchdog.update()
        if notifying { notify(.status) }
    }
}
