// SPDX-License-Identifier: GPL-3.0-or-later
import CGtk
import CShims
import Foundation
import ReelGLib

/// Workarounds (GTK 4.8, libadwaita 1.2) for names screen readers read wrong, found by
/// AccessibilityTests: each goes when that test passes without it.
@MainActor
enum AccessibleNames {
    /// Names every button under `root` as it is shown. GTK 4.8 reads a button with a mnemonic
    /// as its text as written and again as shown ("_Cancel Cancel"), a stack switcher's page as
    /// written ("_1"), and an icon-only button by its image's type ("GtkImage"). Words GTK's own
    /// widgets lack come from GTK's catalogue, translated as GTK is.
    static func nameButtons(under root: Widget) {
        var child = gtk_widget_get_first_child(root)
        while let widget = child {
            if isA(widget, gtk_button_get_type()) { nameButton(widget) }
            nameButtons(under: widget)
            child = gtk_widget_get_next_sibling(widget)
        }
    }

    private static func nameButton(_ button: Widget) {
        guard let content = gtk_widget_get_first_child(button) else { return }
        if let label = firstLabel(in: content), gtk_label_get_use_underline(gcast(label)) != 0 {
            var shown = String(cString: gtk_label_get_text(gcast(label)))
            // A stack switcher's numbered pages (the shortcuts window's): "Page 2", as GTK words it.
            if let parent = gtk_widget_get_parent(button), isA(parent, gtk_stack_switcher_get_type()), UInt(shown) != nil {
                shown = String(cString: reel_dgettext("gtk40", "Page %u")).replacingOccurrences(of: "%u", with: shown)
            }
            gtk_accessible_reset_relation(gcast(button), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
            UI.setAccessibleLabel(button, shown)
        } else if isA(content, gtk_image_get_type()), let icon = gtk_image_get_icon_name(gcast(content)),
                  let word = iconWords[String(cString: icon)] {
            // In GTK's own words, translated as GTK's are.
            UI.setAccessibleLabel(button, String(cString: reel_dgettext("gtk40", word)))
        }
    }

    /// What the icons of GTK's and libadwaita's own icon-only buttons mean.
    private static let iconWords = ["edit-find-symbolic": "Search", "window-close-symbolic": "Close"]

    private static func firstLabel(in widget: Widget) -> Widget? {
        if isA(widget, gtk_label_get_type()) { return widget }
        var child = gtk_widget_get_first_child(widget)
        while let next = child {
            if let label = firstLabel(in: next) { return label }
            child = gtk_widget_get_next_sibling(next)
        }
        return nil
    }

    private static func isA(_ widget: Widget, _ type: GType) -> Bool { g_type_check_instance_is_a(gcast(widget), type) != 0 }
}
