// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// The empty window lists the items played last, with their titles, newest first; one click
/// plays one again, and Clear empties the list. Read and pressed over AT-SPI, as Orca does.
final class RecentItemsTests: XCTestCase {
    func testTheEmptyWindowListsWhatWasPlayedLast() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("reel-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let environment = ["XDG_STATE_HOME": state.path]
        do {
            let app = try ReelApp([Paths.media("short-1.webm")], environment: environment)
            app.waitForPlaying("short-1")
            _ = try app.player("OpenUri", [.string(Paths.mediaURI("audio-only.ogg"))])
            app.waitForPlaying("Audio Only Title")
            app.stop()
        }
        // Without a queue to put back, Reel starts on its empty page.
        try FileManager.default.removeItem(at: state.appendingPathComponent("reel/queue.json"))
        let app = try ReelApp([], environment: environment)
        defer { app.stop() }
        var rows: [String] = []
        eventually("the recent items listed: \(rows)") {
            rows = ((try? AccessibilityTests.tree(of: app)) ?? []).filter { $0.role == "list item" }.map(\.name)
            return rows == ["Audio Only Title", "short-1"]
        }
        var row: WindowRect?
        eventually("the rows laid out") {
            row = app.controlBounds["recent-1"]
            return row != nil
        }
        if let row { app.desktop.click(app.windowID, x: row.midX, y: row.midY) }
        app.desktop.pointerMove(screenX: 0, screenY: 0)  // not left where the next test's toasts show
        app.waitForPlaying("short-1")
        XCTAssertNotNil(app.screenshot("recent-played"))

        // Played again, it comes first; Clear empties the list, and it stays empty.
        try app.player("Stop")
        app.activate("clear-recent")
        eventually("the list cleared on disk") {
            (try? String(contentsOf: state.appendingPathComponent("reel/recent.json"), encoding: .utf8)) == "[]"
        }
    }
}
