import CGtk
import CShims
import ReelGLib

/// Tells whether any of the window can be seen: not when it is minimized (the toplevel's
/// MINIMIZED state on X11), hidden (closed while playing in the background) or, on Wayland with
/// GTK 4.12 or later, SUSPENDED. Reel detaches the video branch while nothing can be seen.
@MainActor
final class VisibilityWatcher {
    private let window: Widget
    private let onChange: @MainActor (Bool) -> Void
    private(set) var isVisible = true
    private(set) var isMinimized = false

    /// GDK_TOPLEVEL_STATE_SUSPENDED, added in GTK 4.12 (Debian 12 has 4.8): checked at run time.
    private static let suspendedState: UInt32 = gtk_get_minor_version() >= 12 ? 1 << 16 : 0

    init(window: Widget, onChange: @escaping @MainActor (Bool) -> Void) {
        self.window = window
        self.onChange = onChange
        connectMainSignal(window, "realize") { [weak self] _ in self?.watchSurface() }
        connectMainSignal(window, "notify::visible") { [weak self] _ in self?.update() }
        if gtk_widget_get_realized(window) != 0 { watchSurface() }
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
            isMinimized = state & GDK_TOPLEVEL_STATE_MINIMIZED.rawValue != 0
            hiddenByState = isMinimized || state & Self.suspendedState != 0
        }
        let visible = gtk_widget_get_visible(window) != 0 && !hiddenByState
        guard visible != isVisible else { return }
        isVisible = visible
        onChange(visible)
    }
}
