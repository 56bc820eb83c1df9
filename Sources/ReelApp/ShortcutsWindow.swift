// SPDX-License-Identifier: GPL-3.0-or-later
import CGtk
import CShims
import Foundation
import ReelCore
import ReelGLib

/// The keyboard shortcuts window (Ctrl+?), as GNOME apps show theirs: the rows of the table
/// of commands, by section, commands with the same title on one row.
@MainActor
enum ShortcutsWindow {
    private static func sections(_ commands: [Command]) -> [(String, [(keys: String, title: String)])] {
        Command.Section.allCases.compactMap { section in
            var rows: [(keys: String, title: String)] = []
            for command in commands {
                guard let row = command.row, row.section == section else { continue }
                let title = row.title()
                if let index = rows.firstIndex(where: { $0.title == title }) {
                    rows[index].keys += " " + command.keys.joined(separator: " ")
                } else {
                    rows.append((command.keys.joined(separator: " "), title))
                }
            }
            return rows.isEmpty ? nil : (section.title, rows)
        }
    }

    /// A GtkShortcutsWindow for `window`'s help overlay (the win.show-help-overlay action); the
    /// skip keys are named with the interval they skip by.
    static func make(_ commands: [Command]) -> OpaquePointer? {
        func escape(_ text: String) -> String { UI.escapeMarkup(text) }
        var xml = "<interface><object class=\"GtkShortcutsWindow\" id=\"shortcuts\"><property name=\"modal\">1</property>"
        let title = tr("Keyboard Shortcuts")
        xml += "<property name=\"title\">\(escape(title))</property>"
        xml += "<child><object class=\"GtkShortcutsSection\"><property name=\"section-name\">main</property>"
        for (title, shortcuts) in sections(commands) {
            xml += "<child><object class=\"GtkShortcutsGroup\"><property name=\"title\">\(escape(title))</property>"
            for (accelerator, name) in shortcuts {
                xml += "<child><object class=\"GtkShortcutsShortcut\">"
                xml += "<property name=\"accelerator\">\(escape(accelerator))</property>"
                xml += "<property name=\"title\">\(escape(name))</property></object></child>"
            }
            xml += "</object></child>"
        }
        xml += "</object></child></object></interface>"
        let builder = gtk_builder_new_from_string(xml, -1)
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        guard let object = gtk_builder_get_object(builder, "shortcuts") else { return nil }
        // The builder lets go of it: keep a reference for the window that shows it.
        g_object_ref(UnsafeMutableRawPointer(object))
        // Its pages and search button are made as it is shown.
        let window: Widget = gcast(object)
        connectMainSignal(window, "map", after: true) { _ in AccessibleNames.nameButtons(under: window) }
        return OpaquePointer(object)
    }
}
