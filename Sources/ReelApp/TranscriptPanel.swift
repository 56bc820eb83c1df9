// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGio
import CGtk
import CShims
import ReelCore
import ReelGLib

/// The transcript: the lines of the subtitle track playing (a subtitle file's all of them, an
/// embedded track's as they come), the line playing highlighted and kept in view, a click
/// plays from a line, the search field (Ctrl+F) filters them.
@MainActor
final class TranscriptPanel {
    let widget: Widget
    let search: Widget
    private let model: PlayerModel
    private let list: Widget
    private let scroller: Widget
    /// The lines the rows show, in order, at their delayed times.
    private var lines: [SubtitleLine] = []
    private var rows: [Widget] = []
    private var current: Int?
    /// The search text, folded for matching.
    private var query = ""

    init(model: PlayerModel) {
        self.model = model
        search = gtk_search_entry_new()!
        UI.setAccessibleLabel(search, tr("Search the Transcript"))
        gtk_widget_set_margin_start(search, 6)
        gtk_widget_set_margin_end(search, 6)
        gtk_widget_set_margin_top(search, 6)
        gtk_widget_set_margin_bottom(search, 6)

        list = gtk_list_box_new()!
        UI.addClasses(list, "navigation-sidebar")
        UI.setAccessibleLabel(list, tr("Transcript"))
        gtk_list_box_set_selection_mode(gcast(list), GTK_SELECTION_SINGLE)
        let placeholder = UI.label(tr("No subtitle lines"), classes: ["dim-label"])
        gtk_label_set_wrap(gcast(placeholder), 1)
        gtk_widget_set_margin_top(placeholder, 24)
        gtk_list_box_set_placeholder(gcast(list), placeholder)
        scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(gcast(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(gcast(scroller), list)
        gtk_widget_set_vexpand(scroller, 1)
        widget = UI.box(GTK_ORIENTATION_VERTICAL, [search, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL), scroller])

        gtk_list_box_set_filter_func(gcast(list), { row, data in
            let index = Int(gtk_list_box_row_get_index(row))
            return MainActor.assumeIsolated { WeakBox<TranscriptPanel>.target(data)?.matches(index) ?? true } ? 1 : 0
        }, WeakBox(self).retained(), CallbackBox.release)
        connectMainSignal(search, "search-changed") { [weak self] _ in
            guard let self else { return }
            self.query = String(cString: gtk_editable_get_text(gcast(self.search))).lowercased()
            gtk_list_box_invalidate_filter(gcast(self.list))
        }
        connectMainSignal(list, "row-activated") { [weak self] args in
            guard let self, let row = args.pointer(1) else { return }
            self.play(from: Int(gtk_list_box_row_get_index(gcast(row))))
        }
        // Enter in the search field plays from the first line found.
        connectMainSignal(search, "activate") { [weak self] _ in
            guard let self, let first = self.lines.indices.first(where: self.matches) else { return }
            self.play(from: first)
        }
        rebuild()
    }

    private func play(from index: Int) {
        guard lines.indices.contains(index), let start = lines[index].start else { return }
        model.seek(to: max(0, start))
        model.play()
    }

    /// The lines shown (after the search), for the diagnostics.
    var shownLines: [String] { lines.indices.filter(matches).map { lines[$0].text } }
    /// The line highlighted, for the diagnostics.
    var highlightedLine: String? { current.map { lines[$0].text } }

    private func matches(_ index: Int) -> Bool {
        guard !query.isEmpty else { return true }
        guard lines.indices.contains(index) else { return false }
        let line = lines[index]
        return (line.isMarkup ? UI.unescapeMarkup(line.text) : line.text).lowercased().contains(query)
    }

    func update(_ change: PlayerModel.Change) {
        switch change {
        case .item, .subtitleDelay:
            rebuild()
        case .subtitle, .media:
            rebuild()
            follow()
        case .position:
            follow()
        default:
            break
        }
    }

    /// New lines of an embedded track come at the end (in time order): they are appended;
    /// anything else (another item, a delay, a seek back that brought lines out of order)
    /// makes the rows anew.
    private func rebuild() {
        let fresh = model.transcriptLines
        if fresh == lines { return }
        if fresh.count > lines.count, Array(fresh.prefix(lines.count)) == lines {
            for line in fresh[lines.count...] { append(line) }
        } else {
            for row in rows { gtk_list_box_remove(gcast(list), row) }
            rows = []
            current = nil
            fresh.forEach(append)
        }
        lines = fresh
    }

    private func append(_ line: SubtitleLine) {
        let time = UI.label(TimeFormat.string(line.start ?? 0), classes: ["dim-label", "caption", "reel-time"])
        gtk_widget_set_valign(time, GTK_ALIGN_START)
        let text = UI.label()
        UI.setLine(line, in: text)
        gtk_label_set_wrap(gcast(text), 1)
        gtk_label_set_xalign(gcast(text), 0)
        gtk_widget_set_hexpand(text, 1)
        let box = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, [time, text])
        let row = gtk_list_box_row_new()!
        gtk_list_box_row_set_child(gcast(row), box)
        gtk_list_box_append(gcast(list), row)
        rows.append(row)
    }

    /// Highlights the line playing and scrolls it into view.
    private func follow() {
        let position = model.position
        let index = lines.lastIndex { ($0.start ?? 0) <= position + 0.05 }.flatMap { index in
            (lines[index].end.map { position < $0 } ?? true) ? index : nil
        }
        guard index != current else { return }
        current = index
        guard let index, rows.indices.contains(index) else { return gtk_list_box_unselect_all(gcast(list)) }
        gtk_list_box_select_row(gcast(list), gcast(rows[index]))
        UI.scrollIntoView(rows[index], of: list, in: scroller)
    }
}
