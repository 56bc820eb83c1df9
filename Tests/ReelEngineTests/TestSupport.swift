import CGio
import Foundation
import ReelCore
import ReelEngine
import ReelGLib
import XCTest

/// The generated test media (meson_helpers/make-test-media), made on first use and cached.
enum TestMedia {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let directory: URL = {
        let dir = ProcessInfo.processInfo.environment["REEL_TEST_MEDIA"].map { URL(fileURLWithPath: $0) }
            ?? packageRoot.appendingPathComponent(".build/test-media")
        let process = Process()
        process.executableURL = packageRoot.appendingPathComponent("meson_helpers/make-test-media")
        process.arguments = [dir.path]
        try? process.run()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "make-test-media failed")
        return dir
    }()

    static func uri(_ name: String) -> String { directory.appendingPathComponent(name).absoluteString }
    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}

/// Runs the GLib main loop until `condition` holds or `timeout` passes; fails the test then.
/// GstPlay's signal adapter delivers every engine event through this loop.
@MainActor
@discardableResult
func waitUntil(_ description: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line,
               _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline {
            XCTFail("timed out after \(timeout) s waiting for: \(description)", file: file, line: line)
            return false
        }
        if g_main_context_iteration(nil, 0) == 0 { usleep(2_000) }
    }
    return true
}

/// Keeps the main loop turning for `seconds` (for measurements over time, not for waiting on state).
@MainActor
func runMainLoop(for seconds: TimeInterval) {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        if g_main_context_iteration(nil, 0) == 0 { usleep(2_000) }
    }
}

/// An engine and the model over it, recording every change the model reports.
@MainActor
final class PlayerHarness {
    let engine = GstPlayEngine()
    let scheduler = GLibScheduler()
    let model: PlayerModel
    private(set) var changes: [PlayerModel.Change] = []
    private var observation: PlayerModel.Observation?

    /// Every engine a test made, weakly: each must be gone once its test is over.
    static var engines: [Weak<GstPlayEngine>] = []

    init() {
        Self.engines.append(Weak(engine))
        model = PlayerModel(engine: engine, scheduler: scheduler)
        engine.setVolume(0.2)
        observation = model.observe { [weak self] in self?.changes.append($0) }
    }

    func open(_ name: String) { model.open([TestMedia.uri(name)]) }

    func waitForPlaying(file: StaticString = #filePath, line: UInt = #line) {
        waitUntil("playing", file: file, line: line) { model.status == .playing && model.duration != nil }
    }

    var seekedPositions: [Seconds] {
        changes.compactMap { if case .seeked(let p) = $0 { return p } else { return nil } }
    }
}

final class Weak<T: AnyObject> {
    weak var object: T?
    init(_ object: T) { self.object = object }
}

/// Engine tests check, after each test, that every engine (and so its pipeline and GstPlay's
/// thread) was freed: a leaked one plays on in the background of the tests that follow.
class EngineTestCase: XCTestCase {
    override func tearDown() async throws {
        await MainActor.run {
            let leaked = PlayerHarness.engines.filter { $0.object != nil }.count
            PlayerHarness.engines.removeAll()
            XCTAssertEqual(leaked, 0, "engines still alive after the test: something holds them")
        }
        try await super.tearDown()
    }
}
