import Foundation
import XCTest

enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// REEL_EXECUTABLE drives another build of Reel with the same tests (the leak check's ASan build).
    static let reel = ProcessInfo.processInfo.environment["REEL_EXECUTABLE"].map { URL(fileURLWithPath: $0) }
        ?? packageRoot.appendingPathComponent(".build/debug/reel")
    static let media = URL(fileURLWithPath: ProcessInfo.processInfo.environment["REEL_TEST_MEDIA"]
        ?? packageRoot.appendingPathComponent(".build/test-media").path)
    static let artifacts = URL(fileURLWithPath: ProcessInfo.processInfo.environment["REEL_TEST_ARTIFACTS"]
        ?? packageRoot.appendingPathComponent(".build/test-artifacts").path)

    static func media(_ name: String) -> String { media.appendingPathComponent(name).path }
    static func mediaURI(_ name: String) -> String { media.appendingPathComponent(name).absoluteString }
}

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

/// Polls `condition` until it holds or `timeout` passes (then fails the test).
@discardableResult
func eventually(_ description: String, timeout: TimeInterval = 10, interval: TimeInterval = 0.05,
                file: StaticString = #filePath, line: UInt = #line, _ condition: () throws -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
        if (try? condition()) == true { return true }
        Thread.sleep(forTimeInterval: interval)
    } while Date() < deadline
    if (try? condition()) == true { return true }
    XCTFail("timed out after \(timeout) s waiting for: \(description)", file: file, line: line)
    return false
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

    func hasBusName(_ name: String = ReelApp.busName) -> Bool {
        let reply = try? bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", [.string(name)])
        return reply?.first?.boolValue == true
    }

    /// Quits through MPRIS and waits for the process to end; kills it if it does not.
    func stop() {
        guard process.isRunning else { return }
        _ = try? bus.call(Self.busName, Self.mprisPath, "org.mpris.MediaPlayer2", "Quit")
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        // The next test's instance must own the names, not find this one's leftovers.
        let released = Date().addingTimeInterval(5)
        while hasBusName() && Date() < released { Thread.sleep(forTimeInterval: 0.05) }
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

    func waitForPlaying(_ title: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        eventually("playing \(title ?? "")", file: file, line: line) {
            self.status == "Playing" && (title == nil || self.title == title) && self.position > 0.1
        }
    }

    // MARK: The debug interface (frame counters)

    func debugProperty(_ name: String) -> DBusValue? {
        try? bus.call("org.reelplayer.Reel", "/org/reelplayer/Reel/Debug", "org.freedesktop.DBus.Properties", "Get",
                      [.string("org.reelplayer.Reel.Debug"), .string(name)]).first?.unwrapped
    }

    var messageShown: String { debugProperty("MessageShown")?.stringValue ?? "" }
    var bufferingShown: Bool { debugProperty("BufferingShown") == .bool(true) }

    var framesReceived: UInt64 { debugUInt64("FramesReceived") }
    var framesShown: UInt64 { debugUInt64("FramesShown") }
    func debugUInt64(_ name: String) -> UInt64 { if case .uint64(let n)? = debugProperty(name) { return n } else { return 0 } }

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

    // MARK: The window

    private var knownWindowID: String?

    /// The X window id of Reel's main window, once it is mapped (remembered: a minimized
    /// window cannot be searched for).
    var windowID: String {
        if let knownWindowID { return knownWindowID }
        var id = ""
        eventually("Reel's window") {
            let result = shell("xdotool", ["search", "--onlyvisible", "--pid", "\(process.processIdentifier)"])
            id = result.output.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
            return result.status == 0 && !id.isEmpty
        }
        if !id.isEmpty { knownWindowID = id }
        return id
    }

    func screenshot(_ name: String? = nil) -> Image? {
        let id = windowID
        let result = runData("import", ["-window", id, "-depth", "8", "ppm:-"])
        guard let image = Image(ppm: result) else { return nil }
        if let name {
            try? FileManager.default.createDirectory(at: Paths.artifacts, withIntermediateDirectories: true)
            let ppm = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).ppm")
            try? result.write(to: ppm)
            shell("convert", [ppm.path, Paths.artifacts.appendingPathComponent("\(name).png").path])
            try? FileManager.default.removeItem(at: ppm)
        }
        return image
    }

    func minimize() {
        let id = windowID
        shell("xdotool", ["windowminimize", "--sync", id])
        eventually("minimized") { self.isMinimized(id) }
    }

    func restore() {
        let id = windowID
        shell("wmctrl", ["-i", "-a", id])
    }

    func isMinimized(_ id: String) -> Bool {
        shell("xprop", ["-id", id, "_NET_WM_STATE"]).output.contains("_NET_WM_STATE_HIDDEN")
    }

    /// The control bar hides after 3 s without pointer motion while playing: move the pointer
    /// over the video and wait until the bar is drawn again, before clicking or scrolling on it.
    func revealControls(file: StaticString = #filePath, line: UInt = #line) {
        let id = windowID
        var offset = 0
        eventually("the control bar shown", file: file, line: line) {
            offset = (offset + 7) % 40
            shell("xdotool", ["mousemove", "--window", id, "\(300 + offset)", "300"])
            return self.controlsShown
        }
    }

    var controlsShown: Bool { debugProperty("ControlsShown") == .bool(true) }

    func resize(width: Int, height: Int) {
        let id = windowID
        shell("xdotool", ["windowsize", "--sync", id, "\(width)", "\(height)"])
    }

    /// Drags from the window named `sourceName` (the drag-source fixture) onto Reel's empty
    /// window, as a user drags files from a file manager.
    func dropFiles(from sourceName: String, file: StaticString = #filePath, line: UInt = #line) {
        var sourceWindow = ""
        eventually("the drag source's window", file: file, line: line) {
            sourceWindow = shell("xdotool", ["search", "--onlyvisible", "--name", sourceName]).output
                .split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
            return !sourceWindow.isEmpty
        }
        shell("xdotool", ["windowmove", "--sync", sourceWindow, "0", "0"])
        shell("xdotool", ["windowmove", "--sync", windowID, "400", "100"])
        eventually("the empty window drawn", file: file, line: line) {
            (self.screenshot()?.mean(x0: 0.1, y0: 0.3, x1: 0.9, y1: 0.7).r ?? 0) > 150
        }
        // XDND needs motion between press and release; each step is an X event of its own.
        shell("xdotool", ["mousemove", "120", "140", "mousedown", "1"])
        for x in [140, 180, 250, 350, 500, 700, 800, 850] {
            shell("xdotool", ["mousemove", "--sync", "\(x)", "\(x == 850 ? 400 : 300)"])
        }
        shell("xdotool", ["mouseup", "1"])
    }

    /// The X window id of Reel's Open dialog (GTK's own file chooser: outside a sandbox
    /// GtkFileChooserNative shows it in-process), or "" when none is shown.
    var openDialogID: String {
        shell("xdotool", ["search", "--all", "--onlyvisible", "--pid", "\(process.processIdentifier)", "--name", "^Open$"]).output
            .split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
    }

    /// Chooses `path` in the Open dialog as a user can: Ctrl+O, then the path typed over whatever
    /// the location entry holds (typing "/" in a GTK file chooser brings the entry up; the
    /// dialog may come back with the last file chosen in it), Enter. Opens the dialog if it is
    /// not up. Unless `closes` is false (a folder is opened inside the dialog), it waits for the
    /// dialog to close, typing again if the dialog was still busy with a folder and lost the keys.
    func chooseInOpenDialog(_ path: String, closes: Bool = true, file: StaticString = #filePath, line: UInt = #line) {
        if openDialogID.isEmpty { key("ctrl+o") }
        var dialog = ""
        eventually("the Open dialog", file: file, line: line) {
            dialog = self.openDialogID
            return !dialog.isEmpty
        }
        func type() {
            shell("xdotool", ["windowactivate", "--sync", dialog])
            shell("xdotool", ["type", "/"])
            shell("xdotool", ["key", "ctrl+a"])
            shell("xdotool", ["type", "--delay", "5", path])
            shell("xdotool", ["key", "Return"])
        }
        type()
        guard closes else { return }
        var typed = Date(), attempts = 1
        eventually("the Open dialog closed on \(path)", timeout: 15, file: file, line: line) {
            let closed = self.openDialogID.isEmpty
            if !closed, Date().timeIntervalSince(typed) > 3 { typed = Date(); attempts += 1; type() }
            return closed
        }
        if attempts > 1 { print("open dialog: \(path) typed \(attempts) times") }
    }

    /// Types keys into the focused window (synthetic events sent to a window are ignored by GTK).
    func key(_ keys: String...) {
        let id = windowID
        shell("xdotool", ["windowactivate", "--sync", id])
        shell("xdotool", ["key", "--clearmodifiers"] + keys)
    }

    /// Clicks at a point given as fractions of the window's size.
    func click(x: Double, y: Double) {
        let id = windowID
        let geometry = shell("xdotool", ["getwindowgeometry", "--shell", id]).output
        func value(_ key: String) -> Double {
            geometry.split(whereSeparator: \.isNewline).first { $0.hasPrefix(key + "=") }.flatMap { Double($0.dropFirst(key.count + 1)) } ?? 0
        }
        shell("xdotool", ["mousemove", "--window", id, "\(Int(value("WIDTH") * x))", "\(Int(value("HEIGHT") * y))", "click", "1"])
    }
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

    /// The share of pixels that differ noticeably between two same-sized images.
    func difference(_ other: Image) -> Double {
        guard other.width == width, other.height == height else { return 1 }
        var differing = 0
        for i in stride(from: 0, to: pixels.count, by: 3) where abs(Int(pixels[i]) - Int(other.pixels[i])) +
            abs(Int(pixels[i + 1]) - Int(other.pixels[i + 1])) + abs(Int(pixels[i + 2]) - Int(other.pixels[i + 2])) > 30 {
            differing += 1
        }
        return Double(differing) / Double(width * height)
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

/// Records what reaches the session's null sink (its monitor), as mono 16-bit samples.
final class SoundRecorder {
    static let sampleRate = 8000
    private let process = Process()
    /// A file, not a pipe: parec blocks on a full pipe and then cannot handle SIGTERM.
    private let file = FileManager.default.temporaryDirectory.appendingPathComponent("reel-rec-\(UUID().uuidString).raw")

    init() throws {
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["parec", "-d", "reel_null.monitor", "--raw", "--format=s16le", "--rate=\(Self.sampleRate)",
                             "--channels=1", "--latency-msec=20"]
        process.standardOutput = try FileHandle(forWritingTo: file)
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: file)
    }

    /// Seconds recorded so far.
    var duration: Double {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int ?? 0
        return Double(bytes / MemoryLayout<Int16>.size) / Double(Self.sampleRate)
    }

    /// Waits until `seconds` of sound have been recorded since the recorder started: a
    /// condition on the recording, which parec writes as it comes.
    func waitUntilRecorded(seconds: Double, file: StaticString = #filePath, line: UInt = #line) {
        eventually(String(format: "%.1f s of sound recorded", seconds), timeout: seconds + 10, interval: 0.02,
                   file: file, line: line) { self.duration >= seconds }
    }

    /// Stops and returns the samples recorded.
    func stop() -> [Int16] {
        process.terminate()
        process.waitUntilExit()
        let data = (try? Data(contentsOf: file)) ?? Data()
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// RMS level of each `milliseconds` window.
    static func levels(_ samples: [Int16], windowMilliseconds: Int = 10) -> [Double] {
        let size = sampleRate * windowMilliseconds / 1000
        return stride(from: 0, to: samples.count - size, by: size).map { start in
            let window = samples[start..<(start + size)]
            return (window.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(size)).squareRoot()
        }
    }
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
