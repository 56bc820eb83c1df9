// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGtk
import ReelCore
import ReelGLib

/// The panel beside the video: the queue and the transcript, one at a time, a switcher above.
@MainActor
final class SidePanel {
    enum Page: String { case queue, transcript }

    let widget: Widget
    let queue: QueuePanel
    let transcript: TranscriptPanel
    private let stack: Widget

    /// `pageChanged`: the user picked a page in the switcher.
    init(model: PlayerModel, pageChanged: @escaping @MainActor (Page) -> Void) {
        queue = QueuePanel(model: model)
        transcript = TranscriptPanel(model: model)
        stack = adw_view_stack_new()!
        for (page, child, title, icon) in [(Page.queue, queue.widget, tr("Queue"), "view-list-symbolic"),
                                           (.transcript, transcript.widget, tr("Transcript"), "format-justify-left-symbolic")] {
            let added = adw_view_stack_add_titled(gcast(stack), child, page.rawValue, title)
            adw_view_stack_page_set_icon_name(added, icon)
        }
        let switcher = adw_view_switcher_new()!
        adw_view_switcher_set_stack(gcast(switcher), gcast(stack))
        adw_view_switcher_set_policy(gcast(switcher), ADW_VIEW_SWITCHER_POLICY_WIDE)
        let panel = UI.box(GTK_ORIENTATION_VERTICAL, [switcher, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL), stack])
        gtk_widget_set_size_request(panel, 300, -1)
        gtk_widget_set_hexpand(panel, 0)
        UI.addClasses(panel, "background")
        widget = panel
        connectMainSignal(stack, "notify::visible-child-name") { [weak self] _ in
            if let self { pageChanged(self.page) }
        }
    }

    var page: Page {
        get { adw_view_stack_get_visible_child_name(gcast(stack)).flatMap { Page(rawValue: String(cString: $0)) } ?? .queue }
        set { adw_view_stack_set_visible_child_name(gcast(stack), newValue.rawValue) }
    }

    func update(_ change: PlayerModel.Change) {
        queue.update(change)
        transcript.update(change)
    }
}
