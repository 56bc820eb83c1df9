// SPDX-License-Identifier: GPL-3.0-or-later
import CGtk
import CShims
import ReelCore
import ReelGLib

/// Keeps the screen from blanking while a video plays where it can be seen — not while paused,
/// minimized or hidden, and not for sound alone — through GTK (the portal, or GNOME's session
/// manager).
@MainActor
final class IdleInhibitor {
    private let application: UnsafeMutablePointer<GtkApplication>
    private let window: Widget
    private var cookie: guint = 0

    init(application: UnsafeMutablePointer<GtkApplication>, window: Widget) {
        self.application = application
        self.window = window
    }

    func update(model: PlayerModel, windowVisible: Bool) {
        let wanted = model.status.isPlaying && windowVisible && (model.media?.hasVideo ?? false)
        if wanted, cookie == 0 {
            cookie = gtk_application_inhibit(application, gcast(window), GTK_APPLICATION_INHIBIT_IDLE, tr("Playing a video"))
        } else if !wanted, cookie != 0 {
            gtk_application_uninhibit(application, cookie)
            cookie = 0
        }
    }
}
