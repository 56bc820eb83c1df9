// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Reel as a screen reader reads it: the accessible tree on the session's accessibility bus
/// (AT-SPI, as Orca reads it), through `meson_helpers/a11y-tree`.
final class AccessibilityTests: XCTestCase {
    struct Node: Decodable {
        let depth: Int
        let role: String
        let name: String
        let description: String
    }

    /// Every control has a name in words: no mnemonic underscore, no text said twice, not a
    /// bare time; the empty page's Open button and the duration button in particular.
    func testEveryControlOfTheWindowReadsAsWhatItDoes() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        defer { app.stop() }
        app.waitForPlaying()
        eventually("the length known") { app.metadata["mpris:length"] != nil }
        let nodes = try tree(of: app)
        let controls = nodes.filter { ["push button", "toggle button", "slider", "check box", "radio button"].contains($0.role) }
        XCTAssertGreaterThan(controls.count, 12, "the window's controls were read: \(nodes.map(\.name))")
        for control in controls {
            XCTAssertFalse(control.name.isEmpty, "a \(control.role) without a name")
            XCTAssertFalse(control.name.contains("_"), "“\(control.name)”: a mnemonic's underscore is read out")
            let words = control.name.split(separator: " ")
            XCTAssertFalse(words.count >= 2 && words.count % 2 == 0 && words[..<(words.count / 2)] == words[(words.count / 2)...],
                           "“\(control.name)”: said twice")
            XCTAssertNil(control.name.wholeMatch(of: /[0-9:–-]+/), "“\(control.name)”: a time alone says nothing of what the control does")
        }
        XCTAssertTrue(controls.contains { $0.name == "Open…" && $0.description.isEmpty }, "the empty page's Open button")
        let duration = try XCTUnwrap(controls.first { $0.name.hasPrefix("Total time: ") }, "the duration button")
        XCTAssertEqual(duration.name, "Total time: 0:30")
        XCTAssertEqual(duration.description, "Show Remaining Time", "what a click does")
    }

    private func tree(of app: ReelApp) throws -> [Node] {
        let result = shell(Paths.packageRoot.appendingPathComponent("meson_helpers/a11y-tree").path,
                           [String(app.process.processIdentifier)])
        XCTAssertEqual(result.status, 0, result.output)
        let decoder = JSONDecoder()
        return try result.output.split(separator: "\n").compactMap { line in
            line.hasPrefix("{") ? try decoder.decode(Node.self, from: Data(line.utf8)) : nil
        }
    }
}
