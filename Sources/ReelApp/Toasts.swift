import CAdwaita
import CGtk
import Foundation
import ReelGLib

/// The window's toasts: one at a time, the latest message replacing the one shown.
///
/// Works round libadwaita 1.2: a toast added while the last one is still fading out slides in
/// for 500 ms, and dismissed within 200 ms of that (Escape twice over a queue of toasts) it was
/// freed when its 300 ms fade-out ended while its slide-in still ran, whose end then read the
/// freed toast: a crash. So the overlay never holds a queue, a toast is added only once the
/// last one has faded out, and one is never dismissed during its own slide-in.
@MainActor
final class Toasts {
    /// libadwaita's slide-in and fade-out take 300 ms each; these leave a frame's margin.
    private static let slideIn: Double = 0.35
    private static let fadeOut: Double = 0.4

    let overlay: Widget
    private var shown: (toast: OpaquePointer, message: String, since: Double)?
    private var waiting: (message: String, button: String?, action: String?)?
    private var lastGoneAt = -Double.infinity
    private var nextStep: guint = 0

    init(child: Widget) {
        overlay = adw_toast_overlay_new()!
        adw_toast_overlay_set_child(gcast(overlay), child)
    }

    /// The message of the toast on screen (for the tests' diagnostics).
    var shownMessage: String? { shown?.message }

    /// Shows `message` (Pango markup is escaped), with a button for `action` if given.
    func show(_ message: String, button: String? = nil, action: String? = nil) {
        waiting = (message, button, action)
        step()
    }

    private func step() {
        let now = Double(g_get_monotonic_time()) / 1e6
        if let shown {
            guard waiting != nil else { return }
            if now - shown.since >= Self.slideIn {
                adw_toast_dismiss(shown.toast)  // its "dismissed" takes the next step
            } else {
                stepAgain(after: shown.since + Self.slideIn - now)
            }
        } else if let next = waiting {
            guard now - lastGoneAt >= Self.fadeOut else { return stepAgain(after: lastGoneAt + Self.fadeOut - now) }
            waiting = nil
            present(next.message, button: next.button, action: next.action, at: now)
        }
    }

    private func stepAgain(after seconds: Double) {
        guard nextStep == 0 else { return }
        nextStep = addTimeout(milliseconds: UInt32(max(1, (seconds * 1000).rounded(.up)))) { [weak self] in
            self?.nextStep = 0
            self?.step()
            return false
        }
    }

    private func present(_ message: String, button: String?, action: String?, at now: Double) {
        let toast = adw_toast_new(UI.escapeMarkup(message))!
        adw_toast_set_timeout(toast, 8)
        if let button, let action {
            adw_toast_set_button_label(toast, button)
            adw_toast_set_action_name(toast, action)
        }
        shown = (toast, message, now)
        // Ours until it is dismissed (by its timeout, its close button, Escape or `step`); the
        // overlay owns the other reference. "dismissed" can come more than once: the first counts.
        g_object_ref(gpointer(toast))
        var handler: gulong = 0
        handler = connectMainSignal(UnsafeMutableRawPointer(toast), "dismissed") { [weak self] _ in
            g_signal_handler_disconnect(gpointer(toast), handler)
            self?.gone(toast)
            g_object_unref(gpointer(toast))
        }
        adw_toast_overlay_add_toast(gcast(overlay), toast)
    }

    private func gone(_ toast: OpaquePointer) {
        guard shown?.toast == toast else { return }
        shown = nil
        lastGoneAt = Double(g_get_monotonic_time()) / 1e6
        step()
    }
}
