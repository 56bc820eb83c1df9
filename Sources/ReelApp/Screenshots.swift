// SPDX-License-Identifier: GPL-3.0-or-later
import CGtk
import CShims
import Foundation
import ReelCore
import ReelEngine
import ReelGLib

/// Screenshots (Ctrl+Alt+S) and the frame copied as an image (Ctrl+Shift+C): the frame at the
/// position, taken from the media at the video's own size, so they work paused or minimized.
/// Screenshots go to Pictures/Screenshots (XDG user dirs), named after the title and position.
@MainActor
final class Screenshots {
    private let model: PlayerModel
    private let window: () -> PlayerWindow?
    /// The last screenshot saved, which the toast's Open button shows.
    private(set) var lastSaved: URL?

    init(model: PlayerModel, window: @escaping () -> PlayerWindow?) {
        self.model = model
        self.window = window
    }

    static var folder: URL {
        // GLib's home honours $HOME; Foundation's homeDirectoryForCurrentUser reads passwd.
        let pictures = g_get_user_special_dir(G_USER_DIRECTORY_PICTURES).map { String(cString: $0) }
            ?? String(cString: g_get_home_dir()) + "/Pictures"
        return URL(fileURLWithPath: pictures).appendingPathComponent("Screenshots")
    }

    /// "Title 0-01-23.456.png": the position with dashes, which every file system takes.
    static func fileName(title: String, at position: Seconds) -> String {
        let milliseconds = Int((max(0, position) * 1000).rounded())
        let (hours, minutes) = (milliseconds / 3_600_000, milliseconds / 60_000 % 60)
        let seconds = Double(milliseconds % 60_000) / 1000
        let safeTitle = title.replacingOccurrences(of: "/", with: "-")
        return "\(safeTitle) \(String(format: "%d-%02d-%06.3f", hours, minutes, seconds)).png"
    }

    func save() {
        grab { [weak self] texture, title, position in
            guard let self else { return }
            let folder = Self.folder
            var file = folder.appendingPathComponent(Self.fileName(title: title, at: position))
            var n = 1
            while FileManager.default.fileExists(atPath: file.path) {
                n += 1
                file = folder.appendingPathComponent(Self.fileName(title: "\(title) (\(n))", at: position))
            }
            let saved = (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil
                && gdk_texture_save_to_png(texture, file.path) != 0
            g_object_unref(UnsafeMutableRawPointer(texture))
            guard saved else {
                self.window()?.showToast(String(format: tr("Could not save the screenshot in %@"), folder.path))
                return
            }
            self.lastSaved = file
            self.window()?.showToast(String(format: tr("Screenshot saved as “%@”"), file.lastPathComponent),
                                     button: tr("Open"), action: "app.open-screenshot")
        }
    }

    func copy() {
        grab { [weak self] texture, _, _ in
            guard let self else { return }
            if let window = self.window() {
                gdk_clipboard_set_texture(gtk_widget_get_clipboard(window.window), texture)
                window.showToast(tr("Frame copied"))
            }
            g_object_unref(UnsafeMutableRawPointer(texture))
        }
    }

    func openLastSaved() {
        guard let file = lastSaved else { return }
        g_app_info_launch_default_for_uri(file.absoluteString, nil, nil)
    }

    /// The frame at the position, with the title and position it is named after.
    private func grab(_ use: @escaping @MainActor (OpaquePointer, String, Seconds) -> Void) {
        guard let item = model.currentItem, model.media?.hasVideo ?? false else {
            window()?.showToast(tr("There is no picture to take"))
            return
        }
        let (title, position) = (model.title, model.position)
        // Upright, as the picture is shown: the file's tag, then the user's turn.
        FrameGrabber.grab(uri: item.uri, at: position, orientation: FrameSink.orientationMethod(model.picture)) { [weak self] texture in
            guard let texture else {
                self?.window()?.showToast(tr("There is no picture to take"))
                return
            }
            use(texture, title, position)
        }
    }
}
