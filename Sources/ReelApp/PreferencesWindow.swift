// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGio
import CGtk
import CShims
import ReelCore
import ReelGLib

/// Every setting, editable: an AdwPreferencesWindow whose rows write straight to GSettings.
@MainActor
enum PreferencesWindow {
    @discardableResult
    static func present(settings: Settings, nightModeAvailable: Bool, parent: Widget?) -> Widget {
        let window = adw_preferences_window_new()!
        if let parent { gtk_window_set_transient_for(gcast(window), gcast(parent)) }
        gtk_window_set_modal(gcast(window), 1)
        let page = adw_preferences_page_new()!

        let playback = group(tr("Playback"))
        add(spinRow(settings, key: .skipInterval, title: tr("Skip Interval"),
                    subtitle: tr("Seconds the skip buttons and arrow keys move"), step: 1), to: playback)
        add(switchRow(settings, key: .continueAfterErrors, title: tr("Continue After Errors"),
                      subtitle: tr("Play the next item when one cannot be played")), to: playback)
        add(switchRow(settings, key: .recurseFolders, title: tr("Open Folders Inside Folders"),
                      subtitle: tr("A folder opened plays what its folders hold too, album by album")), to: playback)
        add(switchRow(settings, key: .resumePlayback, title: tr("Resume Where You Left Off"),
                      subtitle: tr("Remember the position in long videos")), to: playback)
        let nightMode = switchRow(settings, key: .nightMode, title: tr("Night Mode"),
                                  subtitle: nightModeAvailable ? tr("Even out loud and quiet passages, to listen quietly")
                                                               : tr("Needs the lsp-plugins-ladspa package"))
        if !nightModeAvailable { gtk_widget_set_sensitive(nightMode, 0) }
        add(nightMode, to: playback)

        let background = group(tr("In the Background"))
        add(choiceRow(settings, key: .minimizeAction, title: tr("When Minimized"),
                      choices: [("keep-playing", tr("Keep playing the sound")), ("pause", tr("Pause"))]), to: background)
        add(choiceRow(settings, key: .closeAction, title: tr("When the Window Is Closed While Playing"),
                      choices: [("quit", tr("Quit")), ("keep-playing", tr("Keep playing in the background"))]), to: background)

        let queue = group(tr("Queue"))
        add(spinRow(settings, key: .repeatEach, title: tr("Play Each Item"),
                    subtitle: tr("Times each item plays before the next"), step: 1), to: queue)
        add(spinRow(settings, key: .gap, title: tr("Pause Between Items"),
                    subtitle: tr("Seconds of silence between items"), step: 0.5), to: queue)

        let lines = group(tr("Line by Line"))
        add(spinRow(settings, key: .lineLeadIn, title: tr("Before Each Line"),
                    subtitle: tr("Seconds played before a subtitle line starts"), step: 0.05), to: lines)
        add(spinRow(settings, key: .lineLeadOut, title: tr("After Each Line"),
                    subtitle: tr("Seconds played after a subtitle line ends"), step: 0.05), to: lines)

        for g in [playback, background, queue, lines] { adw_preferences_page_add(gcast(page), gcast(g)) }
        adw_preferences_window_add(gcast(window), gcast(page))
        gtk_window_present(gcast(window))
        return window
    }

    private static func group(_ title: String) -> Widget {
        let group = adw_preferences_group_new()!
        adw_preferences_group_set_title(gcast(group), UI.escapeMarkup(title))
        return group
    }

    private static func add(_ row: Widget, to group: Widget) {
        adw_preferences_group_add(gcast(group), row)
    }

    private static func row(_ title: String, _ subtitle: String?) -> Widget {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(gcast(row), UI.escapeMarkup(title))
        if let subtitle { adw_action_row_set_subtitle(gcast(row), UI.escapeMarkup(subtitle)) }
        return row
    }

    private static func switchRow(_ settings: Settings, key: SettingKey, title: String, subtitle: String) -> Widget {
        let row = row(title, subtitle)
        let toggle = gtk_switch_new()!
        gtk_widget_set_valign(toggle, GTK_ALIGN_CENTER)
        settings.bind(key, to: toggle, property: "active")
        adw_action_row_add_suffix(gcast(row), toggle)
        adw_action_row_set_activatable_widget(gcast(row), toggle)
        return row
    }

    private static func spinRow(_ settings: Settings, key: SettingKey, title: String, subtitle: String, step: Double) -> Widget {
        let row = row(title, subtitle)
        let range = key.range ?? 0...0
        let spin = gtk_spin_button_new_with_range(range.lowerBound, range.upperBound, step)!
        gtk_widget_set_valign(spin, GTK_ALIGN_CENTER)
        if step < 1 { gtk_spin_button_set_digits(gcast(spin), 1) }
        // GSettings maps both integer and double keys onto the spin button's double "value".
        settings.bind(key, to: spin, property: "value")
        UI.setAccessibleLabel(spin, title)
        adw_action_row_add_suffix(gcast(row), spin)
        return row
    }

    private static func choiceRow(_ settings: Settings, key: SettingKey, title: String, choices: [(id: String, label: String)]) -> Widget {
        let row = adw_combo_row_new()!
        adw_preferences_row_set_title(gcast(row), UI.escapeMarkup(title))
        let list = withCStringArray(choices.map(\.label)) { gtk_string_list_new($0) }!
        adw_combo_row_set_model(gcast(row), list)
        g_object_unref(UnsafeMutableRawPointer(list))
        let current = settings.string(key)
        adw_combo_row_set_selected(gcast(row), guint(choices.firstIndex { $0.id == current } ?? 0))
        connectMainSignal(row, "notify::selected") { _ in
            let index = Int(adw_combo_row_get_selected(gcast(row)))
            if choices.indices.contains(index) { settings.setString(key, choices[index].id) }
        }
        return row
    }
}
