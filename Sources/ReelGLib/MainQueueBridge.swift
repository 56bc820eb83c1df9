// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGLibShims

/// GLib's main loop does not drain the Dispatch main queue, so `@MainActor` tasks and
/// `DispatchQueue.main` blocks would never run under `g_application_run`. This watches the
/// eventfd libdispatch signals when the main queue has work and drains it from the GLib loop,
/// as Foundation's run loop does on other platforms.
public enum MainQueueBridge {
    nonisolated(unsafe) private static var sourceID: guint = 0

    /// Installs the bridge on the default main context; calling it again does nothing.
    /// Must run on the main thread before the GLib loop starts.
    public static func install() {
        guard sourceID == 0 else { return }
        let fd = reel_dispatch_main_queue_fd()
        precondition(fd >= 0, "libdispatch did not give a main queue handle")
        sourceID = g_unix_fd_add_full(G_PRIORITY_DEFAULT, fd, G_IO_IN, { fd, _, _ in
            // The handle is an eventfd: consume its counter, then run what is queued.
            var counter: UInt64 = 0
            _ = withUnsafeMutableBytes(of: &counter) { read(fd, $0.baseAddress, 8) }
            reel_dispatch_drain_main_queue()
            return gboolean(1)
        }, nil, nil)
    }
}
