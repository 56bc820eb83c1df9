// SPDX-License-Identifier: GPL-3.0-or-later
/// Checks twice a second, while playback is watched, that the position moves (`progressed()`
/// resets the count), that a stream being waited on sends data in time and that a local file
/// starts. A position that has not moved for `stallTimeout` (`seekTimeout` while a seek is on
/// its way) is reported with the attempt it calls for (1, 2, 3, then 1 again: the model tries a
/// flushing seek, then loading again, then gives up); waiting on the network longer than
/// `waitingTimeout`, or on a local file longer than `startTimeout`, is reported too. The seed
/// apps' queues silently stopped after many transitions; this is what keeps Reel's going.
@MainActor
final class StallWatchdog {
    enum Watch {
        case nothing, stalls
        /// Playing, a seek on its way: it settles in well under a second on a desktop, in
        /// seconds under a sanitizer or from a slow disk; `seekTimeout` without progress is a stall.
        case seeking
        /// A stream connecting or buffering.
        case data
        /// A local file loading: it prerolls in well under a second on a desktop, in seconds
        /// from a disk waking up or under a sanitizer; `startTimeout` never calls those damaged.
        case start
    }
    enum Finding: Equatable { case stalled(attempt: Int), waitedTooLong }

    static let interval: Seconds = 0.5
    static let stallTimeout: Seconds = 2
    static let seekTimeout: Seconds = 6
    static let attempts = 3
    static let startTimeout: Seconds = 10
    var waitingTimeout: Seconds = 20
    /// How many stalls were found, for logs and tests.
    private(set) var stalls = 0

    private let scheduler: Scheduler
    private let watch: @MainActor () -> Watch
    private let onFinding: @MainActor (Finding) -> Void
    /// Each tick while watched for stalls: the model's "every so often while playing".
    private let onPlayingTick: @MainActor () -> Void
    private var timer: ScheduledAction?
    private var stalledFor: Seconds = 0
    private var waitingFor: Seconds = 0
    private var attempt = 0

    init(scheduler: Scheduler, watch: @escaping @MainActor () -> Watch,
         onPlayingTick: @escaping @MainActor () -> Void, onFinding: @escaping @MainActor (Finding) -> Void) {
        self.scheduler = scheduler
        self.watch = watch
        self.onPlayingTick = onPlayingTick
        self.onFinding = onFinding
    }

    /// What is watched may have changed (the status did).
    func update() {
        let watching = watch()
        if watching != .data && watching != .start { waitingFor = 0 }
        guard watching != .nothing else {
            timer = nil
            return
        }
        guard timer == nil else { return }
        stalledFor = 0
        scheduleTick()
    }

    /// The position moved: playback is going.
    func progressed() {
        stalledFor = 0
        waitingFor = 0
        attempt = 0
    }

    private func scheduleTick() {
        timer = scheduler.schedule(after: Self.interval) { [weak self] in
            guard let self else { return }
            self.timer = nil
            self.tick()
            if self.watch() != .nothing { self.scheduleTick() }
        }
    }

    private func tick() {
        let watching = watch()
        switch watching {
        case .nothing:
            return
        case .data, .start:
            waitingFor += Self.interval
            guard waitingFor >= (watching == .start ? Self.startTimeout : waitingTimeout) else { return }
            waitingFor = 0
            onFinding(.waitedTooLong)
        case .stalls, .seeking:
            onPlayingTick()
            stalledFor += Self.interval
            guard stalledFor >= (watching == .seeking ? Self.seekTimeout : Self.stallTimeout) else { return }
            stalledFor = 0
            attempt = attempt % Self.attempts + 1
            stalls += 1
            onFinding(.stalled(attempt: attempt))
        }
    }
}
