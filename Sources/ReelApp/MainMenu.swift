import CGio
import CGtk
import CShims
import ReelCore
import ReelGLib

/// The header bar's main menu. Its first entry, Chapters, lists the item's chapters as radio
/// items of `app.chapter` (the one playing checked) and is there only while the item has any.
@MainActor
final class MainMenu {
    let button: Widget = gtk_menu_button_new()!
    private let menu = ObjectRef<OpaquePointer>(taking: g_menu_new()!)
    private let chapters = ObjectRef<OpaquePointer>(taking: g_menu_new()!)

    init() {
        section([(tr("Open _Location…"), "app.open-location")])
        section([(tr("Take _Screenshot"), "app.screenshot"), (tr("_Copy Frame"), "app.copy-frame")])
        section([(tr("_Night Mode"), "app.night-mode")])
        section([(tr("_Preferences"), "app.preferences"), (tr("_Keyboard Shortcuts"), "win.show-help-overlay"),
                 (tr("_About Reel"), "app.about")])
        gtk_menu_button_set_icon_name(gcast(button), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(gcast(button), gcast(menu.pointer))
        UI.setTooltip(button, tr("Main Menu"))
    }

    private func section(_ items: [(String, String)]) {
        let section = g_menu_new()!
        for (label, action) in items { g_menu_append(section, label, action) }
        g_menu_append_section(menu.pointer, nil, gcast(section))
        g_object_unref(UnsafeMutableRawPointer(section))
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
