// SPDX-License-Identifier: GPL-3.0-or-later
import CGtk
import ReelCore
import ReelGLib

/// The control bar over the video: shown by the pointer or by Tab, hidden again (with the
/// pointer) 3 s later over playing video. A keyboard user's focus in the bar keeps it shown.
@MainActor
final class ControlsHiding {
    static let delay: UInt32 = 3000

    let revealer: Widget = gtk_revealer_new()!
    /// Where the pointer is hidden with the bar.
    private let stage: Widget
    private let model: PlayerModel
    private var timer: guint = 0
    /// Set by Tab and Shift+Tab, cleared by the pointer.
    private var navigatingByKeyboard = false
    private let focus = gtk_event_controller_focus_new()!

    init(controls: Widget, over stage: Widget, model: PlayerModel) {
        self.stage = stage
        self.model = model
        gtk_revealer_set_transition_type(gcast(revealer), GTK_REVEALER_TRANSITION_TYPE_CROSSFADE)
        gtk_revealer_set_child(gcast(revealer), controls)
        gtk_revealer_set_reveal_child(gcast(revealer), 1)
        gtk_widget_set_valign(revealer, GTK_ALIGN_END)
        // The bar hides again once the focus has left it.
        connectMainSignal(UnsafeMutableRawPointer(focus), "leave") { [weak self] _ in self?.scheduleHide() }
        gtk_widget_add_controller(controls, focus)
    }

    /// Tab and Shift+Tab in `window` show the bar first, so that the focus can move into it (a
    /// hidden bar takes no focus); the key goes on to move the focus.
    func watchKeyboardNavigation(in window: Widget) {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        connectMainSignal(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] args in
            guard [GDK_KEY_Tab, GDK_KEY_ISO_Left_Tab, GDK_KEY_KP_Tab].map(Int.init).contains(args.int(1)) else { return }
            self?.navigatingByKeyboard = true
            self?.show()
        }
        gtk_widget_add_controller(window, keys)
    }

    /// The pointer moved over the stage (not merely the layout under a resting pointer).
    func pointerMoved() {
        navigatingByKeyboard = false
        show()
    }

    func scheduleHide() {
        if timer != 0 { g_source_remove(timer) }
        timer = addTimeout(milliseconds: Self.delay) { [weak self] in
            guard let self else { return false }
            self.timer = 0
            // Only over playing video; paused or audio-only media keep their controls, and so
            // does a keyboard user whose focus is in the bar.
            if self.model.status.isPlaying, !self.keyboardFocusInBar, !(self.model.media?.isAudioOnly ?? false) {
                gtk_revealer_set_reveal_child(gcast(self.revealer), 0)
                gtk_widget_set_cursor_from_name(self.stage, "none")
            }
            return false
        }
    }

    private var keyboardFocusInBar: Bool {
        navigatingByKeyboard && gtk_event_controller_focus_contains_focus(gcast(focus)) != 0
    }

    private func show() {
        gtk_revealer_set_reveal_child(gcast(revealer), 1)
        gtk_widget_set_cursor_from_name(stage, nil)
        scheduleHide()
    }
}
