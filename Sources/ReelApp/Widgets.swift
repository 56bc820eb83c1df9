// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGio
import CGtk
import CShims
import ReelCore
import ReelGLib

/// Small constructors and helpers for building GTK widget trees from Swift.
typealias Widget = UnsafeMutablePointer<GtkWidget>

@MainActor
enum UI {
    /// An icon button with a tooltip that doubles as its accessible label.
    static func iconButton(_ icon: String, tooltip: String, action: String? = nil) -> Widget {
        let button = gtk_button_new_from_icon_name(icon)!
        setTooltip(button, tooltip)
        if let action { gtk_actionable_set_action_name(gcast(button), action) }
        return button
    }

    static func setTooltip(_ widget: Widget, _ text: String) {
        gtk_widget_set_tooltip_text(widget, text)
        setAccessibleLabel(widget, text)
    }

    static func setAccessibleLabel(_ widget: Widget, _ text: String) {
        setAccessibleProperty(widget, GTK_ACCESSIBLE_PROPERTY_LABEL, text)
    }

    /// Sets a string accessible property (label, value text) that screen readers announce.
    /// What a screen reader says a slider's value is ("1:23 of 4:56", "80 %"), when it changed.
    /// Workaround (GTK 4.8): the value text does not reach AT-SPI (Atspi.Value.get_text reads
    /// nothing), so the description carries it too, as Orca reads a slider's. Goes when
    /// AccessibilityTests read the value text itself.
    static func setValueText(_ widget: Widget, _ text: String) {
        let key = "reel-value-text"
        if let shown = g_object_get_data(gcast(widget), key), String(cString: shown.assumingMemoryBound(to: CChar.self)) == text { return }
        g_object_set_data_full(gcast(widget), key, g_strdup(text), g_free)
        setAccessibleProperty(widget, GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, text)
        setAccessibleProperty(widget, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text)
    }

    static func setAccessibleProperty(_ widget: Widget, _ property: GtkAccessibleProperty, _ text: String) {
        var value = GValue()
        g_value_init(&value, reel_type_string())
        g_value_set_string(&value, text)
        var property = property
        gtk_accessible_update_property_value(gcast(widget), 1, &property, &value)
        g_value_unset(&value)
    }

    /// A label screen readers take for an alert: the role is fixed when a widget is made.
    static func alertLabel(_ text: String) -> Widget {
        var role = GValue()
        g_value_init(&role, gtk_accessible_role_get_type())
        g_value_set_enum(&role, gint(GTK_ACCESSIBLE_ROLE_ALERT.rawValue))
        defer { g_value_unset(&role) }
        let object = "accessible-role".withCString { name in
            var names: [UnsafePointer<CChar>?] = [name]
            return g_object_new_with_properties(gtk_label_get_type(), 1, &names, &role)
        }
        let label: Widget = gcast(object)
        gtk_label_set_text(gcast(label), text)
        // As libadwaita 1.2 styles a toast's own title.
        gtk_label_set_ellipsize(gcast(label), PANGO_ELLIPSIZE_END)
        gtk_label_set_xalign(gcast(label), 0)
        gtk_widget_set_hexpand(label, 1)
        gtk_widget_add_css_class(label, "heading")
        return label
    }

    static func label(_ text: String = "", classes: [String] = []) -> Widget {
        let label = gtk_label_new(text)!
        gtk_label_set_use_markup(gcast(label), 0)
        for c in classes { gtk_widget_add_css_class(label, c) }
        return label
    }

    static func box(_ orientation: GtkOrientation, spacing: Int32 = 0, _ children: [Widget] = []) -> Widget {
        let box = gtk_box_new(orientation, spacing)!
        for child in children { gtk_box_append(gcast(box), child) }
        return box
    }

    static func addClasses(_ widget: Widget, _ classes: String...) {
        for c in classes { gtk_widget_add_css_class(widget, c) }
    }

    static func onClicked(_ button: Widget, _ handler: @escaping @MainActor () -> Void) {
        connectMainSignal(button, "clicked") { _ in handler() }
    }

    /// Pango markup must never see media text unescaped (a title "<b>A & B</b>" shows literally).
    static func escapeMarkup(_ text: String) -> String {
        takeString(g_markup_escape_text(text, -1)) ?? ""
    }

    /// The text Pango shows for `markup` (for reading back what a widget displays).
    static func unescapeMarkup(_ markup: String) -> String {
        var text: UnsafeMutablePointer<CChar>?
        guard pango_parse_markup(markup, -1, 0, nil, &text, nil, nil) != 0 else { return markup }
        return takeString(text) ?? ""
    }

    /// A subtitle line in a label: its markup (italics, bold) when it parses as markup,
    /// otherwise the plain text it is.
    static func setLine(_ line: SubtitleLine, in label: Widget) {
        if line.isMarkup, pango_parse_markup(line.text, -1, 0, nil, nil, nil, nil) != 0 {
            gtk_label_set_markup(gcast(label), line.text)
        } else {
            gtk_label_set_text(gcast(label), line.text)
        }
    }

    /// Scrolls `scroller` (a GtkScrolledWindow holding `content`) so that `child`, inside
    /// `content`, is in view: centred, when it was out of view.
    static func scrollIntoView(_ child: Widget, of content: Widget, in scroller: Widget) {
        var origin = graphene_point_t(x: 0, y: 0), top = graphene_point_t(x: 0, y: 0)
        guard gtk_widget_compute_point(child, content, &origin, &top) != 0,
              let adjustment = gtk_scrolled_window_get_vadjustment(gcast(scroller)) else { return }
        let page = gtk_adjustment_get_page_size(adjustment), value = gtk_adjustment_get_value(adjustment)
        let y = Double(top.y), height = Double(gtk_widget_get_height(child))
        guard y < value || y + height > value + page else { return }
        gtk_adjustment_set_value(adjustment, y - (page - height) / 2)
    }

    static func loadCSS(_ css: String) {
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), gcast(provider),
                                                   guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}

/// Calls `body` with a NULL-terminated array of C strings (for GTK functions taking `const char **`).
func withCStringArray<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let duplicates = strings.map { strdup($0) }
    defer { duplicates.forEach { free($0) } }
    var pointers: [UnsafePointer<CChar>?] = duplicates.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}
