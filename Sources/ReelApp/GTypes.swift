// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGtk
import ReelGLib

// The GTK and libadwaita structs Swift sees whole (typed pointers), so `gcast` checks casts to
// them in debug builds; GTK 4's final types (GtkLabel, AdwHeaderBar…) are opaque and cannot be.

extension GtkWidget: GTyped { public static var gType: GType { gtk_widget_get_type() } }
extension GtkWindow: GTyped { public static var gType: GType { gtk_window_get_type() } }
extension GtkApplicationWindow: GTyped { public static var gType: GType { gtk_application_window_get_type() } }
extension GtkApplication: GTyped { public static var gType: GType { gtk_application_get_type() } }
extension GtkButton: GTyped { public static var gType: GType { gtk_button_get_type() } }
extension GtkToggleButton: GTyped { public static var gType: GType { gtk_toggle_button_get_type() } }
extension GtkRange: GTyped { public static var gType: GType { gtk_range_get_type() } }
extension GtkScale: GTyped { public static var gType: GType { gtk_scale_get_type() } }
extension GtkEntry: GTyped { public static var gType: GType { gtk_entry_get_type() } }
extension GtkPopover: GTyped { public static var gType: GType { gtk_popover_get_type() } }
extension GtkNativeDialog: GTyped { public static var gType: GType { gtk_native_dialog_get_type() } }
extension GtkDrawingArea: GTyped { public static var gType: GType { gtk_drawing_area_get_type() } }
extension GtkListBoxRow: GTyped { public static var gType: GType { gtk_list_box_row_get_type() } }
extension GtkBox: GTyped { public static var gType: GType { gtk_box_get_type() } }
extension AdwApplication: GTyped { public static var gType: GType { adw_application_get_type() } }
extension AdwApplicationWindow: GTyped { public static var gType: GType { adw_application_window_get_type() } }
extension AdwWindow: GTyped { public static var gType: GType { adw_window_get_type() } }
extension AdwPreferencesWindow: GTyped { public static var gType: GType { adw_preferences_window_get_type() } }
extension AdwPreferencesPage: GTyped { public static var gType: GType { adw_preferences_page_get_type() } }
extension AdwPreferencesGroup: GTyped { public static var gType: GType { adw_preferences_group_get_type() } }
extension AdwPreferencesRow: GTyped { public static var gType: GType { adw_preferences_row_get_type() } }
extension AdwActionRow: GTyped { public static var gType: GType { adw_action_row_get_type() } }
extension AdwComboRow: GTyped { public static var gType: GType { adw_combo_row_get_type() } }
extension AdwMessageDialog: GTyped { public static var gType: GType { adw_message_dialog_get_type() } }
extension AdwBin: GTyped { public static var gType: GType { adw_bin_get_type() } }
