/// The single source of truth for what plays. The engine reports into it; the window, MPRIS and
/// the background-audio controller observe it and send their commands through it, so every
/// control surface sees the same state and obeys the same rules (rate kept across items and
/// seeks, skips clamped, a play after the end restarting from the beginning).
@MainActor
public final class PlayerModel {
    public enum Change: Equatable, Sendable {
        case status, position, duration, media, item, queue, rate, volume
        /// A seek finished at this position, whoever asked for it (slider, keys, MPRIS).
        case seeked(Seconds)
        /// An item failed; the status may already have moved on to the next item.
        case failed(QueueItem, PlaybackError)
        /// The item plays, but not entirely (e.g. sound without its video's decoder).
        case warning(QueueItem, PlaybackError)
        /// The item played to its end (once; it may play again with repeat-each or loop).
        case played(QueueItem)
        /// The wait between two plays began, counted down, or ended (`gapRemaining`).
        case gap
        /// Repeat-each or the gap length changed.
        case sequence
        /// Playback stopped advancing and the model tried to get it going again.
        case stallRecovery(StallRecovery, at: Seconds)
        /// The item was opened where it was left last time.
        case resumed(at: Seconds)
        /// The subtitle line on screen changed (`subtitle`).
        case subtitle
    }

    public enum StallRecovery: Equatable, Sendable {
        /// A flushing seek to where playback stood.
        case flushingSeek
        /// The item loaded anew at where playback stood.
        case reload
    }

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
    /// Resume positions are saved this often during playback, so a crash loses at most this much.
    static let resumeSaveInterval: Seconds = 5

    public private(set) var status: PlaybackStatus = .idle
    public private(set) var position: Seconds = 0
    /// nil while unknown: a length is never reported as 0 before it is known.
    public private(set) var duration: Seconds?
    public private(set) var media: MediaInfo?
    public private(set) var queue = PlaybackQueue()
    public private(set) var rate: Double = 1
    public private(set) var volume: Double = 1
    public private(set) var isMuted = false
    /// Move on to the next item when one fails (the queue keeps playing through broken files).
    public var continueAfterErrors = true
    /// Each item plays this many times before the queue moves on (the language learner's loop).
    public var repeatEach: Int { sequencer.repeatEach }
    /// A stream that buffers (or is still connecting) this long without playing on is given up
    /// with a message; the app may shorten it (tests do, through REEL_NETWORK_TIMEOUT).
    public var bufferingTimeout: Seconds {
        get { watchdog.waitingTimeout }
        set { watchdog.waitingTimeout = newValue }
    }
    /// Seconds between two plays, during which the transport waits and cannot be used.
    public var gapLength: Seconds { sequencer.gapLength }
    /// While waiting between two plays: the seconds left.
    public var gapRemaining: Seconds? { sequencer.gapRemaining }
    /// The subtitle line to show now, if any.
    public private(set) var subtitle: SubtitleLine?
    private var subtitleTimeline = SubtitleTimeline()
    /// How many times playback stalled and was recovered, for logs and tests.
    public var stallRecoveries: Int { watchdog.stalls }

    private let engine: PlaybackEngine
    private let scheduler: Scheduler
    private let resumePositions: ResumePositions?
    private let sequencer: PlaySequencer
    private lazy var watchdog = StallWatchdog(
        scheduler: scheduler, watch: { [weak self] in self?.watched ?? .nothing },
        onPlayingTick: { [weak self] in self?.playedAWhile() },
        onFinding: { [weak self] finding in self?.recover(from: finding) })
    /// Moves on past a failed item once its error has been seen (see `errorDwell`).
    private var skipAfterError: ScheduledAction?
    private var sinceResumeSave: Seconds = 0
    private var observers: [Int: (Change) -> Void] = [:]
    private var nextObserverID = 0
    /// The target of a seek not yet done; position ticks from before it would pull the slider back.
    private var pendingSeek: Seconds?
    /// What the user asked for: play or stay paused once the item is ready.
    private var wantsToPlay = false

    /// `resumePositions`, when given, remembers where long files were left.
    public init(engine: PlaybackEngine, scheduler: Scheduler, resumePositions: ResumePositions? = nil) {
        self.engine = engine
        self.scheduler = scheduler
        self.resumePositions = resumePositions
        sequencer = PlaySequencer(scheduler: scheduler)
        sequencer.onGapChange = { [weak self] in self?.notify(.gap) }
        engine.onEvent = { [weak self] event in self?.handle(event) }
    }

    // MARK: Observing

    public final class Observation {
        fileprivate var cancelAction: (() -> Void)?
        public func cancel() { cancelAction?(); cancelAction = nil }
    }

    /// Calls `handler` after every change until the returned observation is cancelled.
    @discardableResult
    public func observe(_ handler: @escaping (Change) -> Void) -> Observation {
        let id = nextObserverID
        nextObserverID += 1
        observers[id] = handler
        let observation = Observation()
        observation.cancelAction = { [weak self] in self?.observers[id] = nil }
        return observation
    }

    private func notify(_ change: Change) {
        for id in observers.keys.sorted() { observers[id]?(change) }
    }

    // MARK: Derived state

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
    public var hasNext: Bool { queue.nextIndex != nil }
    public var hasPrevious: Bool { currentItem != nil }

    // MARK: Opening

    /// Queues `uris` and plays the first of them at once.
    public func open(_ uris: [String]) {
        let added = queue.append(uris)
        notify(.queue)
        if let first = added.first { start(first) }
    }

    /// Queues `uris`; starts the first only when nothing is loaded.
    public func enqueue(_ uris: [String]) {
        let added = queue.append(uris)
        notify(.queue)
        if currentItem == nil, let first = added.first { start(first) }
    }

    /// Puts back a queue saved by an earlier run: its current item is loaded paused (where it
    /// was left, for a long file), so starting Reel never starts sound by itself.
    public func restore(_ uris: [String], current: Int?) {
        guard queue.items.isEmpty else { return }
        let added = queue.append(uris)
        notify(.queue)
        if let current, added.indices.contains(current) { start(added[current], playing: false) }
    }

    public func playItem(id: Int) {
        guard let item = queue.items.first(where: { $0.id == id }) else { return }
        start(item)
    }

    public func removeItem(id: Int) {
        let wasCurrent = currentItem?.id == id
        if wasCurrent { saveResumePosition() }
        queue.remove(id: id)
        notify(.queue)
        if wasCurrent {
            sequencer.endGap(continuing: false)
            engine.stop()
            resetItemState()
            status = .idle
            notify(.item)
            notify(.status)
        }
    }

    /// Inserts `uris` after the item `afterID` (or first, or last); optionally plays the first.
    public func insert(_ uris: [String], after afterID: Int?, atStart: Bool = false, play: Bool = false) -> [QueueItem] {
        let added = queue.insert(uris, after: afterID, atStart: atStart)
        notify(.queue)
        if let first = added.first, play || currentItem == nil { start(first) }
        return added
    }

    /// Moves the item `id` before the item `beforeID` (or to the end).
    public func moveItem(id: Int, before beforeID: Int?) {
        guard queue.move(id: id, before: beforeID) else { return }
        notify(.queue)
    }

    public func setRepeatEach(_ count: Int) {
        if sequencer.setRepeatEach(count) { notify(.sequence) }
    }

    public func setGap(_ seconds: Seconds) {
        if sequencer.setGap(seconds) { notify(.sequence) }
    }

    public func setShuffle(_ shuffle: Bool) {
        guard queue.shuffle != shuffle else { return }
        queue.shuffle = shuffle
        notify(.queue)
    }

    public func setLoopMode(_ mode: PlaybackQueue.LoopMode) {
        guard queue.loopMode != mode else { return }
        queue.loopMode = mode
        notify(.queue)
    }

    private func start(_ item: QueueItem, playing: Bool = true) {
        skipAfterError = nil
        saveResumePosition()
        sequencer.endGap(continuing: false)
        _ = queue.select(id: item.id)
        resetItemState()
        sequencer.itemStarted()
        let resumeAt = resumePositions?.position(for: item.uri)
        setStatus(.loading, notifying: false)
        wantsToPlay = playing
        notify(.item)
        notify(.media)
        notify(.duration)
        load(item, at: resumeAt, playing: playing)
        notify(.position)
        notify(.status)
        if let resumeAt { notify(.resumed(at: resumeAt)) }
    }

    /// Loads `item` into the engine and plays it (or stops at its first frame), from `position`
    /// when given (GstPlay keeps a seek asked for before the item is ready and does it once it is).
    private func load(_ item: QueueItem, at position: Seconds?, playing: Bool = true) {
        engine.load(uri: item.uri)
        if let subtitles = SubtitleFiles.beside(item.uri) { engine.setExternalSubtitles(uri: subtitles) }
        if let position, position > 0 {
            self.position = position
            pendingSeek = position
            engine.seek(to: position, accurate: true)
        }
        engine.setRate(rate)
        if playing { engine.play() } else { engine.pause() }
    }

    private func resetItemState() {
        position = 0
        duration = nil
        media = nil
        pendingSeek = nil
        subtitleTimeline.removeAll()
        updateSubtitle()
    }

    private func updateSubtitle() {
        let line = subtitleTimeline.line(at: position)
        guard line != subtitle else { return }
        subtitle = line
        notify(.subtitle)
    }

    // MARK: Transport

    public func play() {
        guard canControlTransport else { return }
        wantsToPlay = true
        switch status {
        case .ended, .stopped:
            // Start over: a play after the end must never do nothing.
            restartCurrentItem()
        case .failed, .idle:
            if let item = currentItem { start(item) }
        default:
            engine.play()
        }
    }

    public func pause() {
        guard canControlTransport else { return }
        wantsToPlay = false
        engine.pause()
        saveResumePosition()
    }

    public func togglePlayPause() {
        guard canControlTransport else { return }
        if status.isPlaying || (status == .loading && wantsToPlay) { pause() } else { play() }
    }

    public func stop() {
        guard currentItem != nil else { return }
        saveResumePosition()
        sequencer.endGap(continuing: false)
        wantsToPlay = false
        engine.stop()
        pendingSeek = nil
        position = 0
        setStatus(.stopped)
        notify(.position)
    }

    public func next() {
        guard let index = queue.nextIndex, let item = queue.moveTo(index: index) else { return }
        start(item)
    }

    /// Restarts the item when it has played a while, else goes back one item.
    public func previous() {
        guard currentItem != nil else { return }
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
        if accurate { pendingSeek = clamped }
        position = clamped
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
        guard newRate.isFinite else { return }
        let clamped = min(max(newRate, Self.rateRange.lowerBound), Self.rateRange.upperBound)
        guard clamped != rate else { return }
        rate = clamped
        engine.setRate(clamped)
        notify(.rate)
    }

    public func setVolume(_ newVolume: Double) {
        guard newVolume.isFinite else { return }
        let clamped = min(max(newVolume, 0), 1)
        guard clamped != volume else { return }
        volume = clamped
        engine.setVolume(clamped)
        notify(.volume)
    }

    public func setMuted(_ muted: Bool) {
        guard muted != isMuted else { return }
        isMuted = muted
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
    }

    /// Whether any of the video can be seen (the window is not minimized or hidden).
    public private(set) var isVideoVisible = true

    /// Pause, rather than play on without decoding video, when the desktop hides the window
    /// (minimized; on Wayland any way the desktop hides it): the user's "When Minimized" choice.
    public var pausesWhenHiddenByDesktop = false

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

    private func syncVideoBranch() {
        if !(media?.isAudioOnly ?? false) { engine.setVideoEnabled(isVideoVisible) }
    }

    // MARK: Engine events

    private func handle(_ event: EngineEvent) {
        switch event {
        case .state(let state):
            handle(state)
        case .position(let newPosition):
            guard pendingSeek == nil, currentItem != nil, status != .ended, status != .stopped,
                  newPosition != position else { return }
            position = newPosition
            watchdog.progressed()
            notify(.position)
            updateSubtitle()
        case .duration(let newDuration):
            let known = newDuration.flatMap { $0 > 0 ? $0 : nil }
            guard known != duration else { return }
            duration = known
            notify(.duration)
        case .mediaInfo(let info):
            guard info != media else { return }
            media = info
            syncVideoBranch()
            notify(.media)
        case .buffering(let percent):
            if percent < 100, status.isPlaying || status == .loading {
                setStatus(.buffering(percent: percent))
            }
        case .seekDone(let reached):
            guard pendingSeek != nil else { return }
            pendingSeek = nil
            position = reached
            notify(.position)
            notify(.seeked(reached))
        case .endOfStream:
            endOfItem()
        case .error(let error):
            fail(with: error)
        case .warning(let problem):
            if let item = currentItem { notify(.warning(item, problem)) }
        case .volume(let newVolume):
            guard abs(newVolume - volume) > 0.0001 else { return }
            volume = newVolume
            notify(.volume)
        case .audioOutputLost:
            // As phones do: pause, and resume only when the user says so.
            if status.isPlaying || (status == .loading && wantsToPlay) { pause() }
        case .subtitle(let line?):
            subtitleTimeline.add(line)
            updateSubtitle()
        case .subtitle(nil):
            subtitleTimeline.removeAll()
            updateSubtitle()
        case .muted(let muted):
            guard muted != isMuted else { return }
            isMuted = muted
            notify(.volume)
        }
    }

    private func handle(_ state: EngineState) {
        // Between two plays the engine rests at the end of the last one; the queue still plays.
        if isInGap { return }
        switch state {
        case .playing:
            if status == .ended || status == .stopped { return }
            setStatus(.playing)
        case .paused:
            // While an item prerolls on its way to playing, the engine passes through paused.
            if status == .loading && wantsToPlay { return }
            if status == .ended || status == .stopped { return }
            if case .failed = status { return }
            setStatus(.paused)
        case .buffering:
            if case .buffering = status { return }
            if status == .loading || status.isPlaying { setStatus(.buffering(percent: 0)) }
        case .stopped:
            switch status {
            case .loading, .ended, .failed, .idle, .stopped: return
            default: setStatus(.stopped)
            }
        }
    }

    /// One play of the item is over: play it again (repeat-each, loop one), go on to the next
    /// one, or end — after the gap, when one is set and something follows.
    private func endOfItem() {
        guard let item = currentItem, !isInGap else { return }
        let again = sequencer.playEnded(loopingItem: queue.loopMode == .item)
        pendingSeek = nil
        if let duration { position = duration; notify(.position) }
        resumePositions?.forget(uri: item.uri)
        notify(.played(item))
        let continuation: @MainActor () -> Void
        if again {
            continuation = { [weak self] in self?.restartCurrentItem() }
        } else if let index = queue.nextIndex {
            continuation = { [weak self] in
                guard let self, let next = self.queue.moveTo(index: index) else { return }
                self.start(next)
            }
        } else {
            // The pipeline rests at its end, on the last frame: a pause here would make GstPlay
            // (1.22) seek back to the start, and show the first frame under a time at the end.
            setStatus(.ended)
            return
        }
        if gapLength > 0 { engine.pause() }
        sequencer.afterGap(continuation)
    }

    /// Plays the current item again from its start, keeping the count of its plays.
    private func restartCurrentItem() {
        guard currentItem != nil else { return }
        wantsToPlay = true
        position = 0
        pendingSeek = nil
        // Loading until the engine plays again: the engine's report of having stopped at the
        // end may still be on its way and must not be taken for a stop of the new play.
        setStatus(.loading)
        notify(.position)
        notify(.seeked(0))
        engine.restart()
    }

    // MARK: The stall watchdog

    private var watched: StallWatchdog.Watch {
        if isInGap { return .nothing }
        if isWaitingForData { return .data }
        return isWatchedForStalls ? .stalls : .nothing
    }

    /// Buffering, or connecting to a stream: waiting on the network.
    private var isWaitingForData: Bool {
        guard !(currentItem?.isLocalFile ?? true) else { return false }
        if case .buffering = status { return true }
        return status == .loading
    }

    /// Playing, or "buffering" a local file: nothing is downloaded, so that is the pipeline
    /// settling after a seek or a change of tracks — and GstPlay (1.22) can stay in it for good
    /// while the pipeline plays on, without position updates, when a state change crosses one
    /// of its seeks (seen after many minimize/restore cycles). The stall recovery's flushing
    /// seek brings its state back.
    private var isWatchedForStalls: Bool {
        if status == .playing { return true }
        if case .buffering = status { return currentItem?.isLocalFile ?? false }
        return false
    }

    private func playedAWhile() {
        sinceResumeSave += StallWatchdog.interval
        if sinceResumeSave >= Self.resumeSaveInterval { saveResumePosition() }
    }

    private func recover(from finding: StallWatchdog.Finding) {
        guard let item = currentItem else { return }
        switch finding {
        case .waitedTooLong:
            // A stream that stopped sending (or sends too slowly to play): give it up in words.
            // Stalled and merely slow look alike from here (the buffer's fill level moves too
            // little to tell): one message covers both.
            let message = status == .loading ? tr("“%@” did not answer in time.") : tr("“%@” is not sending data fast enough to play.")
            engine.stop()
            fail(with: PlaybackError(kind: .network, message: String(format: message, item.displayName)))
        case .stalled(attempt: 1):
            notify(.stallRecovery(.flushingSeek, at: position))
            engine.seek(to: position, accurate: true)
            engine.play()
        case .stalled(attempt: 2):
            notify(.stallRecovery(.reload, at: position))
            let at = position
            resetItemState()
            // Loading again: the engine reports the old pipeline stopping on the way.
            setStatus(.loading)
            load(item, at: at)
        case .stalled:
            engine.stop()
            fail(with: PlaybackError(kind: .other, message: String(format: tr("“%@” stopped playing and could not be restarted."), item.displayName)))
        }
    }

    // MARK: Resume positions

    /// Remembers where the current item stands, when it is long enough to be worth resuming.
    public func saveResumePosition() {
        sinceResumeSave = 0
        guard let resumePositions, let item = currentItem, let duration else { return }
        resumePositions.update(uri: item.uri, position: position, duration: duration)
    }

    /// Plays the current item from its start after it was resumed ("Start over").
    public func startOver() {
        guard let item = currentItem else { return }
        resumePositions?.forget(uri: item.uri)
        seek(to: 0)
    }

    private func fail(with error: PlaybackError) {
        guard let item = currentItem else { return }
        sequencer.endGap(continuing: false)
        // The next item plays only if this one was to: a queue put back paused stays paused.
        let wasToPlay = wantsToPlay
        wantsToPlay = false
        setStatus(.failed(error))
        notify(.failed(item, error))
        guard continueAfterErrors, let index = queue.nextIndex, index != queue.currentIndex else { return }
        skipAfterError = scheduler.schedule(after: Self.errorDwell) { [weak self] in
            guard let self else { return }
            self.skipAfterError = nil
            // Only if the user has not moved on (or stopped) meanwhile.
            guard case .failed = self.status, self.currentItem?.id == item.id,
                  let index = self.queue.nextIndex, let next = self.queue.moveTo(index: index) else { return }
            self.start(next, playing: wasToPlay)
        }
    }

    private func setStatus(_ newStatus: PlaybackStatus, notifying: Bool = true) {
        guard newStatus != status else { return }
        status = newStatus
        watchdog.update()
        if notifying { notify(.status) }
    }
}
