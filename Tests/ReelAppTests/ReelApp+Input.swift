// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Input as a user gives it: keys, clicks, drags from another window, the Open dialog; and the
/// storm's input that does not wait for its effect.
extension ReelApp {
    // MARK: Drags from another window

    /// Drags from the window named `sourceName` (the drag-source fixture) onto Reel's empty
    /// window, as a user drags files from a file manager.
    func dropFiles(from sourceName: String, file: StaticString = #filePath, line: UInt = #line) {
        let source = dragSourceWindow(sourceName, file: file, line: line)
        desktop.move(source, x: 0, y: 40)
        desktop.move(windowID, x: 400, y: 100)
        eventually("the empty window drawn", file: file, line: line) {
            (self.screenshot()?.mean(x0: 0.1, y0: 0.3, x1: 0.9, y1: 0.7).r ?? 0) > 150
        }
        drag(from: source, to: windowID)
    }

    /// Drags from the middle of window `source` to the middle of window `target`, in steps (a
    /// drag needs motion between press and release).
    private func drag(from source: String, to target: String) {
        guard let from = desktop.geometry(source), let to = desktop.geometry(target) else { return }
        let (x0, y0) = (from.x + from.width / 2, from.y + from.height / 2)
        let (x1, y1) = (to.x + to.width / 2, to.y + to.height / 2)
        desktop.pointerMove(screenX: x0, screenY: y0)
        desktop.pointerButton(1, pressed: true)
        for step in 1...8 {
            desktop.pointerMove(screenX: x0 + (x1 - x0) * step / 8, screenY: y0 + (y1 - y0) * step / 8)
            Thread.sleep(forTimeInterval: 0.03)  // input pacing: a hand's drag
        }
        desktop.pointerButton(1, pressed: false)
    }

    private func dragSourceWindow(_ sourceName: String, file: StaticString, line: UInt) -> String {
        var sourceWindow = ""
        eventually("the drag source's window", file: file, line: line) {
            sourceWindow = self.windowNamed(sourceName) ?? ""
            return !sourceWindow.isEmpty
        }
        return sourceWindow
    }

    // MARK: The Open dialog, keys and clicks

    /// Chooses `path` in the Open dialog as a user can: Ctrl+O, then the path typed over whatever
    /// the location entry holds (typing "/" in a GTK file chooser brings the entry up; the
    /// dialog may come back with the last file chosen in it), Enter. Opens the dialog if it is
    /// not up. Unless `closes` is false (a folder is opened inside the dialog), it waits for the
    /// dialog to close, typing again if the dialog was still busy with a folder and lost the keys.
    /// `title` and `keys`: another of Reel's file dialogs, e.g. "Open Folder" and Ctrl+Shift+O.
    func chooseInOpenDialog(_ path: String, closes: Bool = true, title: String = "Open", keys: String = "ctrl+o",
                            file: StaticString = #filePath, line: UInt = #line) {
        if dialogID(titled: title).isEmpty { key(keys) }
        var dialog = ""
        eventually("the \(title) dialog", file: file, line: line) {
            dialog = self.dialogID(titled: title)
            return !dialog.isEmpty
        }
        func type() {
            desktop.activate(dialog)
            desktop.type("/")
            desktop.key("ctrl+a")
            desktop.type(path)
            desktop.key("Return")
        }
        type()
        guard closes else { return }
        // GTK 4.8 makes the Open button sensitive only once the location entry has looked the
        // typed path up, and Return does nothing before that: press it again, as a user would.
        // Every third try types the path again, in case the typing itself was lost.
        var pressed = Date(), tries = 1
        eventually("the \(title) dialog closed on \(path)", timeout: 15, file: file, line: line) {
            let closed = self.dialogID(titled: title).isEmpty
            if !closed, Date().timeIntervalSince(pressed) > 1.5 {
                pressed = Date(); tries += 1
                if tries % 3 == 0 {
                    type()
                } else {
                    self.desktop.activate(dialog)
                    self.desktop.key("Return")
                }
            }
            return closed
        }
        if tries > 1 { print("open dialog: \(path) closed on try \(tries)") }
    }

    /// Types keys into Reel's main window, made the focused one first.
    func key(_ keys: String...) {
        desktop.activate(windowID)
        for combination in keys { desktop.key(combination) }
    }

    /// Clicks at a point given as fractions of the window's size.
    func click(x: Double, y: Double) {
        let id = windowID
        guard let frame = desktop.geometry(id) else { return }
        desktop.click(id, x: Int(Double(frame.width) * x), y: Int(Double(frame.height) * y))
    }

    /// A click as `click(x:y:)`, moved left out of the top-right corner where the header bar's
    /// close button is: that button quits Reel, as it should, which ends a storm early.
    func clickBesideTheCloseButton(x: Double, y: Double) {
        let id = windowID
        guard let frame = desktop.geometry(id) else { return }
        let corner = 90  // the button and, on X11, the window's shadow margin
        var (left, top) = (Int(Double(frame.width) * x), Int(Double(frame.height) * y))
        if top < corner, left > frame.width - corner { left -= corner }
        desktop.click(id, x: left, y: top)
    }

    // MARK: Input that does not wait for its effect (the storm's)

    /// Presses keys in whatever window has the focus (Reel's, or one of its dialogs).
    func pressKey(_ keys: String) { desktop.key(keys) }

    func requestSize(width: Int, height: Int) { desktop.resize(windowID, width: width, height: height) }

    func requestMinimize() { desktop.minimize(windowID) }

    /// Activates an application action over D-Bus, ignoring whether it was refused.
    func activateQuietly(_ action: String) {
        let name = action.split(separator: ".").last.map(String.init) ?? action
        let path = action.hasPrefix("win.") ? "/org/reelplayer/Reel/window/1" : "/org/reelplayer/Reel"
        shell("gdbus", ["call", "--session", "--dest", "org.reelplayer.Reel", "--object-path", path,
                        "--method", "org.gtk.Actions.Activate", name, "[]", "{}"])
    }

    /// Closes Reel's other windows (dialogs, preferences, shortcuts) as a user does, with Escape,
    /// until only the main window is left. With `thenByTheWindowManager`, windows Escape leaves
    /// open for 10 s are named in the log and closed as their title bar's button does: for the
    /// storm's calm, whose subject is what follows (Escape itself is DesktopTests' subject).
    func closeDialogs(thenByTheWindowManager: Bool = false, file: StaticString = #filePath, line: UInt = #line) {
        func escapeTheTopmost() -> Bool {
            guard let dialog = otherWindows.last else { return true }
            desktop.activate(dialog)
            desktop.key("Escape")
            return false
        }
        func reportLeftOpen(_ what: String) {
            print("\(what): \(otherWindows.map(desktop.describe)); main window \(desktop.describe(windowID))")
            _ = screenshot("dialogs-left-open", onScreen: true)
        }
        if thenByTheWindowManager {
            within(10) { escapeTheTopmost() }
            guard !otherWindows.isEmpty else { return }
            reportLeftOpen("Escape left open")
        }
        let closed = eventually("Reel's dialogs closed", timeout: thenByTheWindowManager ? 10 : 15, file: file, line: line) {
            guard let dialog = self.otherWindows.last else { return true }
            if thenByTheWindowManager { self.desktop.close(dialog); return false }
            return escapeTheTopmost()
        }
        if !closed { reportLeftOpen("still open") }
    }

    /// Puts Reel's window to the right of the drag-source fixture's, so both can be seen.
    func placeBesideDragSource(_ sourceName: String, file: StaticString = #filePath, line: UInt = #line) {
        let source = dragSourceWindow(sourceName, file: file, line: line)
        desktop.move(source, x: 0, y: 40)
        desktop.move(windowID, x: 300, y: 100)
    }

    /// Drags from the drag-source fixture onto Reel's window, wherever it is, without waiting.
    func dragFromSource(_ sourceName: String) {
        guard let source = windowNamed(sourceName) else { return }
        drag(from: source, to: windowID)
    }
}
