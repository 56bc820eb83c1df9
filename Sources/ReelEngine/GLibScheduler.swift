// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import ReelCore
import ReelGLib

/// The model's timers on the GLib main loop.
@MainActor
public final class GLibScheduler: Scheduler {
    public init() {}

    public func schedule(after delay: Seconds, _ action: @escaping @MainActor () -> Void) -> ScheduledAction {
        var sourceID: guint = 0
        sourceID = addTimeout(milliseconds: UInt32(max(0, delay) * 1000)) {
            sourceID = 0
            action()
            return false
        }
        return ScheduledAction { if sourceID != 0 { g_source_remove(sourceID); sourceID = 0 } }
    }
}
