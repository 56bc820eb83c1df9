// SPDX-License-Identifier: GPL-3.0-or-later
import CGLibShims
import CGtk
import ReelGLib

public typealias DiagnosedWidget = UnsafeMutablePointer<GtkWidget>

/// What the player window shows the diagnostics: its parts, and the few facts only it knows.
/// What the user sees of them (shown, where, what they say) is read here, not in the window.
@MainActor
public protocol DiagnosableWindow: AnyObject {
    var window: DiagnosedWidget { get }
    /// What the window tells the user: the error on the video area, else the latest toast.
    var messageShown: String { get }
    /// The toast on screen now; empty when none is.
    var toastShown: String { get }
    var bufferingIndicator: DiagnosedWidget { get }
    /// What the buffering indicator says while it shows ("" when it does not).
    var bufferingText: String { get }
    var controlsRevealer: DiagnosedWidget { get }
    var controlBar: DiagnosedWidget { get }
    /// The control bar's controls by name, in the bar's order.
    var namedControls: [(String, DiagnosedWidget)] { get }
    var seekSlider: DiagnosedWidget { get }
    var errorPage: DiagnosedWidget { get }
    /// The subtitle line over the video.
    var subtitleLabel: DiagnosedWidget { get }
    /// The page shown while nothing is loaded (with its list of recent items).
    var emptyPage: DiagnosedWidget { get }
    /// The picture's widget: the whole video area, the picture letterboxed (or cropped) in it.
    var videoPicture: DiagnosedWidget { get }
    var isQueueShown: Bool { get }
    /// The queue panel's rows as they read (those that exist: the ones on screen).
    var queueRowTitles: [String] { get }
    /// How many rows the queue panel has made (GTK recycles them as the list scrolls).
    var queueRowsMade: Int { get }
    /// How long the queue panel's search took to go through the queue, last time (seconds).
    var queueFilterDuration: Double { get }
    /// The whole queue, in order.
    var queueURIs: [String] { get }
    var isTranscriptShown: Bool { get }
    /// The transcript's lines as shown (after its search), and the one highlighted.
    var transcriptLines: [String] { get }
    var transcriptHighlight: String? { get }
    /// The second subtitle track's line on screen ("" when none).
    var secondSubtitleShown: String { get }
    /// The header bar's subtitle under the title (the chapter playing; "" when none).
    var headerSubtitle: String { get }
    /// Whether libadwaita draws in high contrast (the desktop's setting).
    var highContrast: Bool { get }
    /// The seek bar's preview, what it says (time, chapter) and whether it shows a frame.
    var seekPreview: DiagnosedWidget { get }
    var seekPreviewText: String { get }
    var seekPreviewShowsFrame: Bool { get }
    /// The time the preview is of, the time its frame was asked for, and when (monotonic
    /// microseconds) that frame was shown (-1: none).
    var seekPreviewTimes: (shows: Double, frame: Double, frameShownAt: Int64) { get }
}

extension DiagnosableWindow {
    /// Whether the control bar is fully shown (not hidden, not fading).
    var controlsShown: Bool {
        gtk_revealer_get_reveal_child(gcast(controlsRevealer)) != 0 && gtk_revealer_get_child_revealed(gcast(controlsRevealer)) != 0
    }

    /// Whether the buffering (or connecting) indicator is up.
    var bufferingShown: Bool { gtk_widget_get_visible(bufferingIndicator) != 0 }

    /// Whether the window draws the keyboard focus (GTK shows it once keys are used).
    var focusVisible: Bool { gtk_window_get_focus_visible(gcast(window)) != 0 }

    /// The desktop's text size and animations as GTK took them: Xft DPI × 1024 (96 × 1024 at
    /// 1×; GNOME's Large Text makes it 1.25 or 1.5 times that), and whether GTK animates.
    var textDPI: Int64 { Int64(gtkSetting("gtk-xft-dpi", type: reel_type_int()) { Int(g_value_get_int($0)) }) }
    var animations: Bool { gtkSetting("gtk-enable-animations", type: reel_type_boolean()) { g_value_get_boolean($0) != 0 } }

    private func gtkSetting<T>(_ name: String, type: GType, _ read: (UnsafePointer<GValue>) -> T) -> T {
        var value = GValue()
        g_value_init(&value, type)
        defer { g_value_unset(&value) }
        g_object_get_property(gcast(gtk_settings_get_default()), name, &value)
        return read(&value)
    }

    /// Whether one of the control bar's menus is open.
    var controlMenuOpen: Bool {
        namedControls.contains { _, widget in
            cssName(widget) == "menubutton"
                && gtk_menu_button_get_popover(gcast(widget)).map { gtk_widget_get_visible(gcast($0)) != 0 } ?? false
        }
    }

    /// Tooltips of the control bar's controls, by name.
    var controlTooltips: [(String, String)] {
        namedControls.compactMap { name, widget in
            gtk_widget_get_tooltip_text(widget).map { (name, String(cString: $0)) }
        }
    }

    /// What the shortcuts window's rows say the keys do; [] while it is not built (it is built
    /// when first asked for).
    var shortcutTitles: [String] { shortcutRows("title") }

    /// The keys of the shortcuts window's rows, as GTK names them ("<Control>o"), in the
    /// titles' order; [] while it is not built.
    var shortcutKeys: [String] { shortcutRows("accelerator") }

    private func shortcutRows(_ property: String) -> [String] {
        guard let overlay = gtk_application_window_get_help_overlay(gcast(window)) else { return [] }
        return collect(under: gcast(overlay)) { widget in
            guard g_type_check_instance_is_a(UnsafeMutablePointer(OpaquePointer(widget)), gtk_shortcuts_shortcut_get_type()) != 0
            else { return nil }
            var value = GValue()
            g_value_init(&value, reel_type_string())
            defer { g_value_unset(&value) }
            g_object_get_property(gcast(widget), property, &value)
            return g_value_get_string(&value).map { String(cString: $0) } ?? ""
        }
    }

    /// Where the control bar and each of its shown controls are, in window coordinates (x, y,
    /// width, height), the slider's trough and knob, the error page's title and explanation,
    /// the subtitle line and the empty page's rows ("recent-0", …). "surface-offset" is where
    /// the window sits in its surface (client-side decorations' margins).
    var controlBounds: [(String, [Double])] {
        var result: [(String, [Double])] = []
        var dx = 0.0, dy = 0.0
        gtk_native_get_surface_transform(gcast(window), &dx, &dy)
        result.append(("surface-offset", [dx, dy, 0, 0]))
        if let bar = bounds(controlBar) { result.append(("bar", bar)) }
        for (name, widget) in namedControls { if let b = bounds(widget) { result.append((name, b)) } }
        for (name, widget) in zip(["error-title", "error-description"], labels(in: errorPage)) {
            if let b = bounds(widget) { result.append((name, b)) }
        }
        // GtkScale's own parts (GTK 4's CSS nodes "trough" and, inside it, "slider": the knob).
        let trough = child(of: seekSlider, named: "trough")
        if let trough, let b = bounds(trough) { result.append(("trough", b)) }
        if let knob = trough.flatMap({ child(of: $0, named: "slider") }), let b = bounds(knob) { result.append(("knob", b)) }
        let rows = collect(under: emptyPage) { cssName($0) == "row" ? $0 : nil }
        for (index, row) in rows.enumerated() { if let b = bounds(row) { result.append(("recent-\(index)", b)) } }
        if let b = bounds(subtitleLabel) { result.append(("subtitle", b)) }
        if let b = bounds(seekPreview) { result.append(("preview", b)) }
        if let b = bounds(videoPicture) { result.append(("video", b)) }
        return result
    }

    private func bounds(_ widget: DiagnosedWidget) -> [Double]? {
        var rect = graphene_rect_t()
        guard gtk_widget_get_mapped(widget) != 0, gtk_widget_compute_bounds(widget, window, &rect) != 0 else { return nil }
        return [Double(rect.origin.x), Double(rect.origin.y), Double(rect.size.width), Double(rect.size.height)]
    }

    private func cssName(_ widget: DiagnosedWidget) -> String { String(cString: gtk_widget_get_css_name(widget)) }

    private func child(of parent: DiagnosedWidget, named name: String) -> DiagnosedWidget? {
        var node = gtk_widget_get_first_child(parent)
        while let current = node {
            if cssName(current) == name { return current }
            node = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    /// The visible labels with text under `widget`, in order.
    private func labels(in widget: DiagnosedWidget) -> [DiagnosedWidget] {
        collect(under: widget) { widget in
            guard cssName(widget) == "label", gtk_widget_get_visible(widget) != 0,
                  let text = gtk_label_get_text(gcast(widget)), text.pointee != 0 else { return nil }
            return widget
        }
    }

    /// What `pick` makes of `widget` and the widgets under it, depth first, in order; a widget
    /// picked is not looked into.
    /// The text of every label on screen, in any of the app's windows, that Pango cut short with
    /// an ellipsis.
    var ellipsizedLabels: [String] {
        var windows: [DiagnosedWidget] = []
        let list = gtk_window_list_toplevels()
        var node = list
        while let current = node {
            if let data = current.pointee.data { windows.append(data.assumingMemoryBound(to: GtkWidget.self)) }
            node = current.pointee.next
        }
        g_list_free(list)
        return windows.flatMap { window in
            collect(under: window) { widget -> String? in
                guard g_type_check_instance_is_a(UnsafeMutablePointer(OpaquePointer(widget)), gtk_label_get_type()) != 0,
                      gtk_widget_get_mapped(widget) != 0,
                      pango_layout_is_ellipsized(gtk_label_get_layout(gcast(widget))) != 0 else { return nil }
                return String(cString: gtk_label_get_text(gcast(widget)))
            }
        }
    }

    private func collect<T>(under widget: DiagnosedWidget, _ pick: (DiagnosedWidget) -> T?) -> [T] {
        if let picked = pick(widget) { return [picked] }
        var found: [T] = []
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            found += collect(under: current, pick)
            child = gtk_widget_get_next_sibling(current)
        }
        return found
    }
}
