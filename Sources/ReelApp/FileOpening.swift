// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGtk
import CShims
import Foundation
import ReelCore
import ReelEngine
import ReelGLib

/// How files reach the window: the Open and Add Subtitles dialogs, and files or addresses
/// dropped on it. Each hands URIs on; what cannot be opened is refused in words.
@MainActor
final class FileOpening {
    private let window: Widget
    private let open: @MainActor ([String]) -> Void
    private let openSubtitles: @MainActor (String) -> Void
    private let refused: @MainActor (String) -> Void
    /// The dialog showing, kept until it answers (GtkFileChooserNative is not a widget).
    private var chooser: OpaquePointer?

    init(window: Widget, open: @escaping @MainActor ([String]) -> Void, openSubtitles: @escaping @MainActor (String) -> Void,
         refused: @escaping @MainActor (String) -> Void) {
        self.window = window
        self.open = open
        self.openSubtitles = openSubtitles
        self.refused = refused
        installDropTarget()
    }

    func showOpenDialog() {
        showFileChooser(title: tr("Open"), filterName: tr("Videos and Audio"), multiple: true,
                        add: { filter in for type in MediaTypes.mimeTypes { gtk_file_filter_add_mime_type(filter, type) } }) {
            [open] uris in open(uris)
        }
    }

    /// Folders (a music library, a course): their media, and their folders' (see MediaFolder).
    func showOpenFolderDialog() {
        showFileChooser(title: tr("Open Folder"), action: GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, multiple: true) {
            [open] uris in open(uris)
        }
    }

    private static let playlistSuffixes = ["m3u8", "m3u", "xspf"]

    /// Where to save the queue as a playlist: M3U8 unless the name asks for XSPF.
    func showSaveQueueDialog(then save: @escaping @MainActor (String, PlaylistFile.Format) -> Void) {
        showFileChooser(title: tr("Save Queue"), action: GTK_FILE_CHOOSER_ACTION_SAVE, accept: tr("_Save"), filterName: tr("Playlists"),
                        multiple: false, add: { filter in for suffix in Self.playlistSuffixes { gtk_file_filter_add_suffix(filter, suffix) } },
                        prepare: { chooser in gtk_file_chooser_set_current_name(gcast(chooser), tr("Queue") + ".m3u8") }) { uris in
            guard let uri = uris.first, var path = takeString(g_filename_from_uri(uri, nil, nil)) else { return }
            let suffix = (path as NSString).pathExtension.lowercased()
            if !Self.playlistSuffixes.contains(suffix) { path += ".m3u8" }
            save(path, suffix == "xspf" ? .xspf : .m3u8)
        }
    }

    func showOpenSubtitlesDialog() { showSubtitlesDialog(title: tr("Add Subtitles"), then: openSubtitles) }

    /// A subtitle file (SubRip or WebVTT) for the second track.
    func showSecondSubtitlesDialog(then accept: @escaping @MainActor (String) -> Void) {
        showSubtitlesDialog(title: tr("Second Subtitles"), then: accept)
    }

    private func showSubtitlesDialog(title: String, then accept: @escaping @MainActor (String) -> Void) {
        showFileChooser(title: title, filterName: tr("Subtitles"), multiple: false,
                        add: { filter in for ext in SubtitleFiles.extensions { gtk_file_filter_add_suffix(filter, ext) } }) {
            uris in if let uri = uris.first { accept(uri) }
        }
    }

    private func showFileChooser(title: String, action: GtkFileChooserAction = GTK_FILE_CHOOSER_ACTION_OPEN, accept acceptLabel: String = tr("_Open"),
                                 filterName: String? = nil, multiple: Bool, add: (OpaquePointer) -> Void = { _ in },
                                 prepare: (OpaquePointer) -> Void = { _ in }, then accept: @escaping @MainActor ([String]) -> Void) {
        // One file dialog at a time: asked again, the one open comes to the front.
        if let chooser { return gtk_native_dialog_show(gcast(chooser)) }
        let chooser = gtk_file_chooser_native_new(title, gcast(window), action, acceptLabel, tr("_Cancel"))!
        gtk_file_chooser_set_select_multiple(gcast(chooser), multiple ? 1 : 0)
        if let filterName {
            let filter = gtk_file_filter_new()!
            gtk_file_filter_set_name(filter, filterName)
            add(filter)
            gtk_file_chooser_add_filter(gcast(chooser), filter)
            g_object_unref(UnsafeMutableRawPointer(filter))
        }
        prepare(chooser)
        connectMainSignal(UnsafeMutableRawPointer(chooser), "response") { [weak self] args in
            guard let self else { return }
            if args.int(1) == Int(GTK_RESPONSE_ACCEPT.rawValue) {
                let files = gtk_file_chooser_get_files(gcast(chooser))
                accept(Self.uris(in: files))
                if let files { g_object_unref(UnsafeMutableRawPointer(files)) }
            }
            if let chooser = self.chooser { g_object_unref(UnsafeMutableRawPointer(chooser)) }
            self.chooser = nil
        }
        if let old = self.chooser { g_object_unref(UnsafeMutableRawPointer(old)) }
        self.chooser = chooser
        gtk_native_dialog_show(gcast(chooser))
    }

    private static func uris(in files: OpaquePointer?) -> [String] {
        guard let files else { return [] }
        return (0..<g_list_model_get_n_items(files)).compactMap { index in
            guard let file = g_list_model_get_item(files, index) else { return nil }
            defer { g_object_unref(file) }
            return takeString(g_file_get_uri(OpaquePointer(file)))
        }
    }

    private func installDropTarget() {
        let target = gtk_drop_target_new(reel_type_pointer(), GDK_ACTION_COPY)!
        var types = [gdk_file_list_get_type(), reel_type_string()]
        gtk_drop_target_set_gtypes(target, &types, 2)
        connectMainSignal(UnsafeMutableRawPointer(target), "drop") { [weak self] args in
            guard let self, let value = args.pointer(1)?.assumingMemoryBound(to: GValue.self) else {
                args.setReturn(false)
                return
            }
            var uris: [String] = []
            if reel_value_type(value) == gdk_file_list_get_type(), let list = g_value_get_boxed(value) {
                var node = gdk_file_list_get_files(OpaquePointer(list))
                let head = node
                while let current = node {
                    if let file = current.pointee.data, let uri = takeString(g_file_get_uri(OpaquePointer(file))) {
                        uris.append(uri)
                    }
                    node = current.pointee.next
                }
                g_slist_free(head)
            } else if let text = g_value_get_string(value) {
                uris = String(cString: text).split(whereSeparator: \.isNewline)
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty && !$0.hasPrefix("#") }
                    .map { MediaLocation.uri(for: $0, relativeTo: "/") }
            }
            let accepted = uris.filter(MediaLocation.isSupported)
            if accepted.count < uris.count { self.refused(tr("Only files and http or https addresses can be opened.")) }
            if !accepted.isEmpty { self.open(accepted) }
            args.setReturn(!accepted.isEmpty)
        }
        gtk_widget_add_controller(window, target)
    }
}
