// SPDX-License-Identifier: GPL-3.0-or-later
/// What follows one play of an item — the same item again (repeat-each) or not — and the wait
/// between two plays, counted down in whole seconds (a fractional rest first) for the countdown
/// on screen. The language learner's loop: each item `repeatEach` times, `gapLength` apart.
@MainActor
final class PlaySequencer {
    nonisolated static let repeatRange: ClosedRange<Int> = 1...100
    nonisolated static let gapRange: ClosedRange<Seconds> = 0...60

    private(set) var repeatEach = 1
    private(set) var gapLength: Seconds = 0
    /// While waiting between two plays: the seconds left.
    private(set) var gapRemaining: Seconds?
    /// The wait began, counted down, or ended.
    var onGapChange: (@MainActor () -> Void)?
    private var playsOfCurrentItem = 0
    private var gapTimer: ScheduledAction?
    private var followingGap: (@MainActor () -> Void)?
    private let scheduler: Scheduler

    init(scheduler: Scheduler) { self.scheduler = scheduler }

    /// Whether the value changed.
    func setRepeatEach(_ count: Int) -> Bool {
        let clamped = min(max(count, Self.repeatRange.lowerBound), Self.repeatRange.upperBound)
        guard clamped != repeatEach else { return false }
        repeatEach = clamped
        return true
    }

    /// Whether the value changed; a length that is not a number is refused.
    func setGap(_ seconds: Seconds) -> Bool {
        guard seconds.isFinite else { return false }
        let clamped = min(max(seconds, Self.gapRange.lowerBound), Self.gapRange.upperBound)
        guard clamped != gapLength else { return false }
        gapLength = clamped
        return true
    }

    /// A new item starts: its plays are counted from none.
    func itemStarted() { playsOfCurrentItem = 0 }

    /// One play of the item ended; whether it plays again (repeat-each, or `loopingItem`).
    func playEnded(loopingItem: Bool) -> Bool {
        playsOfCurrentItem += 1
        return loopingItem || playsOfCurrentItem < repeatEach
    }

    /// Runs `continuation` after the gap, at once when there is none.
    func afterGap(_ continuation: @escaping @MainActor () -> Void) {
        guard gapLength > 0 else { return continuation() }
        followingGap = continuation
        gapRemaining = gapLength
        onGapChange?()
        scheduleTick()
    }

    /// Ends the wait early; `continuing` runs what was to follow it.
    func endGap(continuing: Bool) {
        guard gapRemaining != nil else { return }
        gapTimer?.cancel()
        gapTimer = nil
        let continuation = followingGap
        followingGap = nil
        gapRemaining = nil
        onGapChange?()
        if continuing { continuation?() }
    }

    private func scheduleTick() {
        guard let remaining = gapRemaining else { return }
        let fraction = remaining.truncatingRemainder(dividingBy: 1)
        let step = fraction > 0.001 ? fraction : min(1, remaining)
        gapTimer = scheduler.schedule(after: step) { [weak self] in
            guard let self, let remaining = self.gapRemaining else { return }
            let left = remaining - step
            if left <= 0.001 {
                self.endGap(continuing: true)
            } else {
                self.gapRemaining = left
                self.onGapChange?()
                self.scheduleTick()
            }
        }
    }
}
