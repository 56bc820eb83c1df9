// SPDX-License-Identifier: GPL-3.0-or-later
import CGtk
import CGio
import Foundation
import ReelCore
import ReelEngine
import ReelGLib
import ReelTestSupport
import XCTest

/// Runs the GLib main loop until `condition` holds or `timeout` passes; fails the test then.
/// GstPlay's signal adapter delivers every engine event through this loop.
@MainActor
@discardableResult
func waitUntil(_ description: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line,
               _ condition: () -> Bool) -> Bool {
    wait(for: description, timeout: timeout, file: file, line: line,
         between: { if g_main_context_iteration(nil, 0) == 0 { usleep(2_000) } }, condition)
}

/// Draws the paintable as a window does on its next frame: the paintable holds a newer frame
/// back until the one it has was drawn, so what no window draws stays on its first frame.
@MainActor
func drawAsAWindowWould(_ paintable: OpaquePointer) {
    let snapshot = gtk_snapshot_new()!
    gdk_paintable_snapshot(paintable, gcast(snapshot), 320, 180)
    if let node = gtk_snapshot_free_to_node(snapshot) { gsk_render_node_unref(node) }
}

/// Keeps the main loop turning for `seconds` (for measurements over time, not for waiting on state).
@MainActor
func runMainLoop(for seconds: TimeInterval) {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        if g_main_context_iteration(nil, 0) == 0 { usleep(2_000) }
    }
}

/// A texture's pixels as cairo's ARGB32 keeps them: B, G, R, A in memory, `width` to a row.
func bgraPixels(_ texture: OpaquePointer) -> (width: Int, height: Int, bytes: [UInt8]) {
    let width = Int(gdk_texture_get_width(texture)), height = Int(gdk_texture_get_height(texture))
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    gdk_texture_download(texture, &bytes, gsize(width * 4))
    return (width, height, bytes)
}

/// An engine and the model over it, recording every change the model reports.
@MainActor
final class PlayerHarness {
    let engine = GstPlayEngine(applicationID: "org.reelplayer.Reel.Tests", applicationName: "Reel tests")
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

    func open(_ name: String) { model.open([Paths.mediaURI(name)]) }

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
