// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGio
import CGtk
import CShims
import ReelCore
import ReelGLib

/// Every setting, editable: data/ui/preferences.ui, whose widgets (named by their keys) write
/// straight to GSettings.
@MainActor
enum PreferencesWindow {
    @discardableResult
    static func present(settings: Settings, nightModeAvailable: Bool, parent: Widget?) -> Widget {
        let ui = UIDefinition("preferences.ui")
        let window = ui.object("preferences")
        if let parent { gtk_window_set_transient_for(gcast(window), gcast(parent)) }

        for key in [SettingKey.skipInterval, .repeatEach, .gap, .lineLeadIn, .lineLeadOut] {
            let spin = ui.object(key.rawValue)
            if let range = key.range { gtk_spin_button_set_range(gcast(spin), range.lowerBound, range.upperBound) }
            // GSettings maps both integer and double keys onto the spin button's double "value".
            settings.bind(key, to: spin, property: "value")
        }
        for key in [SettingKey.continueAfterErrors, .recurseFolders, .resumePlayback, .nightMode] {
            settings.bind(key, to: ui.object(key.rawValue), property: "active")
        }
        for key in [SettingKey.minimizeAction, .closeAction] { bindChoice(ui.object(key.rawValue), to: key, settings) }
        if !nightModeAvailable {
            let row = ui.object("night-mode-row")
            adw_action_row_set_subtitle(gcast(row), tr("Needs the lsp-plugins-ladspa package"))
            gtk_widget_set_sensitive(row, 0)
        }
        AccessibleNames.nameButtons(under: window)
        gtk_window_present(gcast(window))
        withExtendedLifetime(ui) {}
        return window
    }

    /// A combo row whose items are the key's choices, in SettingKey's order.
    private static func bindChoice(_ row: Widget, to key: SettingKey, _ settings: Settings) {
        let choices = key.choices ?? []
        adw_combo_row_set_selected(gcast(row), guint(choices.firstIndex(of: settings.string(key)) ?? 0))
        connectMainSignal(row, "notify::selected") { _ in
            let index = Int(adw_combo_row_get_selected(gcast(row)))
            if choices.indices.contains(index) { settings.setString(key, choices[index]) }
        }
    }
}
