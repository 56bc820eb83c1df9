// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGio
import CGtk
import ReelCore
import ReelGLib

/// The empty page's list of the items played last (`recent_group` in data/ui/window.ui): a row
/// each, its title over where it comes from; a click plays it (`app.open-uri`), *Clear* empties
/// the list (`app.clear-recent`). Hidden while the list is empty.
@MainActor
final class RecentList {
    private let group: ObjectRef<Widget>
    private let list: ObjectRef<Widget>

    /// Follows `items` for as long as they live (they hold this list).
    static func show(_ items: RecentItems, in ui: UIDefinition) {
        let recentList = RecentList(group: ui.object("recent_group"), list: ui.object("recent_list"))
        recentList.fill(items.entries)
        items.onChange = { [recentList, unowned items] in recentList.fill(items.entries) }
    }

    private init(group: Widget, list: Widget) {
        self.group = ObjectRef(retaining: group)
        self.list = ObjectRef(retaining: list)
    }

    private func fill(_ entries: [RecentItems.Entry]) {
        while let row = gtk_widget_get_first_child(list.pointer) {
            gtk_list_box_remove(gcast(list.pointer), row)
        }
        for entry in entries {
            gtk_list_box_append(gcast(list.pointer), Self.row(entry))
        }
        gtk_widget_set_visible(group.pointer, entries.isEmpty ? 0 : 1)
    }

    private static func row(_ entry: RecentItems.Entry) -> Widget {
        let row = adw_action_row_new()!
        // Titles come from files and stations: text, never markup.
        adw_preferences_row_set_use_markup(gcast(row), 0)
        adw_preferences_row_set_title(gcast(row), entry.title)
        // One line each, ellipsized: a tag's title can be thousands of characters, and wrapping
        // them all kept the main thread measuring text.
        adw_action_row_set_title_lines(gcast(row), 1)
        adw_action_row_set_subtitle_lines(gcast(row), 1)
        let item = QueueItem(id: 0, uri: entry.uri)
        if let source = item.source { adw_action_row_set_subtitle(gcast(row), source) }
        gtk_actionable_set_action_name(gcast(row), "app.open-uri")
        gtk_actionable_set_action_target_value(gcast(row), g_variant_new_string(entry.uri))
        gtk_list_box_row_set_activatable(gcast(row), 1)
        return row
    }
}
