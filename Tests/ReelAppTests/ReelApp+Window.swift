// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Reel's windows on the test desktop: found, shot, minimized, restored and resized through
/// the desktop's driver.
extension ReelApp {
    // MARK: The window (through the test desktop's driver)

    /// Reel's main window, once it is mapped (remembered while it exists: on Wayland a window
    /// hidden and shown again is a new one).
    var windowID: String {
        if let knownWindowID, Desktop.current == .x11 || desktop.windows(of: process.processIdentifier).contains(knownWindowID) {
            return knownWindowID
        }
        var id = ""
        eventually("Reel's window") {
            id = self.desktop.windows(of: self.process.processIdentifier).first ?? ""
            return !id.isEmpty
        }
        if !id.isEmpty { knownWindowID = id }
        return id
    }

    /// Reel's other windows: dialogs, preferences, the shortcuts window.
    var otherWindows: [String] {
        let main = windowID
        return desktop.windows(of: process.processIdentifier).filter { $0 != main }
    }

    var windowTitle: String { desktop.title(windowID) }

    /// The window, or with `onScreen` the screen where it is, its open menus included.
    func screenshot(_ name: String? = nil, onScreen: Bool = false) -> Image? {
        screenshot(of: windowID, name, onScreen: onScreen)
    }

    func screenshot(of window: String, _ name: String? = nil, onScreen: Bool = false) -> Image? {
        let data = onScreen ? desktop.screenshotOnScreen(window) : desktop.screenshot(window)
        guard let image = Image(ppm: data) else { return nil }
        if let name {
            try? FileManager.default.createDirectory(at: Paths.artifacts, withIntermediateDirectories: true)
            let ppm = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).ppm")
            try? data.write(to: ppm)
            shell("convert", [ppm.path, Paths.artifacts.appendingPathComponent("\(name).png").path])
            try? FileManager.default.removeItem(at: ppm)
        }
        return image
    }

    func minimize() {
        let id = windowID
        desktop.minimize(id)
        eventually("minimized") { self.desktop.isMinimized(id) }
    }

    func restore() { desktop.restore(windowID) }

    var isMinimized: Bool { desktop.isMinimized(windowID) }
    var isFullscreen: Bool { desktop.isFullscreen(windowID) }

    /// The control bar hides after 3 s without pointer motion while playing: move the pointer
    /// over the video and wait until the bar is drawn again, before clicking or scrolling on it.
    func revealControls(file: StaticString = #filePath, line: UInt = #line) {
        let id = windowID
        var offset = 0
        eventually("the control bar shown", file: file, line: line) {
            offset = (offset + 7) % 40
            self.desktop.pointerMove(id, x: 300 + offset, y: 300)
            return self.controlsShown
        }
    }

    /// Resizes the window and waits until it has the size.
    func resize(width: Int, height: Int, file: StaticString = #filePath, line: UInt = #line) {
        let id = windowID
        desktop.resize(id, width: width, height: height)
        eventually("the window \(width)×\(height)", file: file, line: line) {
            guard let frame = self.desktop.geometry(id) else { return false }
            return frame.width == width && frame.height == height
        }
    }

    /// A window of any process on the desktop whose title is `title` (a fixture's).
    func windowNamed(_ title: String) -> String? {
        switch Desktop.current {
        case .x11:
            let pattern = "^" + NSRegularExpression.escapedPattern(for: title) + "$"
            return shell("xdotool", ["search", "--onlyvisible", "--name", pattern]).output
                .split(whereSeparator: \.isNewline).last.map(String.init)
        case .gnome:
            return GnomeShellDriver.shared.eval("""
                (() => { const w = global.get_window_actors().map(a => a.meta_window)
                  .find(w => w.get_title() === \(Self.jsString(title)) && !w.is_hidden());
                  return w ? String(w.get_stable_sequence()) : null })()
                """) as? String
        }
    }

    static func jsString(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text], options: [])
        return data.map { String(decoding: $0, as: UTF8.self).dropFirst().dropLast() }.map(String.init) ?? "''"
    }

    /// Reel's Open dialog (GTK's own file chooser: outside a sandbox GtkFileChooserNative shows
    /// it in-process), or "" when none is shown.
    var openDialogID: String { dialogID(titled: "Open") }

    func dialogID(titled title: String) -> String {
        otherWindows.first { desktop.title($0) == title } ?? ""
    }
}
