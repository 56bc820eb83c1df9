// SPDX-License-Identifier: GPL-3.0-or-later
import ReelCore
import ReelModelTestSupport
import XCTest

/// The A-B loop in the model: marking, looping with Seeked at each jump back, repeat-each and
/// the gap, and clearing.
@MainActor
final class ABLoopTests: XCTestCase {
    private var engine: ScriptedEngine!
    private var model: PlayerModel!
    private var scheduler: ManualScheduler!
    private var seeks: [Seconds] = []

    override func setUp() async throws {
        engine = ScriptedEngine()
        scheduler = ManualScheduler()
        model = PlayerModel(engine: engine, scheduler: scheduler)
        model.open(["file:///v/lesson.mp4", "file:///v/next.mp4"])
        engine.startPlaying(duration: 60)
        engine.clear()
        seeks = []
        model.observe { [unowned self] in if case .seeked(let at) = $0 { self.seeks.append(at) } }
    }

    /// Plays on from where the model stands to `to`, in steps of 0.1 s, as position updates come.
    private func play(to target: Seconds) {
        engine.play(from: model.position, to: target)
    }

    /// The engine finishes the seek it was last asked for.
    private func finishSeek() {
        XCTAssertTrue(engine.finishLastSeek(), "no seek asked for")
    }

    func testShiftLMarksAThenBThenClears() async {
        play(to: 12)
        model.cycleABLoop()
        XCTAssertEqual(model.abLoop, ABLoop(start: 12))
        play(to: 15)
        model.cycleABLoop()
        XCTAssertEqual(model.abLoop, ABLoop(start: 12, end: 15))
        XCTAssertEqual(engine.commands.last, .seek(12, accurate: true), "looping starts at A")
        finishSeek()
        model.cycleABLoop()
        XCTAssertNil(model.abLoop)
        play(to: 20)
        XCTAssertEqual(model.position, 20, "no loop once cleared")
    }

    func testBBeforeAIsSwapped() async {
        play(to: 20)
        model.cycleABLoop()
        model.seek(to: 10)
        finishSeek()
        model.cycleABLoop()
        XCTAssertEqual(model.abLoop, ABLoop(start: 10, end: 20))
    }

    func testTheStretchLoopsUntilClearedWithSeekedAtEachJump() async {
        model.setABLoop(start: 2, end: 4)
        finishSeek()
        seeks = []
        for _ in 0..<3 {
            play(to: 4)
            XCTAssertEqual(engine.commands.last, .seek(2, accurate: true))
            finishSeek()
        }
        XCTAssertEqual(seeks, [2, 2, 2], "each jump back is a Seeked")
        XCTAssertEqual(model.currentItem?.uri, "file:///v/lesson.mp4")
    }

    func testRepeatEachAndGapThenPlaybackGoesOnPastB() async {
        model.setRepeatEach(3)
        model.setGap(1.5)
        model.setABLoop(start: 2, end: 4)
        finishSeek()
        for play in 1...2 {
            self.play(to: 4)
            XCTAssertEqual(model.gapRemaining, 1.5, "a wait after play \(play)")
            XCTAssertEqual(engine.commands.last, .pause)
            scheduler.advance(by: 1.5)
            XCTAssertEqual(Array(engine.commands.suffix(2)), [.seek(2, accurate: true), .play])
            finishSeek()
        }
        play(to: 4)
        XCTAssertNil(model.abLoop, "three plays, then the loop is done")
        XCTAssertNil(model.gapRemaining)
        play(to: 6)
        XCTAssertEqual(model.position, 6, "and playback goes on past B")
    }

    func testASeekPastBIsNotTheEndOfAPlay() async {
        model.setABLoop(start: 2, end: 4)
        finishSeek()
        engine.clear()
        model.seek(to: 30)
        finishSeek()
        play(to: 31)
        XCTAssertEqual(engine.commands, [.seek(30, accurate: true)], "no jump back from a seek past B")
    }

    func testALoopBelongsToItsItem() async {
        model.setABLoop(start: 2, end: 4)
        model.next()
        XCTAssertNil(model.abLoop)
    }

    func testNonsenseLoopsAreRefused() async {
        model.setABLoop(start: 5, end: 5.1)
        XCTAssertNil(model.abLoop, "shorter than the shortest stretch")
        model.setABLoop(start: .nan, end: 4)
        XCTAssertNil(model.abLoop)
        model.setABLoop(start: 50, end: 90)
        XCTAssertEqual(model.abLoop?.end ?? 0, 60 - 0.25, accuracy: 1e-9, "clamped to the item")
    }
}
