import CAdwaita
import CGio
import CGtk
import CShims
import Foundation
import ReelCore
import ReelGLib

/// The side panel listing the queue: the playing item marked, a click plays an item, its
/// button removes it, dragging a row moves it. Its rows come from a GListModel (a GListStore
/// of item ids) that follows the model's queue; loop and shuffle sit in its header.
@MainActor
final class QueuePanel {
    let widget: Widget
    private let model: PlayerModel
    private let store: OpaquePointer
    private let list: Widget
    private let countLabel: Widget
    private var shownIDs: [Int] = []
    private var rows: [Int: (row: Widget, marker: Widget, label: Widget)] = [:]
    /// Titles read from the items' tags while they played: a row keeps its item's title after.
    private var taggedTitles: [Int: String] = [:]

    init(model: PlayerModel) {
        self.model = model
        store = g_list_store_new(gtk_string_object_get_type())

        let title = UI.label(tr("Queue"), classes: ["heading"])
        gtk_widget_set_halign(title, GTK_ALIGN_START)
        countLabel = UI.label("", classes: ["dim-label", "caption"])
        gtk_widget_set_halign(countLabel, GTK_ALIGN_START)
        let titles = UI.box(GTK_ORIENTATION_VERTICAL, [title, countLabel])
        gtk_widget_set_hexpand(titles, 1)

        let shuffle = gtk_toggle_button_new()!
        gtk_button_set_icon_name(gcast(shuffle), "media-playlist-shuffle-symbolic")
        gtk_actionable_set_action_name(gcast(shuffle), "app.shuffle")
        UI.setTooltip(shuffle, tr("Shuffle"))
        let loopMenu = g_menu_new()!
        for (label, mode) in [(tr("_No Repeat"), "none"), (tr("Repeat _One Item"), "item"), (tr("Repeat _Queue"), "queue")] {
            let item = g_menu_item_new(label, nil)!
            g_menu_item_set_action_and_target_value(item, "app.loop", g_variant_new_string(mode))
            g_menu_append_item(loopMenu, item)
            g_object_unref(UnsafeMutableRawPointer(item))
        }
        let loop = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(gcast(loop), "media-playlist-repeat-symbolic")
        gtk_menu_button_set_menu_model(gcast(loop), gcast(loopMenu))
        g_object_unref(UnsafeMutableRawPointer(loopMenu))
        UI.setTooltip(loop, tr("Repeat"))
        let header = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [titles, shuffle, loop])
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top,
                       gtk_widget_set_margin_bottom] { margin(header, 6) }
        gtk_widget_set_margin_start(header, 12)

        list = gtk_list_box_new()!
        UI.addClasses(list, "navigation-sidebar")
        UI.setAccessibleLabel(list, tr("Queue"))
        let placeholder = UI.label(tr("Nothing queued"), classes: ["dim-label"])
        gtk_widget_set_margin_top(placeholder, 24)
        gtk_list_box_set_placeholder(gcast(list), placeholder)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(gcast(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(gcast(scroller), list)
        gtk_widget_set_vexpand(scroller, 1)

        let panel = UI.box(GTK_ORIENTATION_VERTICAL, [header, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL), scroller])
        gtk_widget_set_size_request(panel, 280, -1)
        // A fixed width: the titles' expansion must not make the panel take half the window.
        gtk_widget_set_hexpand(panel, 0)
        UI.addClasses(panel, "queue-panel", "background")
        widget = panel

        let context = Unmanaged.passUnretained(self).toOpaque()
        gtk_list_box_bind_model(gcast(list), store, { item, context in
            let panel = Unmanaged<QueuePanel>.fromOpaque(context!).takeUnretainedValue()
            // Crosses assumeIsolated as an address: widget pointers are not Sendable.
            let row = MainActor.assumeIsolated { UInt(bitPattern: panel.makeRow(for: item)) }
            return UnsafeMutablePointer(bitPattern: row)
        }, context, nil)
        connectMainSignal(list, "row-activated") { [weak self] args in
            guard let self, let row = args.pointer(1) else { return }
            let index = Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self)))
            if self.shownIDs.indices.contains(index) { model.playItem(id: self.shownIDs[index]) }
        }
        reload()
    }

    func update(_ change: PlayerModel.Change) {
        switch change {
        case .queue: reload()
        case .item, .status: markCurrent()
        case .media: showCurrentTitle()
        default: break
        }
    }

    /// Brings the store in line with the queue, replacing only what changed between the rows
    /// kept at either end: every row made anew for each item added was seen to take the main
    /// thread 0.5 s per drop once a few hundred items were queued.
    private func reload() {
        let ids = model.queue.items.map(\.id)
        let count = ids.count
        gtk_label_set_text(gcast(countLabel), String(format: trn("%d item", "%d items", count), count))
        guard ids != shownIDs else { return markCurrent() }
        let kept = zip(shownIDs, ids).prefix { $0 == $1 }.count
        let keptAtEnd = zip(shownIDs.dropFirst(kept).reversed(), ids.dropFirst(kept).reversed()).prefix { $0 == $1 }.count
        let removed = shownIDs[kept..<(shownIDs.count - keptAtEnd)]
        let added = ids[kept..<(ids.count - keptAtEnd)]
        let remaining = Set(ids)
        for id in removed where !remaining.contains(id) { rows[id] = nil }
        taggedTitles = taggedTitles.filter { remaining.contains($0.key) }
        shownIDs = ids
        var objects: [gpointer?] = added.map { gpointer(gtk_string_object_new(String($0))) }
        g_list_store_splice(store, guint(kept), guint(removed.count), &objects, guint(objects.count))
        objects.forEach { g_object_unref($0) }
        markCurrent()
    }

    private func markCurrent() {
        let current = model.currentItem?.id
        for (id, row) in rows {
            gtk_widget_set_opacity(row.marker, id == current ? 1 : 0)
            if id == current { gtk_widget_add_css_class(row.row, "current") } else { gtk_widget_remove_css_class(row.row, "current") }
        }
    }

    /// The rows' titles, in order.
    var rowTitles: [String] {
        shownIDs.compactMap { rows[$0] }.map { String(cString: gtk_label_get_text(gcast($0.label))) }
    }

    /// The playing item's tags arrived (or changed): its row shows their title.
    private func showCurrentTitle() {
        guard let id = model.currentItem?.id, let title = model.media?.title, !title.isEmpty else { return }
        taggedTitles[id] = title
        if let row = rows[id] {
            gtk_label_set_text(gcast(row.label), title)
            UI.setAccessibleLabel(row.row, title)
        }
    }

    private func makeRow(for object: gpointer?) -> Widget {
        let idText = gtk_string_object_get_string(OpaquePointer(object)).map { String(cString: $0) } ?? ""
        let id = Int(idText) ?? -1
        let item = model.queue.items.first { $0.id == id }
        let name = taggedTitles[id] ?? item?.fallbackTitle ?? ""

        let marker = gtk_image_new_from_icon_name("media-playback-start-symbolic")!
        UI.setAccessibleLabel(marker, tr("Playing"))
        let label = UI.label(name)
        gtk_label_set_ellipsize(gcast(label), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_xalign(gcast(label), 0)
        gtk_widget_set_hexpand(label, 1)
        if let item { gtk_widget_set_tooltip_text(label, item.displayName) }
        let remove = UI.iconButton("list-remove-symbolic", tooltip: tr("Remove from Queue"))
        UI.addClasses(remove, "flat", "circular")
        UI.onClicked(remove) { [weak self] in self?.model.removeItem(id: id) }
        let content = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8, [marker, label, remove])

        let row = gtk_list_box_row_new()!
        gtk_list_box_row_set_child(gcast(row), content)
        UI.setAccessibleLabel(row, name)
        installReordering(on: row, id: id)
        rows[id] = (row, marker, label)
        gtk_widget_set_opacity(marker, id == model.currentItem?.id ? 1 : 0)
        return row
    }

    /// Rows drag their item id as text; dropping one on another row moves it before that one.
    private func installReordering(on row: Widget, id: Int) {
        let source = gtk_drag_source_new()!
        gtk_drag_source_set_actions(source, GDK_ACTION_MOVE)
        var value = GValue()
        g_value_init(&value, reel_type_string())
        g_value_set_string(&value, "reel-queue-item:\(id)")
        let content = gdk_content_provider_new_for_value(&value)
        g_value_unset(&value)
        gtk_drag_source_set_content(source, content)
        if let content { g_object_unref(UnsafeMutableRawPointer(content)) }
        gtk_widget_add_controller(row, gcast(source))

        let target = gtk_drop_target_new(reel_type_string(), GDK_ACTION_MOVE)!
        connectMainSignal(UnsafeMutableRawPointer(target), "drop") { [weak self] args in
            guard let self, let value = args.pointer(1)?.assumingMemoryBound(to: GValue.self),
                  let text = g_value_get_string(value).map({ String(cString: $0) }),
                  text.hasPrefix("reel-queue-item:"), let moved = Int(text.dropFirst("reel-queue-item:".count)) else {
                return args.setReturn(false)
            }
            self.model.moveItem(id: moved, before: id)
            args.setReturn(true)
        }
        gtk_widget_add_controller(row, gcast(target))
    }
}
