// SPDX-License-Identifier: GPL-3.0-or-later
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
        section([(tr("Open _Folder…"), "app.open-folder"), (tr("Open _Location…"), "app.open-location")])
        section([(tr("Take _Screenshot"), "app.screenshot"), (tr("_Copy Frame"), "app.copy-frame")])
        pictureAndSound()
        section([(tr("_Night Mode"), "app.night-mode")])
        section([(tr("_Preferences"), "app.preferences"), (tr("_Keyboard Shortcuts"), "win.show-help-overlay"),
                 (tr("_About Reel"), "app.about")])
        gtk_menu_button_set_icon_name(gcast(button), "open-menu-symbolic")
        // F10 opens it, as GNOME's primary menus do: every item in reach of the keyboard.
        gtk_menu_button_set_primary(gcast(button), 1)
        gtk_menu_button_set_menu_model(gcast(button), gcast(menu.pointer))
        UI.setTooltip(button, tr("Main Menu"))
    }

    private func section(_ items: [(String, String)], in parent: OpaquePointer? = nil) {
        let section = g_menu_new()!
        for (label, action) in items { g_menu_append(section, label, action) }
        g_menu_append_section(parent ?? menu.pointer, nil, gcast(section))
        g_object_unref(UnsafeMutableRawPointer(section))
    }

    /// The Picture and Sound submenus: turning, aspect, fill, colours, deinterlacing, delay.
    private func pictureAndSound() {
        let picture = g_menu_new()!
        section([(tr("Rotate _Clockwise"), "app.rotate-clockwise"), (tr("Rotate C_ounterclockwise"), "app.rotate-counterclockwise"),
                 (tr("_Flip Horizontally"), "app.flip")], in: picture)
        let aspects: [(String, Picture.Aspect)] = [(tr("Aspect: _Automatic"), .automatic), ("16:9", .wide), ("4:3", .standard),
                                                   ("2.39:1", .cinema), ("1:1", .square)]
        section(aspects.map { ($0.0, "app.aspect::\($0.1.rawValue)") }, in: picture)
        section([(tr("Fill the _Window"), "app.fill-window")], in: picture)
        section([(tr("_Brighter"), "app.more-brightness"), (tr("_Darker"), "app.less-brightness"),
                 (tr("More Co_ntrast"), "app.more-contrast"), (tr("Less Contr_ast"), "app.less-contrast"),
                 (tr("More _Saturation"), "app.more-saturation"), (tr("Less Sat_uration"), "app.less-saturation"),
                 (tr("_Hue Forward"), "app.more-hue"), (tr("Hue _Back"), "app.less-hue"),
                 (tr("_Reset Colours"), "app.reset-colours")], in: picture)
        section([(tr("Deinterlace: Au_tomatic"), "app.deinterlacing::automatic"), (tr("Deinterlace: _Off"), "app.deinterlacing::off"),
                 (tr("Deinterlace: Al_ways"), "app.deinterlacing::forced")], in: picture)
        section([(tr("R_eset the Picture"), "app.reset-picture")], in: picture)
        let sound = g_menu_new()!
        section([(tr("Sound _Later (10 ms)"), "app.audio-later"), (tr("Sound _Earlier (10 ms)"), "app.audio-earlier"),
                 (tr("_No Sound Delay"), "app.audio-no-delay")], in: sound)
        let both = g_menu_new()!
        g_menu_append_submenu(both, tr("P_icture"), gcast(picture))
        g_menu_append_submenu(both, tr("So_und"), gcast(sound))
        g_menu_append_section(menu.pointer, nil, gcast(both))
        for made in [picture, sound, both] { g_object_unref(UnsafeMutableRawPointer(made)) }
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
