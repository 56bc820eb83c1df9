// SPDX-License-Identifier: GPL-3.0-or-later
import ReelCore
import ReelModelTestSupport
import XCTest

/// Chapters in the model: which one plays, moving by them, and Next and Previous moving by
/// chapter only while the queue holds the one item.
@MainActor
final class ChapterTests: XCTestCase {
    private var engine: ScriptedEngine!
    private var model: PlayerModel!
    private var changes = 0
    private let chapters = [Chapter(title: "Opening", start: 0), Chapter(title: "Middle", start: 20), Chapter(title: "End", start: 40)]

    private func open(_ uris: [String]) {
        engine = ScriptedEngine()
        model = PlayerModel(engine: engine, scheduler: ManualScheduler())
        model.open(uris)
        engine.startPlaying(duration: 60)
        // In the order a demuxer may give them.
        engine.send(.chapters(chapters.reversed()))
        engine.clear()
        model.observe { [unowned self] in if $0 == .chapters { self.changes += 1 } }
    }

    /// The seek the model asked for since the last call, which the engine then finishes.
    private func lastSeek() -> Seconds? {
        defer { engine.clear() }
        guard case .seek(let to, _)? = engine.commands.last else { return nil }
        engine.finishLastSeek()
        return to
    }

    func testTheChapterPlayingFollowsThePosition() async {
        open(["file:///v/film.mkv"])
        XCTAssertEqual(model.chapters.map(\.title), ["Opening", "Middle", "End"], "in time order")
        XCTAssertEqual(model.currentChapter?.title, "Opening")
        engine.play(from: 0, to: 19.9)
        XCTAssertEqual(changes, 0, "no change within a chapter")
        engine.play(from: 19.9, to: 20.5)
        XCTAssertEqual(model.currentChapter?.title, "Middle")
        XCTAssertEqual(changes, 1)
        model.seek(to: 45)
        XCTAssertEqual(model.currentChapter?.title, "End", "a seek moves the chapter at once")
        XCTAssertEqual(changes, 2)
    }

    func testOneItemMovesByChapter() async {
        open(["file:///v/film.mkv"])
        XCTAssertTrue(model.hasNext, "a chapter follows")
        model.next()
        XCTAssertEqual(lastSeek(), 20)
        model.next()
        XCTAssertEqual(lastSeek(), 40)
        XCTAssertFalse(model.hasNext, "the last chapter: nothing follows")
        model.next()
        XCTAssertNil(lastSeek(), "Next on the last chapter does nothing")
        engine.play(from: 40, to: 41)
        model.previous()
        XCTAssertEqual(lastSeek(), 20, "under 3 s into a chapter: the one before")
        engine.play(from: 20, to: 25)
        model.previous()
        XCTAssertEqual(lastSeek(), 20, "further in: the chapter's own start")
        model.goToPreviousChapter()
        XCTAssertEqual(lastSeek(), 0)
        model.goToChapter(2)
        XCTAssertEqual(lastSeek(), 40)
        model.goToChapter(7)
        XCTAssertNil(lastSeek(), "no such chapter")
    }

    func testSeveralItemsMoveByItemAndChapterKeysStillWork() async {
        open(["file:///v/film.mkv", "file:///v/other.mkv"])
        model.goToNextChapter()
        XCTAssertEqual(lastSeek(), 20, "the chapter keys move by chapter whatever the queue")
        model.next()
        XCTAssertEqual(engine.commands.first, .load("file:///v/other.mkv"), "Next goes to the next item")
        XCTAssertTrue(model.chapters.isEmpty, "the new item's chapters are not known yet")
        XCTAssertNil(model.currentChapter)
    }
}
