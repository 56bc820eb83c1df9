// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGtk
import CShims
import ReelCore
import ReelGLib

/// Reel's about window: name, version, authors, licence.
@MainActor
enum AboutWindow {
    @discardableResult
    static func present(parent: Widget?) -> Widget {
        let about = adw_about_window_new()!
        adw_about_window_set_application_name(gcast(about), BuildInfo.name)
        adw_about_window_set_application_icon(gcast(about), BuildInfo.appID)
        adw_about_window_set_version(gcast(about), BuildInfo.version)
        adw_about_window_set_developer_name(gcast(about), tr("The Reel developers"))
        adw_about_window_set_comments(gcast(about), UI.escapeMarkup(tr("Play videos and audio files.")))
        adw_about_window_set_license_type(gcast(about), GTK_LICENSE_GPL_3_0)
        if let parent { gtk_window_set_transient_for(gcast(about), gcast(parent)) }
        gtk_window_present(gcast(about))
        return about
    }
}
