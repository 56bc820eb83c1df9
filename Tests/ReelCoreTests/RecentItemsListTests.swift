// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelCore
import XCTest

/// The list of items played last: newest first, each once, at most `limit`, kept in a state
/// file that survives a restart and, damaged, is set aside rather than fatal.
@MainActor
final class RecentItemsListTests: XCTestCase {
    private var folder: URL!

    override func setUp() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-recent-\(UUID().uuidString)")
    }

    override func tearDown() async throws { try? FileManager.default.removeItem(at: folder) }

    private var file: StateFile { StateFile(path: folder.appendingPathComponent("recent.json").path) }

    func testNewestFirstEachOnceAndNoMoreThanTheLimit() async {
        let recent = RecentItems(file: nil)
        var changes = 0
        recent.onChange = { changes += 1 }
        recent.add(uri: "file:///a.ogg", title: "A")
        recent.add(uri: "http://radio.example/stream", title: "Radio Example")
        recent.add(uri: "file:///a.ogg", title: "A")
        XCTAssertEqual(recent.entries.map(\.title), ["A", "Radio Example"], "played again: first, once")
        recent.add(uri: "file:///a.ogg", title: "A")
        XCTAssertEqual(changes, 3, "the same first entry again changes nothing")
        recent.add(uri: "file:///folder/b%20c.flac", title: "")
        XCTAssertEqual(recent.entries.first?.title, "b c", "without a title: the file's name")
        recent.add(uri: "file:///long.mp3", title: String(repeating: "長い題名", count: 3000))
        XCTAssertEqual(recent.entries.first?.title.count, RecentItems.titleLimit, "a broken tag's thousands of characters cut")
        for n in 0..<20 { recent.add(uri: "file:///\(n).ogg", title: "\(n)") }
        XCTAssertEqual(recent.entries.count, RecentItems.limit)
        XCTAssertEqual(recent.entries.first?.title, "19")
        recent.clear()
        XCTAssertEqual(recent.entries, [])
    }

    func testTheListSurvivesARestartAndADamagedFileIsSetAside() async throws {
        let recent = RecentItems(file: file)
        recent.add(uri: "file:///a.ogg", title: "A")
        recent.add(uri: "file:///b.ogg", title: "B")
        recent.saved()
        XCTAssertEqual(RecentItems(file: file).entries.map(\.title), ["B", "A"])

        try Data("not json".utf8).write(to: URL(fileURLWithPath: file.path))
        let damaged = RecentItems(file: file)
        XCTAssertEqual(damaged.entries, [])
        XCTAssertTrue(damaged.loadProblem?.contains("set aside") == true, damaged.loadProblem ?? "no problem said")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertTrue(left.contains { $0.hasPrefix("recent.json.corrupt-") }, "kept for whoever wants to look: \(left)")
    }
}
