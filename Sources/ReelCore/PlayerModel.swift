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
    }

    public static let rateRange: ClosedRange<Double> = 0.25...4.0
    /// Previous restarts the current item when it has played longer than this.
    public static let restartThreshold: Seconds = 3

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

    private let engine: PlaybackEngine
    private var observers: [Int: (Change) -> Void] = [:]
    private var nextObserverID = 0
    /// The target of a seek not yet done; position ticks from before it would pull the slider back.
    private var pendingSeek: Seconds?
    /// What the user asked for: play or stay paused once the item is ready.
    private var wantsToPlay = false

    public init(engine: PlaybackEngine) {
        self.engine = engine
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

    public var canSeek: Bool { currentItem != nil && duration != nil && (media?.isSeekable ?? true) }
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

    public func playItem(id: Int) {
        guard let item = queue.items.first(where: { $0.id == id }) else { return }
        start(item)
    }

    public func removeItem(id: Int) {
        let wasCurrent = currentItem?.id == id
        queue.remove(id: id)
        notify(.queue)
        if wasCurrent {
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

    private func start(_ item: QueueItem) {
        _ = queue.select(id: item.id)
        resetItemState()
        status = .loading
        wantsToPlay = true
        notify(.item)
        notify(.media)
        notify(.duration)
        notify(.position)
        notify(.status)
        engine.load(uri: item.uri)
        engine.setRate(rate)
        engine.play()
    }

    private func resetItemState() {
        position = 0
        duration = nil
        media = nil
        pendingSeek = nil
    }

    // MARK: Transport

    public func play() {
        guard currentItem != nil else { return }
        wantsToPlay = true
        switch status {
        case .ended, .stopped:
            // Start over: a play after the end must never do nothing.
            position = 0
            notify(.position)
            setStatus(.loading)
            engine.seek(to: 0, accurate: true)
            engine.setRate(rate)
            engine.play()
        case .failed, .idle:
            if let item = currentItem { start(item) }
        default:
            engine.play()
        }
    }

    public func pause() {
        guard currentItem != nil else { return }
        wantsToPlay = false
        engine.pause()
    }

    public func togglePlayPause() {
        if status.isPlaying || (status == .loading && wantsToPlay) { pause() } else { play() }
    }

    public func stop() {
        guard currentItem != nil else { return }
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
        if position > Self.restartThreshold || queue.previousIndex == nil {
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
        if status == .ended || status == .stopped { setStatus(.paused) }
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

    /// Whether any of the video can be seen (the window is not minimized or hidden).
    public private(set) var isVideoVisible = true

    /// The window tells the model whether any of the video can be seen; unseen video is not
    /// decoded. Audio-only media are left alone: there is nothing to detach, and switching the
    /// pipeline's video branch would only disturb their sound.
    public func setVideoVisible(_ visible: Bool) {
        guard visible != isVideoVisible else { return }
        isVideoVisible = visible
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
            notify(.position)
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
        case .muted(let muted):
            guard muted != isMuted else { return }
            isMuted = muted
            notify(.volume)
        }
    }

    private func handle(_ state: EngineState) {
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

    private func endOfItem() {
        guard let item = currentItem else { return }
        if queue.loopMode == .item {
            start(item)
        } else if let index = queue.nextIndex, let next = queue.moveTo(index: index) {
            start(next)
        } else {
            engine.pause()
            pendingSeek = nil
            if let duration { position = duration; notify(.position) }
            setStatus(.ended)
        }
    }

    private func fail(with error: PlaybackError) {
        guard let item = currentItem else { return }
        wantsToPlay = false
        setStatus(.failed(error))
        notify(.failed(item, error))
        if continueAfterErrors, let index = queue.nextIndex, index != queue.currentIndex,
           let next = queue.moveTo(index: index) {
            start(next)
        }
    }

    private func setStatus(_ newStatus: PlaybackStatus) {
        guard newStatus != status else { return }
        status = newStatus
        notify(.status)
    }
}
