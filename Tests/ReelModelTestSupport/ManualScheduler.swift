// SPDX-License-Identifier: GPL-3.0-or-later
import ReelCore

/// A clock the test moves by hand: actions run when `advance` passes their time.
@MainActor
public final class ManualScheduler: Scheduler {
    private struct Pending { let id: Int; let due: Seconds; let action: @MainActor () -> Void }
    public private(set) var now: Seconds = 0
    private var pending: [Pending] = []
    private var nextID = 0

    public init() {}

    public func schedule(after delay: Seconds, _ action: @escaping @MainActor () -> Void) -> ScheduledAction {
        let id = nextID
        nextID += 1
        pending.append(Pending(id: id, due: now + max(0, delay), action: action))
        return ScheduledAction { [weak self] in
            MainActor.assumeIsolated { self?.pending.removeAll { $0.id == id } }
        }
    }

    /// Moves the clock forward, running what falls due in time order.
    public func advance(by seconds: Seconds) {
        let end = now + seconds
        while let next = pending.filter({ $0.due <= end + 1e-9 }).min(by: { ($0.due, $0.id) < ($1.due, $1.id) }) {
            pending.removeAll { $0.id == next.id }
            now = max(now, next.due)
            next.action()
        }
        now = end
    }

    public var pendingCount: Int { pending.count }
}
