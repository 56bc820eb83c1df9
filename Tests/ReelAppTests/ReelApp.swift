// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

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

    // Stored here for the extensions (a Swift extension cannot hold stored properties).

    /// The test desktop's driver, through which the window is found and driven (ReelApp+Window, +Input).
    let desktop = Desktop.driver
    /// The main window once found (ReelApp+Window's `windowID`).
    var knownWindowID: String?
    /// Debug properties already reported missing (ReelApp+Debug): a poll reads the same property
    /// many times, one failure each is enough.
    var reportedDebugProperties: Set<String> = []
}
