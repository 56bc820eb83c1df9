// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGtk
import CShims
import ReelCore
import ReelGLib

/// The header bar's main menu (data/ui/main-menu.ui). Its first entry, Chapters, lists the
/// item's chapters as radio items of `app.chapter` (the one playing checked) and is there only
/// while the item has any.
@MainActor
final class MainMenu {
    private let menu: ObjectRef<OpaquePointer>
    private let chapters = ObjectRef<OpaquePointer>(taking: g_menu_new()!)
    private let sleepStatus: ObjectRef<OpaquePointer>

    /// The menu of data/ui/main-menu.ui on the header bar's menu button.
    init(button: Widget) {
        // The builder holds the menu's only reference until this one is taken.
        let ui = UIDefinition("main-menu.ui")
        menu = ObjectRef(retaining: ui.object("main_menu", as: OpaquePointer.self))
        sleepStatus = ObjectRef(retaining: ui.object("sleep_status", as: OpaquePointer.self))
        withExtendedLifetime(ui) {}
        gtk_menu_button_set_menu_model(gcast(button), gcast(menu.pointer))
    }

    /// The sleep timer's state in its submenu: the time left, or that it waits for the item's end.
    func show(sleep: PlayerModel.Sleep?, remaining: Seconds?) {
        g_menu_remove_all(sleepStatus.pointer)
        let status: String? = switch sleep {
        case .after?: remaining.map { String(format: tr("Pausing in %@"), TimeFormat.string($0)) }
        case .endOfItem?: tr("Pausing at the end of this item")
        case nil: nil
        }
        // An item without an action: shown, greyed, as a statement.
        if let status { g_menu_append(sleepStatus.pointer, status, nil) }
    }

    func show(chapters list: [Chapter]) {
        let hadChapters = g_menu_model_get_n_items(gcast(chapters.pointer)) > 0
        g_menu_remove_all(chapters.pointer)
        for (index, chapter) in list.enumerated() {
            let item = g_menu_item_new(Self.label(for: chapter, number: index + 1), nil)!
            g_menu_item_set_action_and_target_value(item, "app.chapter", g_variant_new_int32(Int32(index)))
            g_menu_append_item(chapters.pointer, item)
            g_object_unref(UnsafeMutableRawPointer(item))
        }
        if list.isEmpty, hadChapters {
            g_menu_remove(menu.pointer, 0)
        } else if !list.isEmpty, !hadChapters {
            let submenu = g_menu_item_new_submenu(tr("C_hapters"), gcast(chapters.pointer))!
            g_menu_insert_item(menu.pointer, 0, submenu)
            g_object_unref(UnsafeMutableRawPointer(submenu))
        }
    }

    /// "2. Middle part (0:04)"; a chapter without a title is named by its number.
    static func label(for chapter: Chapter, number: Int) -> String {
        let name = chapter.title.isEmpty ? String(format: tr("Chapter %d"), number) : "\(number). \(chapter.title)"
        return "\(name) (\(TimeFormat.string(chapter.start)))"
    }
}
