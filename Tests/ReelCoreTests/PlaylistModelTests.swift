// SPDX-License-Identifier: GPL-3.0-or-later
import ReelCore
import ReelModelTestSupport
import XCTest

/// A playlist in the queue gives way to its entries once the engine has read it.
@MainActor
final class PlaylistModelTests: XCTestCase {
    private var engine: ScriptedEngine!
    private var model: PlayerModel!
    private var changes: [PlayerModel.Change] = []

    override func setUp() async throws {
        engine = ScriptedEngine()
        model = PlayerModel(engine: engine, scheduler: ManualScheduler())
        model.observe { [unowned self] in self.changes.append($0) }
    }

    private let entries: [PlaylistContents.Entry] = [.init(uri: "file:///m/x.ogg", title: "Song X"), .init(uri: "file:///m/y.ogg"),
                                                     .init(uri: "https://radio.example.org/live", title: "A Station")]

    func testTheEntriesTakeThePlaylistsPlaceAndTheFirstPlays() async {
        model.open(["file:///m/list.m3u", "file:///m/after.ogg"])
        XCTAssertEqual(engine.commands.first, .load("file:///m/list.m3u"))
        engine.clear()
        engine.send(.playlist(PlaylistContents(uri: "file:///m/list.m3u", entries: entries)))
        XCTAssertEqual(model.queue.items.map(\.uri), entries.map(\.uri) + ["file:///m/after.ogg"])
        XCTAssertEqual(model.currentItem?.uri, "file:///m/x.ogg")
        XCTAssertEqual(engine.commands.first, .load("file:///m/x.ogg"))
        XCTAssertTrue(engine.commands.contains(.play), "played, as the playlist was to be")
        XCTAssertEqual(model.title, "Song X", "the playlist's title until the tags say otherwise")
        XCTAssertEqual(model.queue.items.map(\.fallbackTitle), ["Song X", "y", "A Station", "after"])
        engine.startPlaying()
        model.next()
        model.next()
        XCTAssertEqual(model.currentItem?.uri, "https://radio.example.org/live")
    }

    func testMissingEntriesAreNamedOnceAndTheRestPlays() async {
        model.open(["file:///m/list.pls"])
        engine.send(.playlist(PlaylistContents(uri: "file:///m/list.pls", entries: entries, missing: ["a.ogg", "b.ogg", "c.ogg", "d.ogg"])))
        let warnings = changes.compactMap { change -> String? in
            if case .warning(_, let problem) = change { return problem.message }
            return nil
        }
        XCTAssertEqual(warnings, ["4 entries of “list.pls” are not there and were left out: a.ogg, b.ogg, c.ogg and 1 more."])
        XCTAssertEqual(model.currentItem?.uri, "file:///m/x.ogg")
    }

    func testAPlaylistWithNothingToPlayFailsSayingWhy() async {
        model.open(["file:///m/gone.m3u"])
        engine.send(.playlist(PlaylistContents(uri: "file:///m/gone.m3u", entries: [], missing: ["a.ogg"])))
        guard case .failed(let error) = model.status else { return XCTFail("\(model.status)") }
        XCTAssertEqual(error.message, "This playlist has nothing Reel can play: the files it lists are not there: a.ogg.")
        model.open(["file:///m/empty.m3u"])
        engine.send(.playlist(PlaylistContents(uri: "file:///m/empty.m3u", entries: [])))
        guard case .failed(let empty) = model.status else { return XCTFail("\(model.status)") }
        XCTAssertEqual(empty.message, "This playlist has nothing Reel can play: it lists nothing.")
        XCTAssertEqual(model.queue.items.count, 2, "the playlists stay, failed, in the queue")
    }

    /// Queued behind another item, it is read when it comes to play; shuffled, all its entries
    /// still play in the round, the first first.
    func testAQueuedPlaylistExpandsWhenReachedAndShufflePlaysAllOfIt() async {
        model.open(["file:///m/first.ogg"])
        engine.startPlaying()
        model.setShuffle(true)
        model.enqueue(["file:///m/list.m3u"])
        model.next()
        XCTAssertEqual(model.currentItem?.uri, "file:///m/list.m3u")
        let many = (1...20).map { PlaylistContents.Entry(uri: "file:///m/\($0).ogg") }
        engine.send(.playlist(PlaylistContents(uri: "file:///m/list.m3u", entries: many)))
        XCTAssertEqual(model.currentItem?.uri, "file:///m/1.ogg")
        var played = ["file:///m/1.ogg"]
        while model.hasNext {
            model.next()
            played.append(model.currentItem?.uri ?? "")
        }
        XCTAssertEqual(Set(played), Set(many.map(\.uri)), "every entry plays once in the round")
        XCTAssertEqual(played.count, many.count)
    }

    /// The engine's result for an item the user has left meanwhile changes nothing.
    func testALateResultIsIgnored() async {
        model.open(["file:///m/list.m3u", "file:///m/b.ogg"])
        model.next()
        engine.send(.playlist(PlaylistContents(uri: "file:///m/list.m3u", entries: entries)))
        XCTAssertEqual(model.queue.items.map(\.uri), ["file:///m/list.m3u", "file:///m/b.ogg"])
    }
}
