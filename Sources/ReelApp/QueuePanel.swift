// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGio
import CGtk
import CShims
import Foundation
import ReelCore
import ReelGLib

/// The side panel listing the queue: the playing item marked, a click plays an item, its
/// button removes it, dragging a row moves it, the search field (Ctrl+F) filters it by title or
/// file name. A GtkListView over a list of item ids (ReelIdList): rows exist only for what is on
/// screen and are recycled as it scrolls, so a library of 100,000 costs what twenty rows cost.
@MainActor
final class QueuePanel {
    let widget: Widget
    let search: Widget
    private let model: PlayerModel
    private let ids: OpaquePointer
    private let countLabel: Widget
    /// The items in the list, in order: the queue's, or those the search found.
    private var shownItems: [QueueItem] = []
    private let placeholder: Widget
    private var filter: QueueFilter?
    /// How long the last search took to go through the queue, for the diagnostics.
    private(set) var lastFilterDuration: TimeInterval = 0
    /// The rows GTK made, by their list item; those showing an item, by its id.
    private var cells: [UnsafeMutableRawPointer: Cell] = [:]
    private var shown: [Int: Cell] = [:]
    /// Titles read from the items' tags while they played: a row keeps its item's title after.
    private var taggedTitles: [Int: String] = [:]

    /// The item's title as its row shows it, nil for a file name: for a playlist of the queue.
    func title(of item: QueueItem) -> String? { taggedTitles[item.id] ?? item.title }

    /// One recycled row: its widgets, made once, and the item it shows now.
    private final class Cell {
        let listItem: UnsafeMutableRawPointer
        let content: Widget, marker: Widget, label: Widget
        let dragSource: OpaquePointer
        var id: Int?

        init(listItem: UnsafeMutableRawPointer, content: Widget, marker: Widget, label: Widget, dragSource: OpaquePointer) {
            self.listItem = listItem
            self.content = content
            self.marker = marker
            self.label = label
            self.dragSource = dragSource
        }
    }

    init(model: PlayerModel) {
        self.model = model
        ids = reel_id_list_new()

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
        let save = UI.iconButton("document-save-symbolic", tooltip: tr("Save Queue…"), action: "app.save-queue")
        let header = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [titles, shuffle, loop, save])
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top,
                       gtk_widget_set_margin_bottom] { margin(header, 6) }
        gtk_widget_set_margin_start(header, 12)

        search = gtk_search_entry_new()!
        UI.setAccessibleLabel(search, tr("Search the Queue"))
        for margin in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_bottom] { margin(search, 6) }

        let factory = gtk_signal_list_item_factory_new()!
        g_object_ref(UnsafeMutableRawPointer(ids))
        let view = gtk_list_view_new(gcast(gtk_no_selection_new(gcast(ids))), factory)!
        gtk_list_view_set_single_click_activate(gcast(view), 1)
        UI.addClasses(view, "navigation-sidebar")
        UI.setAccessibleLabel(view, tr("Queue"))
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(gcast(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(gcast(scroller), view)
        gtk_widget_set_vexpand(scroller, 1)
        placeholder = UI.label(tr("Nothing queued"), classes: ["dim-label"])
        gtk_widget_set_margin_top(placeholder, 24)
        gtk_widget_set_valign(placeholder, GTK_ALIGN_START)
        let listArea = gtk_overlay_new()!
        gtk_overlay_set_child(gcast(listArea), scroller)
        gtk_overlay_add_overlay(gcast(listArea), placeholder)

        let panel = UI.box(GTK_ORIENTATION_VERTICAL, [header, search, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL), listArea])
        gtk_widget_set_size_request(panel, 280, -1)
        // A fixed width: the titles' expansion must not make the panel take half the window.
        gtk_widget_set_hexpand(panel, 0)
        UI.addClasses(panel, "queue-panel", "background")
        widget = panel

        connectMainSignal(UnsafeMutableRawPointer(factory), "setup") { [weak self] args in
            if let self, let item = args.pointer(1) { self.setUp(listItem: item) }
        }
        connectMainSignal(UnsafeMutableRawPointer(factory), "bind") { [weak self] args in
            if let self, let item = args.pointer(1) { self.bind(listItem: item) }
        }
        connectMainSignal(UnsafeMutableRawPointer(factory), "unbind") { [weak self] args in
            if let self, let item = args.pointer(1), let cell = self.cells[item] { self.unbind(cell) }
        }
        connectMainSignal(UnsafeMutableRawPointer(factory), "teardown") { [weak self] args in
            guard let self, let item = args.pointer(1), let cell = self.cells.removeValue(forKey: item) else { return }
            self.unbind(cell)
        }
        connectMainSignal(view, "activate") { [weak self] args in
            guard let self else { return }
            let position = args.int(1)
            if self.shownItems.indices.contains(position) { model.playItem(id: self.shownItems[position].id) }
        }
        connectMainSignal(search, "search-changed") { [weak self] _ in
            guard let self else { return }
            self.filter = QueueFilter(String(cString: gtk_editable_get_text(gcast(self.search))))
            self.reload()
        }
        // Enter in the search field plays the first item found.
        connectMainSignal(search, "activate") { [weak self] _ in
            guard let self, self.filter != nil, let first = self.shownItems.first else { return }
            model.playItem(id: first.id)
        }
        connectMainSignal(search, "stop-search") { [weak self] _ in
            guard let self else { return }
            gtk_editable_set_text(gcast(self.search), "")
            gtk_widget_grab_focus(view)
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

    /// Brings the list in line with the queue (or what the search finds in it), replacing only
    /// what changed between the ids kept at either end: a batch of a library being listed is
    /// one splice at the end.
    private func reload() {
        let items = model.queue.items
        gtk_label_set_text(gcast(countLabel), String(format: trn("%d item", "%d items", items.count), items.count))
        var wanted = items
        if let filter {
            let started = Date()
            wanted = items.filter { filter.matches($0, title: taggedTitles[$0.id]) }
            lastFilterDuration = Date().timeIntervalSince(started)
        }
        gtk_widget_set_visible(placeholder, items.isEmpty ? 1 : 0)
        guard wanted != shownItems else { return markCurrent() }
        let kept = zip(shownItems, wanted).prefix { $0.id == $1.id }.count
        let keptAtEnd = zip(shownItems.dropFirst(kept).reversed(), wanted.dropFirst(kept).reversed()).prefix { $0.id == $1.id }.count
        let removed = shownItems.count - keptAtEnd - kept
        let added = wanted[kept..<(wanted.count - keptAtEnd)].map { gint64($0.id) }
        if filter == nil, !taggedTitles.isEmpty {
            let remaining = Set(wanted.map(\.id))
            taggedTitles = taggedTitles.filter { remaining.contains($0.key) }
        }
        shownItems = wanted
        added.withUnsafeBufferPointer { reel_id_list_splice(ids, guint(kept), guint(removed), $0.baseAddress, guint($0.count)) }
        markCurrent()
    }

    private func markCurrent() {
        let current = model.currentItem?.id
        for (id, cell) in shown { gtk_widget_set_opacity(cell.marker, id == current ? 1 : 0) }
    }

    /// The titles of the rows that exist (those on screen), in order.
    var rowTitles: [String] {
        shown.values.sorted { gtk_list_item_get_position(gcast($0.listItem)) < gtk_list_item_get_position(gcast($1.listItem)) }
            .map { String(cString: gtk_label_get_text(gcast($0.label))) }
    }

    /// Rows made so far (GTK recycles them): for the diagnostics, which check they stay few.
    var rowCount: Int { cells.count }

    /// Puts the keyboard in the search field.
    func focusSearch() { gtk_widget_grab_focus(search) }

    /// The playing item's tags arrived (or changed): its row shows their title.
    private func showCurrentTitle() {
        guard let id = model.currentItem?.id, let title = model.media?.title, !title.isEmpty else { return }
        taggedTitles[id] = title
        if let cell = shown[id] { show(title, in: cell) }
    }

    private func show(_ title: String, in cell: Cell) {
        gtk_label_set_text(gcast(cell.label), title)
        UI.setAccessibleLabel(cell.content, title)
    }

    // MARK: Rows

    private func setUp(listItem: UnsafeMutableRawPointer) {
        let marker = gtk_image_new_from_icon_name("media-playback-start-symbolic")!
        UI.setAccessibleLabel(marker, tr("Playing"))
        let label = UI.label()
        gtk_label_set_ellipsize(gcast(label), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_xalign(gcast(label), 0)
        gtk_widget_set_hexpand(label, 1)
        let remove = UI.iconButton("list-remove-symbolic", tooltip: tr("Remove from Queue"))
        UI.addClasses(remove, "flat", "circular")
        let content = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8, [marker, label, remove])
        gtk_list_item_set_child(gcast(listItem), content)

        // Rows drag their item id as text; dropping one on another row moves it before that one.
        let source = gtk_drag_source_new()!
        gtk_drag_source_set_actions(source, GDK_ACTION_MOVE)
        gtk_widget_add_controller(content, gcast(source))
        let cell = Cell(listItem: listItem, content: content, marker: marker, label: label, dragSource: source)
        cells[listItem] = cell
        UI.onClicked(remove) { [weak self, weak cell] in
            if let self, let id = cell?.id { self.model.removeItem(id: id) }
        }
        let target = gtk_drop_target_new(reel_type_string(), GDK_ACTION_MOVE)!
        connectMainSignal(UnsafeMutableRawPointer(target), "drop") { [weak self, weak cell] args in
            guard let self, let before = cell?.id, let value = args.pointer(1)?.assumingMemoryBound(to: GValue.self),
                  let text = g_value_get_string(value).map({ String(cString: $0) }),
                  text.hasPrefix(Self.dragPrefix), let moved = Int(text.dropFirst(Self.dragPrefix.count)) else {
                return args.setReturn(false)
            }
            self.model.moveItem(id: moved, before: before)
            args.setReturn(true)
        }
        gtk_widget_add_controller(content, gcast(target))
    }

    private static let dragPrefix = "reel-queue-item:"

    private func bind(listItem: UnsafeMutableRawPointer) {
        guard let cell = cells[listItem] else { return }
        let id = Int(reel_id_item_get_id(gtk_list_item_get_item(gcast(listItem))))
        let position = Int(gtk_list_item_get_position(gcast(listItem)))
        // The list's ids and the items shown change together; the lookup is the slow way round.
        guard let item = shownItems.indices.contains(position) && shownItems[position].id == id ? shownItems[position]
                : model.queue.item(id: id) else { return }
        cell.id = id
        shown[id] = cell
        show(taggedTitles[id] ?? item.fallbackTitle, in: cell)
        gtk_widget_set_tooltip_text(cell.label, item.displayName)
        gtk_widget_set_opacity(cell.marker, id == model.currentItem?.id ? 1 : 0)
        var value = GValue()
        g_value_init(&value, reel_type_string())
        g_value_set_string(&value, Self.dragPrefix + String(id))
        let content = gdk_content_provider_new_for_value(&value)
        g_value_unset(&value)
        gtk_drag_source_set_content(cell.dragSource, content)
        if let content { g_object_unref(UnsafeMutableRawPointer(content)) }
    }

    private func unbind(_ cell: Cell) {
        if let id = cell.id, shown[id] === cell { shown[id] = nil }
        cell.id = nil
    }
}
