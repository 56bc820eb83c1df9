// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

// Other programs the app tests run: commands (with a deadline), C helpers built for
// LD_PRELOAD, the fixtures in Fixtures/, and text read from their pipes.

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

/// Text another thread appends to (a pipe's readability handler) while a test reads it.
final class SharedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func append(_ data: Data) { lock.withLock { text += String(decoding: data, as: UTF8.self) } }
    var value: String { lock.withLock { text } }
}

/// A helper program from Fixtures/ (a drag source, a session manager, a media server, a radio
/// station), stopped when the test lets go of it. `firstLine` is what it printed first (a port,
/// say), when waited for; `send` gives one a command on its stdin and waits for its "ok".
final class Fixture {
    let process = Process()
    private(set) var firstLine = ""
    private let input = Pipe()
    private let output = Pipe()
    private var pending = Data()

    init(_ name: String, _ arguments: [String], waitForFirstLine: Bool = false,
         file: StaticString = #filePath, line: UInt = #line) throws {
        process.executableURL = Paths.packageRoot.appendingPathComponent("Tests/ReelAppTests/Fixtures/\(name)")
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = waitForFirstLine ? output : FileHandle.nullDevice
        // What a fixture complains of (a server that would not start, a traceback) is in the log.
        process.standardError = FileHandle.standardError
        try process.run()
        guard waitForFirstLine else { return }
        // The fixture prints its line as soon as it is ready; a few seconds is plenty.
        firstLine = readLine(timeout: 10) ?? ""
        if firstLine.isEmpty { XCTFail("\(name) printed nothing", file: file, line: line) }
    }

    private func readLine(timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while !pending.contains(10), Date() < deadline, process.isRunning {
            pending.append(output.fileHandleForReading.availableData)
        }
        guard let end = pending.firstIndex(of: 10) else { return nil }
        defer { pending.removeSubrange(...end) }
        return String(decoding: pending[..<end], as: UTF8.self)
    }

    /// Writes `command` as a line and waits until the fixture says "ok" to it.
    func send(_ command: String, timeout: TimeInterval = 20, file: StaticString = #filePath, line: UInt = #line) {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        let word = command.split(separator: " ").first.map(String.init) ?? command
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, let answer = readLine(timeout: deadline.timeIntervalSinceNow) {
            if answer == "ok \(word)" { return }
        }
        XCTFail("the fixture did not finish “\(command)”", file: file, line: line)
    }

    /// Closing stdin ends a fixture; one that has not ended in 10 s is stopped, then killed, so
    /// that a fixture stuck in its teardown fails its test instead of hanging the suite.
    deinit {
        try? input.fileHandleForWriting.close()
        if !exited(within: 10) {
            print("fixture \(process.executableURL?.lastPathComponent ?? "?") did not end; stopping it")
            process.terminate()
            if !exited(within: 5) { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
    }

    private func exited(within seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return !process.isRunning
    }
}
