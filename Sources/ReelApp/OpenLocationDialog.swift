// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGtk
import CShims
import Foundation
import ReelCore
import ReelGLib

/// Asks for the address of a stream (Ctrl+L) and opens it; only http and https are offered.
@MainActor
enum OpenLocationDialog {
    @discardableResult
    static func present(parent: Widget, open: @escaping @MainActor (String) -> Void, refuse: @escaping @MainActor (String) -> Void) -> Widget {
        let dialog = adw_message_dialog_new(gcast(parent), tr("Open Location"),
                                            UI.escapeMarkup(tr("Enter the address of a video or audio stream.")))!
        let entry = gtk_entry_new()!
        gtk_entry_set_placeholder_text(gcast(entry), "https://")
        gtk_entry_set_activates_default(gcast(entry), 1)
        gtk_entry_set_input_purpose(gcast(entry), GTK_INPUT_PURPOSE_URL)
        UI.setAccessibleLabel(entry, tr("Address"))
        adw_message_dialog_set_extra_child(gcast(dialog), entry)
        gtk_window_set_title(gcast(dialog), tr("Open Location"))
        adw_message_dialog_add_response(gcast(dialog), "cancel", tr("_Cancel"))
        adw_message_dialog_add_response(gcast(dialog), "open", tr("_Open"))
        adw_message_dialog_set_response_appearance(gcast(dialog), "open", ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(gcast(dialog), "open")
        adw_message_dialog_set_close_response(gcast(dialog), "cancel")
        AccessibleNames.nameButtons(under: gcast(dialog))
        connectMainSignal(dialog, "response") { args in
            guard let response = args.string(1), response == "open",
                  let text = gtk_editable_get_text(gcast(entry)).map({ String(cString: $0) }) else { return }
            let address = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if let scheme = MediaLocation.scheme(of: address), ["http", "https"].contains(scheme), address.contains("://") {
                open(address)
            } else if !address.isEmpty {
                refuse(String(format: tr("“%@” is not an http or https address."), address))
            }
        }
        gtk_window_present(gcast(dialog))
        return dialog
    }
}
