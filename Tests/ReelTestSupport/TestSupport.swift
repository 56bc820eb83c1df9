// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import XCTest

/// Where the tests find the package, Reel, the generated test media (made on first use by
/// meson_helpers/make-test-media, a no-op once they exist) and where they leave screenshots.
public enum Paths {
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The project's version, as meson.build (its one source) gives it.
    public static let version: String = {
        let meson = (try? String(contentsOf: packageRoot.appendingPathComponent("meson.build"), encoding: .utf8)) ?? ""
        let line = meson.split(whereSeparator: \.isNewline).first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("version:") }
        return line?.split(separator: "'").dropFirst().first.map(String.init) ?? "unknown"
    }()
    /// REEL_EXECUTABLE drives another build of Reel with the same tests (the leak check's ASan build).
    public static let reel = ProcessInfo.processInfo.environment["REEL_EXECUTABLE"].map { URL(fileURLWithPath: $0) }
        ?? packageRoot.appendingPathComponent(".build/debug/reel")
    public static let media: URL = {
        let directory = URL(fileURLWithPath: ProcessInfo.processInfo.environment["REEL_TEST_MEDIA"]
            ?? packageRoot.appendingPathComponent(".build/test-media").path)
        let process = Process()
        process.executableURL = packageRoot.appendingPathComponent("meson_helpers/make-test-media")
        process.arguments = [directory.path]
        try? process.run()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "make-test-media failed")
        return directory
    }()
    public static let artifacts = URL(fileURLWithPath: ProcessInfo.processInfo.environment["REEL_TEST_ARTIFACTS"]
        ?? packageRoot.appendingPathComponent(".build/test-artifacts").path)

    public static func media(_ name: String) -> String { media.appendingPathComponent(name).path }
    public static func mediaURI(_ name: String) -> String { media.appendingPathComponent(name).absoluteString }
}

/// Checks `condition` until it holds or `timeout` passes, doing `between` from one check to the
/// next (sleeping, or turning a main loop); says whether it held.
@discardableResult
public func poll(timeout: TimeInterval, between: () -> Void, _ condition: () throws -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
        if (try? condition()) == true { return true }
        between()
    } while Date() < deadline
    return (try? condition()) == true
}

/// `poll`, failing the test when the time runs out.
@discardableResult
public func wait(for description: String, timeout: TimeInterval, file: StaticString, line: UInt,
                 between: () -> Void, _ condition: () throws -> Bool) -> Bool {
    if poll(timeout: timeout, between: between, condition) { return true }
    XCTFail("timed out after \(timeout) s waiting for: \(description)", file: file, line: line)
    return false
}
