// SPDX-License-Identifier: GPL-3.0-or-later
import ReelCore
import ReelModelTestSupport
import XCTest

/// Gapless playback as the model sees it: what it offers the engine to join, and how it follows
/// when the engine says it joined.
@MainActor
final class GaplessTests: XCTestCase {
    private var engine: ScriptedEngine!
    private var model: PlayerModel!
    private let tracks = ["file:///album/1.flac", "file:///album/2.flac", "file:///album/3.flac"]

    override func setUp() async throws {
        engine = ScriptedEngine()
        model = PlayerModel(engine: engine, scheduler: ManualScheduler())
        model.open(tracks)
        engine.send(.duration(180), .mediaInfo(MediaInfo(hasAudio: true)), .state(.paused), .state(.playing))
        engine.clear()
    }

    func testTheNextTrackIsOfferedWhileASongPlays() async {
        XCTAssertEqual(engine.offeredNext, tracks[1])
    }

    func testNothingIsOfferedWhenSomethingComesBetweenTwoPlays() async {
        let changes: [(String, () -> Void, () -> Void)] = [
            ("repeat-each", { self.model.setRepeatEach(2) }, { self.model.setRepeatEach(1) }),
            ("a gap", { self.model.setGap(1) }, { self.model.setGap(0) }),
            ("a loop of the item", { self.model.setLoopMode(.item) }, { self.model.setLoopMode(.none) }),
            ("an A-B loop", { self.model.setABLoop(start: 10, end: 20) }, { self.model.clearABLoop() }),
            ("line by line", { self.model.setLoopsLines(true) }, { self.model.setLoopsLines(false) }),
            ("the sleep timer at the end of the item", { self.model.setSleep(.endOfItem) }, { self.model.setSleep(nil) }),
        ]
        for (name, set, unset) in changes {
            set()
            XCTAssertNil(engine.offeredNext, "nothing joins with \(name)")
            unset()
            XCTAssertEqual(engine.offeredNext, tracks[1], "offered again once \(name) is off")
        }
    }

    func testNothingIsOfferedAfterAVideoOrAtTheEndOfTheQueue() async {
        engine.send(.mediaInfo(MediaInfo(hasVideo: true, hasAudio: true)))
        XCTAssertNil(engine.offeredNext, "a video's end is a change of picture: not joined")
        engine.send(.mediaInfo(MediaInfo(hasAudio: true)))
        XCTAssertEqual(engine.offeredNext, tracks[1])
        model.playItem(id: model.queue.items[2].id)
        engine.send(.duration(180), .mediaInfo(MediaInfo(hasAudio: true)), .state(.playing))
        XCTAssertNil(engine.offeredNext, "the last track: nothing follows")
    }

    func testAJoinedTrackBecomesTheCurrentOneWithoutALoad() async {
        var changes: [PlayerModel.Change] = []
        let observation = model.observe { changes.append($0) }
        defer { observation.cancel() }
        engine.send(.position(179.9))
        engine.send(.joined(uri: tracks[1]), .mediaInfo(MediaInfo(title: "Two", hasAudio: true)), .duration(200), .position(0.1))
        XCTAssertEqual(model.currentItem?.uri, tracks[1])
        XCTAssertEqual(model.status, .playing, "no loading in between")
        XCTAssertEqual(model.title, "Two")
        XCTAssertEqual(model.duration, 200)
        XCTAssertEqual(model.position, 0.1, accuracy: 1e-9)
        XCTAssertFalse(engine.commands.contains { if case .load = $0 { true } else { false } }, "the engine plays on")
        XCTAssertTrue(changes.contains(.played(model.queue.items[0])), "the first track counts as played")
        XCTAssertTrue(changes.contains(.item))
        XCTAssertEqual(engine.offeredNext, tracks[2], "and the third is offered next")
    }

    func testATrackJoinedAfterTheQueueChangedGivesWayToWhatNowFollows() async {
        model.removeItem(id: model.queue.items[1].id)
        engine.send(.joined(uri: tracks[1]))
        XCTAssertEqual(model.currentItem?.uri, tracks[2])
        XCTAssertEqual(engine.commands.first, .load(tracks[2]), "what follows now is loaded the usual way")
    }
}
