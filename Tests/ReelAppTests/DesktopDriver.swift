// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// The test desktop the session runs (meson_helpers/test-session's REEL_TEST_DESKTOP), and how a
/// test acts on it as a user does: X11 under openbox through xdotool and wmctrl, or GNOME Shell
/// on Wayland through the shell itself (org.gnome.Shell.Eval: its window manager, a virtual
/// keyboard and pointer, its screenshots). Window ids are the desktop's own (an X window id, or
/// a Meta window's stable sequence number); points are in window coordinates unless named screen.
enum Desktop: String {
    case x11, gnome
    static let current = Desktop(rawValue: ProcessInfo.processInfo.environment["REEL_TEST_DESKTOP"] ?? "") ?? .x11
    var name: String { self == .gnome ? "GNOME Shell (Wayland)" : "X11 (openbox)" }
    static var driver: DesktopDriver { current == .gnome ? GnomeShellDriver.shared : X11Driver() }
}

struct WindowGeometry: Equatable {
    let x: Int, y: Int, width: Int, height: Int
}

protocol DesktopDriver {
    /// Whether a window's geometry (its screenshots, its points) is its whole surface, margins
    /// around GTK's client-side decorations included (X11), or only the window proper (a
    /// Wayland compositor's window geometry).
    var includesSurfaceMargins: Bool { get }
    /// The mapped top-level windows of process `pid`, the main window (no parent) first.
    /// (On Wayland a window hidden and shown again is a new window.)
    func windows(of pid: Int32) -> [String]
    func title(_ window: String) -> String
    /// What a failing test prints about a window: its title and state.
    func describe(_ window: String) -> String
    func geometry(_ window: String) -> WindowGeometry?
    func activate(_ window: String)
    func minimize(_ window: String)
    func isMinimized(_ window: String) -> Bool
    /// Unminimizes and activates, as clicking the window in a task list does.
    func restore(_ window: String)
    func isFullscreen(_ window: String) -> Bool
    /// Whether the window is drawn where its frame is: no compositor animation (GNOME Shell's
    /// size change, 250 ms) is scaling or moving it, so that input lands where it is aimed.
    func isSettled(_ window: String) -> Bool
    /// Closes the window as its title bar's close button or the window manager does.
    func close(_ window: String)
    func resize(_ window: String, width: Int, height: Int)
    func move(_ window: String, x: Int, y: Int)
    /// The window's pixels as a binary PPM.
    func screenshot(_ window: String) -> Data
    /// The screen where the window is, as a binary PPM: its menus included (on X11 a popover is a
    /// window of its own, which a window's screenshot leaves out).
    func screenshotOnScreen(_ window: String) -> Data
    /// Presses keys (xdotool names: "ctrl+o", "shift+Left", "space") in the focused window.
    func key(_ keys: String)
    func type(_ text: String)
    func pointerMove(screenX: Int, screenY: Int)
    func pointerButton(_ button: Int, pressed: Bool)
    /// Scrolls one step over the pointer (down: towards the user).
    func scroll(down: Bool)
}

extension DesktopDriver {
    func describe(_ window: String) -> String { "\(window) '\(title(window))'" }

    func click(_ window: String, x: Int, y: Int, count: Int = 1) {
        guard let frame = geometry(window) else { return }
        pointerMove(screenX: frame.x + x, screenY: frame.y + y)
        for index in 0..<count {
            if index > 0 { Thread.sleep(forTimeInterval: 0.08) }  // input pacing: a double-click's rhythm
            pointerButton(1, pressed: true)
            pointerButton(1, pressed: false)
        }
    }

    func pointerMove(_ window: String, x: Int, y: Int) {
        guard let frame = geometry(window) else { return }
        pointerMove(screenX: frame.x + x, screenY: frame.y + y)
    }
}

// MARK: X11 (Xvfb + openbox)

struct X11Driver: DesktopDriver {
    var includesSurfaceMargins: Bool { true }

    func windows(of pid: Int32) -> [String] {
        shell("xdotool", ["search", "--all", "--onlyvisible", "--pid", "\(pid)"]).output
            .split(whereSeparator: \.isNewline).map(String.init)
    }

    func title(_ window: String) -> String {
        shell("xdotool", ["getwindowname", window]).output.trimmingCharacters(in: .newlines)
    }

    func geometry(_ window: String) -> WindowGeometry? {
        let text = shell("xdotool", ["getwindowgeometry", "--shell", window]).output
        func value(_ key: String) -> Int? {
            text.split(whereSeparator: \.isNewline).first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) }
        }
        guard let x = value("X"), let y = value("Y"), let width = value("WIDTH"), let height = value("HEIGHT") else { return nil }
        return WindowGeometry(x: x, y: y, width: width, height: height)
    }

    func activate(_ window: String) { shell("xdotool", ["windowactivate", "--sync", window]) }
    func minimize(_ window: String) { shell("xdotool", ["windowminimize", window]) }
    func isMinimized(_ window: String) -> Bool { state(window).contains("_NET_WM_STATE_HIDDEN") }
    func restore(_ window: String) { shell("wmctrl", ["-i", "-a", window]) }
    func isFullscreen(_ window: String) -> Bool { state(window).contains("_NET_WM_STATE_FULLSCREEN") }
    func isSettled(_ window: String) -> Bool { true }  // openbox does not animate
    func close(_ window: String) { shell("wmctrl", ["-i", "-c", window]) }
    func resize(_ window: String, width: Int, height: Int) { shell("xdotool", ["windowsize", window, "\(width)", "\(height)"]) }
    func move(_ window: String, x: Int, y: Int) { shell("xdotool", ["windowmove", "--sync", window, "\(x)", "\(y)"]) }
    func screenshot(_ window: String) -> Data { runData("import", ["-window", window, "-depth", "8", "ppm:-"]) }
    func screenshotOnScreen(_ window: String) -> Data {
        guard let frame = geometry(window) else { return Data() }
        return runData("import", ["-window", "root", "-crop", "\(frame.width)x\(frame.height)+\(frame.x)+\(frame.y)",
                                  "+repage", "-depth", "8", "ppm:-"])
    }
    func key(_ keys: String) { shell("xdotool", ["key", "--clearmodifiers", keys]) }
    func type(_ text: String) { shell("xdotool", ["type", "--delay", "20", text]) }
    func pointerMove(screenX: Int, screenY: Int) { shell("xdotool", ["mousemove", "\(screenX)", "\(screenY)"]) }
    func pointerButton(_ button: Int, pressed: Bool) { shell("xdotool", [pressed ? "mousedown" : "mouseup", "\(button)"]) }
    func scroll(down: Bool) { shell("xdotool", ["click", down ? "5" : "4"]) }

    private func state(_ window: String) -> String { shell("xprop", ["-id", window, "_NET_WM_STATE"]).output }
}

// MARK: GNOME Shell on Wayland

/// GNOME Shell driven through its own JavaScript (the session runs it in unsafe mode): what a
/// user does with the shell, done by the shell.
final class GnomeShellDriver: DesktopDriver, @unchecked Sendable {
    static let shared = GnomeShellDriver()
    var includesSurfaceMargins: Bool { false }
    private let lock = NSLock()
    private let bus: DBusClient

    private init() {
        bus = try! DBusClient()  // the session bus is there, or no test could run
    }

    /// Evaluates `js` in the shell and returns its value, decoded from the shell's JSON.
    @discardableResult
    func eval(_ js: String, file: StaticString = #filePath, line: UInt = #line) -> Any? {
        let reply = lock.withLock {
            try? bus.call("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "Eval", [.string(js)], timeout: 10_000)
        }
        guard let reply, reply.count == 2, let ok = reply[0].boolValue, let text = reply[1].stringValue else {
            XCTFail("GNOME Shell did not answer Eval", file: file, line: line)
            return nil
        }
        guard ok else {
            XCTFail("GNOME Shell refused: \(text) in \(js.prefix(300))", file: file, line: line)
            return nil
        }
        guard !text.isEmpty else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    /// JS for the Meta window whose stable sequence is `window`.
    private func meta(_ window: String) -> String {
        "global.get_window_actors().map(a => a.meta_window).find(w => w.get_stable_sequence() === \(Int(window) ?? -1))"
    }

    func windows(of pid: Int32) -> [String] {
        let list = eval("""
            global.get_window_actors().map(a => a.meta_window)
              .filter(w => w.get_pid() === \(pid) && (!w.is_hidden() || w.minimized))
              .sort((a, b) => (a.get_transient_for() ? 1 : 0) - (b.get_transient_for() ? 1 : 0))
              .map(w => String(w.get_stable_sequence()))
            """) as? [String]
        return list ?? []
    }

    func title(_ window: String) -> String { eval("\(meta(window))?.get_title() ?? ''") as? String ?? "" }

    func describe(_ window: String) -> String {
        let text = eval("""
            (() => { const w = \(meta(window)); if (!w) return 'gone';
              return `'${w.get_title()}' type ${w.get_window_type()}${w.minimized ? ', minimized' : ''}` +
                     `${w.has_focus() ? ', focused' : ''}${w.get_transient_for() ? ', transient' : ''}` +
                     `${w.is_hidden() ? ', hidden' : ''}` })()
            """) as? String
        return "\(window) \(text ?? "?")"
    }

    func geometry(_ window: String) -> WindowGeometry? {
        guard let r = eval("(() => { const w = \(meta(window)); if (!w) return null; const r = w.get_frame_rect(); return [r.x, r.y, r.width, r.height] })()") as? [Int],
              r.count == 4 else { return nil }
        return WindowGeometry(x: r[0], y: r[1], width: r[2], height: r[3])
    }

    func activate(_ window: String) { eval("\(meta(window))?.activate(global.get_current_time())") }
    func minimize(_ window: String) { eval("\(meta(window))?.minimize()") }
    func isMinimized(_ window: String) -> Bool { eval("\(meta(window))?.minimized === true") as? Bool ?? false }
    func restore(_ window: String) {
        eval("(() => { const w = \(meta(window)); if (w) { w.unminimize(); w.activate(global.get_current_time()) } })()")
    }
    func isFullscreen(_ window: String) -> Bool { eval("\(meta(window))?.is_fullscreen() === true") as? Bool ?? false }
    func isSettled(_ window: String) -> Bool {
        eval("""
            (() => { const w = \(meta(window)); const a = w?.get_compositor_private(); if (!a) return false;
                     const b = w.get_buffer_rect();
                     return a.scale_x === 1 && a.scale_y === 1 && a.translation_x === 0 && a.translation_y === 0 &&
                            a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height })()
            """) as? Bool ?? false
    }
    func close(_ window: String) { eval("\(meta(window))?.delete(global.get_current_time())") }

    func resize(_ window: String, width: Int, height: Int) {
        // Kept inside the work area (below the top bar), as a user's resize is.
        eval("""
            (() => { const w = \(meta(window)); if (!w) return; const r = w.get_frame_rect(), a = w.get_work_area_current_monitor();
              const x = Math.max(a.x, Math.min(r.x, a.x + a.width - \(width))), y = Math.max(a.y, Math.min(r.y, a.y + a.height - \(height)));
              w.move_resize_frame(true, x, y, \(width), \(height)) })()
            """)
    }

    func move(_ window: String, x: Int, y: Int) { eval("\(meta(window))?.move_frame(true, \(x), \(y))") }

    /// The shell draws menus into the screen's area, as the user sees them.
    func screenshotOnScreen(_ window: String) -> Data { screenshot(window) }

    func screenshot(_ window: String) -> Data {
        guard let frame = geometry(window) else { return Data() }
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("reel-shot-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: png) }
        let taken = lock.withLock {
            try? bus.call("org.gnome.Shell", "/org/gnome/Shell/Screenshot", "org.gnome.Shell.Screenshot", "ScreenshotArea",
                          [.int32(Int32(frame.x)), .int32(Int32(frame.y)), .int32(Int32(frame.width)), .int32(Int32(frame.height)),
                           .bool(false), .string(png.path)], timeout: 10_000)
        }
        guard taken?.first?.boolValue == true else { return Data() }
        return runData("convert", [png.path, "-depth", "8", "ppm:-"])
    }

    /// Keys go through the virtual keyboard the session made for the tests (a new device loses
    /// its first key): modifiers down, the key, then all up in reverse.
    func key(_ keys: String) {
        let names = keys.split(separator: "+").map { part -> String in
            switch part.lowercased() {
            case "ctrl", "control": return "Control_L"
            case "shift": return "Shift_L"
            case "alt": return "Alt_L"
            case "super": return "Super_L"
            default: return String(part)
            }
        }
        press(names.map { "C.KEY_\($0)" })
    }

    func type(_ text: String) {
        for scalar in text.unicodeScalars { press(["C.unicode_to_keysym(\(scalar.value))"]) }
    }

    private func press(_ keyvals: [String]) {
        let list = keyvals.joined(separator: ", ")
        eval("""
            (() => { const C = imports.gi.Clutter, k = globalThis.reelTestKeyboard, keys = [\(list)];
              let t = GLib.get_monotonic_time();
              for (const v of keys) { k.notify_keyval(t, v, C.KeyState.PRESSED); t += 1000 }
              for (const v of keys.reverse()) { k.notify_keyval(t, v, C.KeyState.RELEASED); t += 1000 } })()
            """)
    }

    /// The virtual pointer the session made for the tests (like the keyboard).
    private func pointer(_ body: String) {
        eval("""
            (() => { const C = imports.gi.Clutter;
              const p = globalThis.reelTestPointer, t = GLib.get_monotonic_time(); \(body) })()
            """)
    }

    func pointerMove(screenX: Int, screenY: Int) { pointer("p.notify_absolute_motion(t, \(screenX), \(screenY))") }

    func pointerButton(_ button: Int, pressed: Bool) {
        pointer("p.notify_button(t, \(button), C.ButtonState.\(pressed ? "PRESSED" : "RELEASED"))")
    }

    func scroll(down: Bool) {
        pointer("p.notify_discrete_scroll(t, C.ScrollDirection.\(down ? "DOWN" : "UP"), C.ScrollSource.WHEEL)")
    }

    // MARK: The shell's own surfaces

    /// The media controls' players in the date menu, as the shell shows them.
    func mediaPlayers() -> [[String: Any]] {
        eval("""
            [...imports.ui.main.panel.statusArea.dateMenu._messageList._mediaSection._players.values()].map(p => {
              const entry = p._mprisProxy.DesktopEntry, app = entry ? Shell.AppSystem.get_default().lookup_app(entry + '.desktop') : null;
              return { busName: p._busName, title: p.trackTitle, artists: p.trackArtists, status: p.status, cover: p.trackCoverUrl,
                       canGoNext: p.canGoNext, canGoPrevious: p.canGoPrevious, app: app ? app.get_id() : null,
                       appName: app ? app.get_name() : null } })
            """) as? [[String: Any]] ?? []
    }

    /// Clicks, with the pointer, a part of Reel's entry in the media controls (the date menu must
    /// be open): "_playPauseButton", "_nextButton", "_prevButton", or "body" (the entry itself,
    /// which raises Reel). Real clicks, not calls: they carry the timestamps the shell's focus
    /// rules look at.
    func clickMediaControl(_ part: String, file: StaticString = #filePath, line: UInt = #line) {
        // The shell builds the player's message a moment after the menu opens (and lays it out
        // as the menu's animation ends): wait for it to be there and have a size.
        var box: [Double]?
        eventually("Reel in the media controls, laid out", timeout: 5, file: file, line: line) {
            box = self.eval("""
                (() => { const m = imports.ui.main.panel.statusArea.dateMenu._messageList._mediaSection._messages
                           .find(m => m._player._busName === 'org.mpris.MediaPlayer2.Reel');
                  if (!m) return null;
                  const a = '\(part)' === 'body' ? m : m.\(part);
                  const [x, y] = a.get_transformed_position(), [w, h] = a.get_transformed_size();
                  if (w <= 0 || h <= 0) return null;
                  return '\(part)' === 'body' ? [x + 24, y + h / 2] : [x + w / 2, y + h / 2] })()
                """, file: file, line: line) as? [Double]
            return box?.count == 2
        }
        guard let box, box.count == 2 else { return XCTFail("Reel is not in the media controls", file: file, line: line) }
        pointerMove(screenX: Int(box[0]), screenY: Int(box[1]))
        pointerButton(1, pressed: true)
        pointerButton(1, pressed: false)
    }

    func setDateMenuOpen(_ open: Bool) { eval("imports.ui.main.panel.statusArea.dateMenu.menu.\(open ? "open" : "close")()") }

    /// The whole screen, the shell's own surfaces included, saved as an artifact.
    func screenshotOfScreen(_ name: String) {
        try? FileManager.default.createDirectory(at: Paths.artifacts, withIntermediateDirectories: true)
        let path = Paths.artifacts.appendingPathComponent("\(name).png").path
        _ = lock.withLock {
            try? bus.call("org.gnome.Shell", "/org/gnome/Shell/Screenshot", "org.gnome.Shell.Screenshot", "Screenshot",
                          [.bool(false), .bool(false), .string(path)], timeout: 10_000)
        }
    }

    func switchWorkspace(to index: Int) {
        eval("global.workspace_manager.get_workspace_by_index(\(index)).activate(global.get_current_time())")
    }

    func focusedWindow() -> String? {
        eval("(() => { const w = global.display.get_focus_window(); return w ? String(w.get_stable_sequence()) : null })()") as? String
    }
}
