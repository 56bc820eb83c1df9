// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Runs a command to completion. Every command gets a 20 s deadline: a stuck tool fails a test
/// instead of hanging the suite.
private func runCommand(_ executable: String, _ arguments: [String], environment: [String: String],
                        includeErrors: Bool) -> (status: Int32, output: Data) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
    process.arguments = ["20", executable] + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = includeErrors ? pipe : FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    do { try process.run() } catch { return (-1, Data("\(error)".utf8)) }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, data)
}

/// Runs a command and returns its status and what it printed (standard output and error).
@discardableResult
func shell(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) -> (status: Int32, output: String) {
    let result = runCommand(executable, arguments, environment: environment, includeErrors: true)
    return (result.status, String(decoding: result.output, as: UTF8.self))
}

/// Runs a command and returns its standard output as bytes.
func runData(_ executable: String, _ arguments: [String]) -> Data {
    runCommand(executable, arguments, environment: [:], includeErrors: false).output
}

/// Builds one of `meson_helpers/`' C files into a library for LD_PRELOAD, once per test run.
func preloadLibrary(_ name: String, packages: [String] = []) -> String {
    let library = FileManager.default.temporaryDirectory.appendingPathComponent("reel-\(name)-\(getpid()).so").path
    guard !FileManager.default.fileExists(atPath: library) else { return library }
    let source = Paths.packageRoot.appendingPathComponent("meson_helpers/\(name).c").path
    let flags = packages.isEmpty ? "" : "$(pkg-config --cflags --libs \(packages.joined(separator: " ")))"
    let build = shell("/bin/sh", ["-c", "cc -shared -fPIC -O2 -o '\(library)' '\(source)' \(flags) -ldl"])
    precondition(build.status == 0, "could not build \(name): \(build.output)")
    return library
}

/// Polls `condition` until it holds or `timeout` passes (then fails the test).
@discardableResult
func eventually(_ description: String, timeout: TimeInterval = 10, interval: TimeInterval = 0.05,
                file: StaticString = #filePath, line: UInt = #line, _ condition: () throws -> Bool) -> Bool {
    wait(for: description, timeout: timeout, file: file, line: line, between: { Thread.sleep(forTimeInterval: interval) }, condition)
}

/// Polls `condition` until it holds or `timeout` passes, and says whether it held: for waits
/// whose running out is not the test's failure.
@discardableResult
func within(_ timeout: TimeInterval, interval: TimeInterval = 0.05, _ condition: () throws -> Bool) -> Bool {
    poll(timeout: timeout, between: { Thread.sleep(forTimeInterval: interval) }, condition)
}

/// The real `reel` executable, started for one test and driven from outside: over MPRIS (with
/// an independent libdbus client), GApplication's D-Bus actions, xdotool and screenshots.
final class ReelApp {
    static let busName = "org.mpris.MediaPlayer2.Reel"
    static let mprisPath = "/org/mpris/MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"

    let process = Process()
    let bus: DBusClient
    let log: URL
    /// Reel's XDG_STATE_HOME: the test's own when it gives one, else a fresh one for this run,
    /// so no test starts with the queue (or positions) another test left.
    let stateDirectory: URL

    /// `launcher`, when given, is a command Reel is started through (it must exec Reel, keeping its pid).
    init(_ arguments: [String], environment: [String: String] = [:], launcher: [String] = [],
         file: StaticString = #filePath, line: UInt = #line) throws {
        bus = try DBusClient()
        log = FileManager.default.temporaryDirectory.appendingPathComponent("reel-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [Paths.reel.path] + arguments
        } else {
            process.executableURL = Paths.reel
            process.arguments = arguments
        }
        stateDirectory = URL(fileURLWithPath: environment["XDG_STATE_HOME"]
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("reel-state-\(UUID().uuidString)").path)
        // The debug interface exposes the frame counters; it is off unless asked for.
        process.environment = ProcessInfo.processInfo.environment
            .merging(["REEL_DEBUG_DBUS": "1", "XDG_STATE_HOME": stateDirectory.path]) { $1 }
            .merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        eventually("Reel on the session bus", file: file, line: line) { self.hasBusName() }
    }

    deinit { stop() }

    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// The crash reports Reel wrote (`$XDG_STATE_HOME/reel/crash/`), one after another.
    var crashReports: String {
        let directory = stateDirectory.appendingPathComponent("reel/crash").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
            .compactMap { try? String(contentsOfFile: directory + "/" + $0, encoding: .utf8) }.joined(separator: "\n")
    }

    /// Every thread's stack in Reel now (gdb), for a report of a hang: where the main thread waits.
    var threadStacks: String {
        shell("gdb", ["-p", String(process.processIdentifier), "-batch", "-nx", "-ex", "set pagination off",
                      "-ex", "thread apply all bt 30"]).output
            .split(separator: "\n").filter { $0.hasPrefix("#") || $0.hasPrefix("Thread ") }.joined(separator: "\n")
    }

    func hasBusName(_ name: String = ReelApp.busName) -> Bool {
        let reply = try? bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", [.string(name)])
        return reply?.first?.boolValue == true
    }

    /// Quits through MPRIS and waits for the process to end; kills it if it does not.
    func stop() {
        guard process.isRunning else { return }
        _ = try? bus.call(Self.busName, Self.mprisPath, "org.mpris.MediaPlayer2", "Quit")
        if !within(5, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        // The next test's instance must own the names, not find this one's leftovers.
        within(5) { !hasBusName() }
    }

    // MARK: MPRIS

    @discardableResult
    func player(_ method: String, _ arguments: [DBusArgument] = []) throws -> [DBusValue] {
        try bus.call(Self.busName, Self.mprisPath, Self.playerInterface, method, arguments)
    }

    func property(_ name: String, interface: String = ReelApp.playerInterface) throws -> DBusValue {
        let reply = try bus.call(Self.busName, Self.mprisPath, "org.freedesktop.DBus.Properties", "Get",
                                 [.string(interface), .string(name)])
        return reply.first ?? .string("")
    }

    func setProperty(_ name: String, _ value: DBusArgument, interface: String = ReelApp.playerInterface) throws {
        _ = try bus.call(Self.busName, Self.mprisPath, "org.freedesktop.DBus.Properties", "Set",
                         [.string(interface), .string(name), value])
    }

    func getAll(_ interface: String = ReelApp.playerInterface) throws -> [DBusValue] {
        try bus.call(Self.busName, Self.mprisPath, "org.freedesktop.DBus.Properties", "GetAll", [.string(interface)])
    }

    var status: String { (try? property("PlaybackStatus"))?.stringValue ?? "" }
    var position: Double { Double((try? property("Position"))?.int64Value ?? -1) / 1_000_000 }
    var metadata: [String: DBusValue] { (try? property("Metadata"))?.dictionary ?? [:] }
    var title: String { metadata["xesam:title"]?.stringValue ?? "" }

    func waitForPlaying(_ title: String? = nil, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) {
        eventually("playing \(title ?? "")", timeout: timeout, file: file, line: line) {
            self.status == "Playing" && (title == nil || self.title == title) && self.position > 0.1
        }
    }

    // MARK: The debug interface (frame counters)

    /// A property of the debug interface, nil when Reel has none by that name (or does not
    /// answer): for comparisons such as `== .bool(false)`, which a missing property fails.
    func debugProperty(_ name: String) -> DBusValue? { try? debugPropertyValue(name) }

    private func debugPropertyValue(_ name: String) throws -> DBusValue? {
        try bus.call("org.reelplayer.Reel", "/org/reelplayer/Reel/Debug", "org.freedesktop.DBus.Properties", "Get",
                     [.string("org.reelplayer.Reel.Debug"), .string(name)]).first?.unwrapped
    }

    /// Calls a method of the debug interface.
    @discardableResult
    func debugCall(_ method: String) throws -> [DBusValue] {
        try bus.call("org.reelplayer.Reel", "/org/reelplayer/Reel/Debug", "org.reelplayer.Reel.Debug", method)
    }

    var messageShown: String { debugString("MessageShown") }
    var bufferingShown: Bool { debugBool("BufferingShown") }

    var framesReceived: UInt64 { debugUInt64("FramesReceived") }
    var framesShown: UInt64 { debugUInt64("FramesShown") }
    /// Frames of the playing video never drawn (gaps in the timestamps of those drawn).
    var framesSkipped: UInt64 { debugUInt64("FramesSkipped") }

    /// A counter of the debug interface. One Reel does not have (renamed, removed, of another
    /// type) or cannot answer fails the test with its name: a broken counter must not read as a
    /// 0 that a "nothing happened" check then passes on. It reads as 0 after failing.
    func debugUInt64(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> UInt64 {
        guard case .uint64(let n)? = requiredDebugProperty(name, type: "t", file: file, line: line) else { return 0 }
        return n
    }

    /// A string of the debug interface; a missing one fails the test (and reads as "").
    func debugString(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        guard case .string(let text)? = requiredDebugProperty(name, type: "s", file: file, line: line) else { return "" }
        return text
    }

    /// A flag of the debug interface; a missing one fails the test (and reads as false).
    func debugBool(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        requiredDebugProperty(name, type: "b", file: file, line: line) == .bool(true)
    }

    /// Names already reported missing: a poll reads the same property many times, one failure each is enough.
    private var reportedDebugProperties: Set<String> = []

    private func requiredDebugProperty(_ name: String, type: String, file: StaticString, line: UInt) -> DBusValue? {
        let problem: String
        do {
            guard let value = try debugPropertyValue(name) else { throw DBusCallError(name: "reply", message: "no value") }
            if value.signature == type { return value }
            problem = "is of type \(value.signature), not \(type)"
        } catch {
            problem = "could not be read: \(error)"
        }
        if reportedDebugProperties.insert(name).inserted {
            XCTFail("the debug property \(name) \(problem)", file: file, line: line)
        }
        return nil
    }

    /// CPU time (user + system) the process has used, in seconds.
    var cpuTime: Double { Self.cpuTime(pid: process.processIdentifier) }

    static func cpuTime(pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // Fields after the command: state is [0]; utime and stime are [11] and [12].
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    // MARK: GApplication actions (org.gtk.Actions on the app's own bus name)

    func activate(_ action: String, _ parameter: String? = nil) {
        let result = shell("gdbus", ["call", "--session", "--dest", "org.reelplayer.Reel", "--object-path", "/org/reelplayer/Reel",
                                   "--method", "org.gtk.Actions.Activate", action, parameter.map { "[<\($0)>]" } ?? "[]", "{}"])
        XCTAssertEqual(result.status, 0, "action \(action): \(result.output)")
    }

    /// An action's state as GVariant text (`1`, `true`), "" when it has none.
    func actionState(_ action: String) -> String {
        let result = shell("gdbus", ["call", "--session", "--dest", "org.reelplayer.Reel", "--object-path", "/org/reelplayer/Reel",
                                   "--method", "org.gtk.Actions.Describe", action])
        // ((true, 'i', [<1>]),)
        guard let open = result.output.range(of: "[<", options: .backwards),
              let close = result.output.range(of: ">]", options: .backwards), open.upperBound <= close.lowerBound else { return "" }
        return String(result.output[open.upperBound..<close.lowerBound])
    }

    // MARK: The window (through the test desktop's driver)

    let desktop = Desktop.driver
    private var knownWindowID: String?

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

    var controlsShown: Bool { debugBool("ControlsShown") }

    /// Whether a menu of the control bar (speed, subtitles, volume, overflow) is open.
    var menuOpen: Bool { debugBool("MenuOpen") }

    /// Whether the queue panel is drawn, beside the video or over it.
    var queueShown: Bool { debugBool("QueueShown") }

    /// The control bar, its shown controls, and the slider's trough and knob, as the window lays
    /// them out, in the desktop's window coordinates (those of screenshots and clicks).
    var controlBounds: [String: WindowRect] {
        let rects: [String: [Double]] = debugProperty("ControlBounds")?.dictionary.compactMapValues { value in
            guard case .structure(let items) = value.unwrapped else { return nil }
            let numbers = items.compactMap(\.doubleValue)
            return numbers.count == 4 ? numbers : nil
        } ?? [:]
        let offset = desktop.includesSurfaceMargins ? rects["surface-offset"] ?? [0, 0] : [0, 0]
        return rects.filter { $0.key != "surface-offset" }.mapValues {
            WindowRect(x: $0[0] + offset[0], y: $0[1] + offset[1], width: $0[2], height: $0[3])
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

/// A rectangle in a window, in logical pixels.
struct WindowRect: Equatable {
    let x: Int, y: Int, width: Int, height: Int
    init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (Int(x.rounded()), Int(y.rounded()), Int(width.rounded()), Int(height.rounded()))
    }
    var midX: Int { x + width / 2 }
    var midY: Int { y + height / 2 }
    var maxX: Int { x + width }
    var maxY: Int { y + height }
    func overlaps(_ other: WindowRect) -> Bool { x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY }
    func contains(_ other: WindowRect) -> Bool { other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY }
}

/// An RGB screenshot.
struct Image {
    let width: Int
    let height: Int
    let pixels: [UInt8]

    init?(ppm data: Data) {
        // P6\n<w> <h>\n<max>\n<binary>
        var fields: [String] = []
        var index = data.startIndex
        var current = ""
        while fields.count < 4 && index < data.endIndex {
            let byte = data[index]
            index += 1
            if byte == UInt8(ascii: "#") {
                while index < data.endIndex && data[index] != 10 { index += 1 }
            } else if byte == 10 || byte == 32 || byte == 9 || byte == 13 {
                if !current.isEmpty { fields.append(current); current = "" }
            } else {
                current.append(Character(UnicodeScalar(byte)))
            }
        }
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]), fields[3] == "255",
              data.endIndex - index >= w * h * 3 else { return nil }
        width = w
        height = h
        pixels = [UInt8](data[index..<(index + w * h * 3)])
    }

    init(width: Int, height: Int, pixels: [UInt8]) {
        (self.width, self.height, self.pixels) = (width, height, pixels)
    }

    func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 3
        return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
    }

    /// Mean colour of a rectangle given in fractions of the image.
    func mean(x0: Double, y0: Double, x1: Double, y1: Double) -> (r: Double, g: Double, b: Double) {
        var sum = (0, 0, 0), count = 0
        for y in Int(y0 * Double(height))..<Int(y1 * Double(height)) {
            for x in Int(x0 * Double(width))..<Int(x1 * Double(width)) {
                let p = pixel(x, y)
                sum.0 += p.r; sum.1 += p.g; sum.2 += p.b
                count += 1
            }
        }
        let n = Double(max(count, 1))
        return (Double(sum.0) / n, Double(sum.1) / n, Double(sum.2) / n)
    }

    /// The part of the image in a rectangle given in fractions of its size.
    func cropped(x0: Double, y0: Double, x1: Double, y1: Double) -> Image {
        let left = Int(x0 * Double(width)), right = Int(x1 * Double(width))
        let top = Int(y0 * Double(height)), bottom = Int(y1 * Double(height))
        var part: [UInt8] = []
        for y in top..<bottom { part += pixels[((y * width + left) * 3)..<((y * width + right) * 3)] }
        return Image(width: right - left, height: bottom - top, pixels: part)
    }

    /// The share of pixels that differ noticeably between two same-sized images.
    func difference(_ other: Image) -> Double {
        guard other.width == width, other.height == height else { return 1 }
        return Double(differingPixels(other).count) / Double(width * height)
    }

    /// Where two same-sized images differ, for a failure message: "x 0–640, y 20–380".
    func differingArea(_ other: Image) -> String {
        guard other.width == width, other.height == height else { return "sizes \(width)×\(height) and \(other.width)×\(other.height)" }
        let points = differingPixels(other)
        guard !points.isEmpty else { return "nowhere" }
        let xs = points.map { $0 % width }, ys = points.map { $0 / width }
        return "x \(xs.min()!)–\(xs.max()!), y \(ys.min()!)–\(ys.max()!) of \(width)×\(height)"
    }

    /// The indices of the pixels that differ noticeably, for two images of the same size.
    private func differingPixels(_ other: Image) -> [Int] {
        stride(from: 0, to: pixels.count, by: 3).filter { i in
            abs(Int(pixels[i]) - Int(other.pixels[i])) + abs(Int(pixels[i + 1]) - Int(other.pixels[i + 1])) +
                abs(Int(pixels[i + 2]) - Int(other.pixels[i + 2])) > 30
        }.map { $0 / 3 }
    }

    /// The share of pixels that are not (nearly) black.
    var litFraction: Double {
        var lit = 0
        for i in stride(from: 0, to: pixels.count, by: 3) where Int(pixels[i]) + Int(pixels[i + 1]) + Int(pixels[i + 2]) > 60 {
            lit += 1
        }
        return Double(lit) / Double(width * height)
    }
}

/// Text another thread appends to (a pipe's readability handler) while a test reads it.
final class SharedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func append(_ data: Data) { lock.withLock { text += String(decoding: data, as: UTF8.self) } }
    var value: String { lock.withLock { text } }
}

/// A helper program from Fixtures/ (a drag source, a session manager, a media server), stopped
/// when the test lets go of it. `firstLine` is what it printed first (a port, say), when waited for.
final class Fixture {
    let process = Process()
    private(set) var firstLine = ""

    init(_ name: String, _ arguments: [String], waitForFirstLine: Bool = false,
         file: StaticString = #filePath, line: UInt = #line) throws {
        process.executableURL = Paths.packageRoot.appendingPathComponent("Tests/ReelAppTests/Fixtures/\(name)")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = waitForFirstLine ? pipe : FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard waitForFirstLine else { return }
        let reader = pipe.fileHandleForReading
        var bytes = Data()
        // The fixture prints its line as soon as it is ready; a few seconds is plenty.
        let deadline = Date().addingTimeInterval(10)
        while !bytes.contains(10), Date() < deadline, process.isRunning {
            bytes.append(reader.availableData)
        }
        firstLine = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if firstLine.isEmpty { XCTFail("\(name) printed nothing", file: file, line: line) }
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
