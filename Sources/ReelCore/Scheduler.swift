// SPDX-License-Identifier: GPL-3.0-or-later
/// Timers for the model (gaps between items, the stall watchdog), injected so the model stays
/// free of any main loop: the app runs them on GLib's, tests advance a manual clock.
@MainActor
public protocol Scheduler: AnyObject {
    /// Runs `action` once after `delay` seconds on the main thread, unless cancelled first.
    func schedule(after delay: Seconds, _ action: @escaping @MainActor () -> Void) -> ScheduledAction
}

/// A pending action; cancelling it (or letting go of it) keeps it from running. Made, cancelled
/// and released on the main thread only.
public final class ScheduledAction {
    private var cancelHandler: (() -> Void)?

    public init(cancel: @escaping () -> Void) { cancelHandler = cancel }

    public func cancel() {
        cancelHandler?()
        cancelHandler = nil
    }

    deinit { cancelHandler?() }
}
