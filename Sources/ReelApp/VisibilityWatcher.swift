// SPDX-License-Identifier: GPL-3.0-or-later
import CGtk
import CShims
import ReelGLib

/// Tells whether any of the window can be seen. Not when it is hidden (closed while playing in
/// the background); not when the desktop says it is minimized (the toplevel's MINIMIZED state
/// on X11) or, from GTK 4.12, SUSPENDED; and not when video frames stop being drawn although
/// new ones keep coming: GTK 4.8 on Wayland knows neither state, but a Wayland compositor sends
/// no frame callbacks to a window it does not show (GNOME Shell: minimized, on another
/// workspace), so GTK stops drawing it. Reel detaches the video branch while nothing can be seen.
/// Workaround (GTK 4.8; GTK 4.12 adds SUSPENDED, "gtk: Add suspended window state",
/// https://gitlab.gnome.org/GNOME/gtk/-/commit/57073e105741a54f568afae8f5e4906de32dc836): the
/// frame-callback reading goes when Reel runs on GTK 4.12 under a compositor that sends it.
@MainActor
final class VisibilityWatcher {
    private let window: Widget
    private let onChange: @MainActor (Bool) -> Void
    private(set) var isVisible = true
    /// Hidden by the desktop (minimized, suspended, not drawn), as opposed to closed by the user.
    private(set) var isHiddenByDesktop = false
    private var drawingStalled = false

    /// GDK_TOPLEVEL_STATE_SUSPENDED, added in GTK 4.12 (Debian 12 has 4.8): checked at run time.
    private static let suspendedState: UInt32 = gtk_get_minor_version() >= 12 ? 1 << 16 : 0

    init(window: Widget, videoPaintable: OpaquePointer, onChange: @escaping @MainActor (Bool) -> Void) {
        self.window = window
        self.onChange = onChange
        connectMainSignal(window, "realize") { [weak self] _ in self?.watchSurface() }
        connectMainSignal(window, "notify::visible") { [weak self] _ in self?.update() }
        if gtk_widget_get_realized(window) != 0 { watchSurface() }
        reel_video_paintable_set_drawing_stalled_callback(videoPaintable, { stalled, data in
            MainActor.assumeIsolated {
                guard let watcher = WeakBox<VisibilityWatcher>.target(data) else { return }
                watcher.drawingStalled = stalled != 0
                watcher.update()
            }
        }, WeakBox(self).retained(), CallbackBox.release)
    }

    private func watchSurface() {
        guard let surface = gtk_native_get_surface(gcast(window)) else { return }
        connectMainSignal(UnsafeMutableRawPointer(surface), "notify::state") { [weak self] _ in self?.update() }
        update()
    }

    private func update() {
        var hiddenByState = false
        if let surface = gtk_native_get_surface(gcast(window)) {
            let state = gdk_toplevel_get_state(surface).rawValue
            hiddenByState = state & (GDK_TOPLEVEL_STATE_MINIMIZED.rawValue | Self.suspendedState) != 0
        }
        let shown = gtk_widget_get_visible(window) != 0
        isHiddenByDesktop = shown && (hiddenByState || drawingStalled)
        let visible = shown && !isHiddenByDesktop
        guard visible != isVisible else { return }
        isVisible = visible
        onChange(visible)
    }
}
