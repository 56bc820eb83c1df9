// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGStreamer
import CShims
import ReelCore
import ReelGLib

/// The item's chapters, from the table of contents its demuxer sends (Matroska chapters).
/// GstPlay's media info has none in 1.22 and GStreamer 1.x has no TOC query, but each sink that
/// receives the TOC posts it on the pipeline's bus, where GstPlay's signal watch emits it on
/// GstPlay's thread; `deliver` gets the chapters on the main loop, with the URI they belong to.
/// An item without chapters sends nothing: the engine forgets the last item's at each load.
enum ChapterReader {
    static func watch(_ pipeline: UnsafeMutablePointer<GstElement>,
                      deliver: @escaping @MainActor (_ chapters: [Chapter], _ uri: String) -> Void) {
        guard let bus = gst_element_get_bus(pipeline) else { return }
        defer { gst_object_unref(gpointer(bus)) }
        connectSignal(UnsafeMutableRawPointer(bus), "message::toc") { args in
            guard let message = args.pointer(1)?.assumingMemoryBound(to: GstMessage.self) else { return }
            var toc: OpaquePointer?
            gst_message_parse_toc(message, &toc, nil)
            guard let toc else { return }
            let chapters = Self.chapters(in: gst_toc_get_entries(toc))
            gst_mini_object_unref(UnsafeMutablePointer<GstMiniObject>(toc))
            guard let uri = takeString(reel_object_get_string(pipeline, "current-uri")) else { return }
            runSoon { deliver(chapters, uri) }
        }
    }

    /// The chapters among `entries` and theirs: Matroska puts them in an edition.
    private static func chapters(in entries: UnsafeMutablePointer<GList>?) -> [Chapter] {
        var chapters: [Chapter] = []
        var node = entries
        while let current = node {
            let entry = OpaquePointer(current.pointee.data)
            let subEntries = gst_toc_entry_get_sub_entries(entry)
            if gst_toc_entry_get_entry_type(entry) == GST_TOC_ENTRY_TYPE_CHAPTER, subEntries == nil {
                var start: gint64 = -1, stop: gint64 = -1
                gst_toc_entry_get_start_stop_times(entry, &start, &stop)
                if let begins = GStreamer.seconds(UInt64(bitPattern: Int64(start))) {
                    chapters.append(Chapter(title: title(of: entry), start: begins, end: GStreamer.seconds(UInt64(bitPattern: Int64(stop)))))
                }
            } else {
                chapters += self.chapters(in: subEntries)
            }
            node = current.pointee.next
        }
        return chapters
    }

    private static func title(of entry: OpaquePointer?) -> String {
        guard let tags = gst_toc_entry_get_tags(entry) else { return "" }
        var title: UnsafeMutablePointer<gchar>?
        guard gst_tag_list_get_string(tags, "title", &title) != 0 else { return "" }
        return takeString(title) ?? ""
    }
}
