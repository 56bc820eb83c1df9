// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGLibShims
import CGtk
import Foundation
import ReelGLib

/// The window's toasts: one at a time, the latest message replacing the one shown.
///
/// Workaround (libadwaita 1.2.2; its NEWS for 1.3.rc: "Fix a use-after-free when quickly creating
/// and dismissing toasts"): a toast freed when its fade-out ends while its slide-in still runs
/// crashes when the slide-in ends (it reads the freed toast). Goes when Reel runs on 1.3. Both end on the overlay's
/// frame clock, and when frames stop (a minimized window on Wayland, a stalled compositor) both
/// end in the same frame, the fade-out first. So a toast is dismissed (by Reel, its timeout, its
/// close button or Escape) only after a frame has passed the end of its slide-in; and the
/// overlay never holds a queue.
@MainActor
final class Toasts {
    /// libadwaita's slide-in takes 300 ms, or 500 ms while the toast before fades out; a frame's
    /// margin on top.
    private static let slideIn: gint64 = 520_000  // µs of frame time

    let overlay: Widget
    private var shown: (toast: OpaquePointer, message: String, slideInEnds: gint64?)?
    private var waiting: (message: String, button: String?, action: String?)?
    private var dismissHeld = false
    private var tickCallback: guint = 0
    /// The last message asked for, shown or not yet.
    private(set) var lastMessage: String?

    init(child: Widget) {
        overlay = adw_toast_overlay_new()!
        adw_toast_overlay_set_child(gcast(overlay), child)
    }

    /// The message of the toast on screen (for the tests' diagnostics).
    var shownMessage: String? { shown?.message }

    /// Shows `message` (Pango markup is escaped), with a button for `action` if given.
    func show(_ message: String, button: String? = nil, action: String? = nil) {
        lastMessage = message
        waiting = (message, button, action)
        step()
    }

    private func step() {
        if let shown {
            guard waiting != nil || dismissHeld else { return }
            if slideInIsOver {
                // Its "dismissed" takes the next step. A held one is marked dismissed already,
                // which adw_toast_dismiss would ignore.
                if dismissHeld {
                    reel_signal_emit(gpointer(shown.toast), "dismissed")
                } else {
                    adw_toast_dismiss(shown.toast)
                }
            } else {
                watchFrames()
            }
        } else if let next = waiting {
            waiting = nil
            present(next.message, button: next.button, action: next.action)
        }
    }

    /// An unmapped overlay has skipped its animations.
    private var slideInIsOver: Bool { shown?.slideInEnds == nil || gtk_widget_get_mapped(overlay) == 0 }

    /// Until a frame passes the slide-in's end. The slide-in ends among that frame's tick
    /// callbacks, in either order with this one: the next step waits for the frame to be over.
    private func watchFrames() {
        guard tickCallback == 0 else { return }
        tickCallback = gtk_widget_add_tick_callback(overlay, { _, clock, data in
            let frameTime = gdk_frame_clock_get_frame_time(clock)
            return MainActor.assumeIsolated { WeakBox<Toasts>.target(data)?.frame(at: frameTime) ?? false } ? 1 : 0
        }, WeakBox(self).retained(), CallbackBox.release)
    }

    /// Whether to keep watching frames.
    private func frame(at frameTime: gint64) -> Bool {
        guard let ends = shown?.slideInEnds else { tickCallback = 0; return false }
        guard frameTime >= ends else { return true }
        shown?.slideInEnds = nil
        tickCallback = 0
        runSoon { [weak self] in self?.step() }
        return false
    }

    private func present(_ message: String, button: String?, action: String?) {
        let toast = adw_toast_new(UI.escapeMarkup(message))!
        // Read by screen readers as an alert (libadwaita 1.2's own title is a plain label).
        let title = UI.alertLabel(message)
        adw_toast_set_custom_title(toast, title)
        connectMainSignal(title, "map") { _ in Self.nameButtons(besides: title) }
        adw_toast_set_timeout(toast, 8)
        if let button, let action {
            adw_toast_set_button_label(toast, button)
            adw_toast_set_action_name(toast, action)
        }
        // Ours until it is dismissed (by its timeout, its close button, Escape or `step`); the
        // overlay owns the other reference. During the slide-in a dismissal is held: this handler
        // runs before the overlay's, and dismisses again once the slide-in is over.
        g_object_ref(gpointer(toast))
        var handler: gulong = 0
        handler = connectMainSignal(UnsafeMutableRawPointer(toast), "dismissed") { [weak self] _ in
            if let self, self.shown?.toast == toast, !self.slideInIsOver {
                g_signal_stop_emission_by_name(gpointer(toast), "dismissed")
                self.dismissHeld = true
                self.step()
                return
            }
            g_signal_handler_disconnect(gpointer(toast), handler)
            self?.gone(toast)
            g_object_unref(gpointer(toast))
        }
        adw_toast_overlay_add_toast(gcast(overlay), toast)
        // The slide-in starts at this frame time; an unmapped overlay skips it.
        let clock = gtk_widget_get_mapped(overlay) != 0 ? gtk_widget_get_frame_clock(overlay) : nil
        shown = (toast, message, clock.map { gdk_frame_clock_get_frame_time($0) + Self.slideIn })
        dismissHeld = false
    }

    /// libadwaita 1.2's close button reads "GtkImage" (AccessibleNames), and its own button a
    /// mnemonic twice: named once the toast's widget, the title's ancestor, is built.
    private static func nameButtons(besides title: Widget) {
        var toastWidget = gtk_widget_get_parent(title)
        while let widget = toastWidget, String(cString: g_type_name_from_instance(gcast(widget))) != "AdwToastWidget" {
            toastWidget = gtk_widget_get_parent(widget)
        }
        if let toastWidget { AccessibleNames.nameButtons(under: toastWidget) }
    }

    private func gone(_ toast: OpaquePointer) {
        guard shown?.toast == toast else { return }
        shown = nil
        dismissHeld = false
        step()
    }
}
