// SPDX-License-Identifier: GPL-3.0-or-later
import ReelCore
import ReelModelTestSupport
import XCTest

/// Line by line and shadowing in the model: which stretches, in what order, how many plays of
/// each, the waits between them and the pauses to speak.
@MainActor
final class LineDrillTests: XCTestCase {
    private var engine: ScriptedEngine!
    private var model: PlayerModel!
    private var scheduler: ManualScheduler!

    /// Cues like a lesson's: lines 2 and 3 touch, 4 and 5 overlap.
    static let cues: [(Seconds, Seconds)] = [(1, 2.5), (4, 5.2), (5.2, 6), (8, 9.5), (9.3, 10.5), (13, 14)]

    override func setUp() async throws {
        engine = ScriptedEngine()
        scheduler = ManualScheduler()
        model = PlayerModel(engine: engine, scheduler: scheduler)
        model.open(["file:///v/lesson.webm", "file:///v/next.webm"])
        engine.startPlaying(duration: 30)
        for (n, cue) in Self.cues.enumerated() {
            engine.send(.subtitle(SubtitleLine(text: "line \(n + 1)", isMarkup: false, start: cue.0, end: cue.1)))
        }
        engine.clear()
    }

    private func play(to target: Seconds) { engine.play(from: model.position, to: target) }
    private func finishSeek() { XCTAssertTrue(engine.finishLastSeek(), "no seek asked for") }

    private var seeks: [Seconds] {
        engine.commands.compactMap { if case .seek(let to, _) = $0 { to } else { nil } }
    }

    func testLinesWidenedByTheMarginsAndMergedWhereTheyTouchOrOverlap() async {
        let stretches = LineStretch.stretches(
            of: Self.cues.map { SubtitleLine(text: "", isMarkup: false, start: $0.0, end: $0.1) }, leadIn: 0.25, leadOut: 0.25)
        XCTAssertEqual(stretches, [LineStretch(start: 0.75, end: 2.75), LineStretch(start: 3.75, end: 6.25),
                                   LineStretch(start: 7.75, end: 10.75), LineStretch(start: 12.75, end: 14.25)])
        let close = [SubtitleLine(text: "", isMarkup: false, start: 0.1, end: 1), SubtitleLine(text: "", isMarkup: false, start: 1.4, end: 2)]
        XCTAssertEqual(LineStretch.stretches(of: close, leadIn: 0.25, leadOut: 0.25), [LineStretch(start: 0, end: 2.25)],
                       "margins that meet merge the lines; a stretch never starts before 0")
    }

    func testEachLinePlaysRepeatEachTimesWithTheGapThenTheNext() async {
        model.setRepeatEach(2)
        model.setGap(1)
        model.setLoopsLines(true)
        play(to: 2.8)
        XCTAssertEqual(model.gapRemaining, 1, "a wait after the line's first play")
        XCTAssertEqual(engine.commands.last, .pause)
        scheduler.advance(by: 1)
        XCTAssertEqual(Array(engine.commands.suffix(2)), [.seek(0.75, accurate: true), .play], "the line again")
        finishSeek()
        play(to: 2.8)
        scheduler.advance(by: 1)
        XCTAssertEqual(seeks.last, 3.75, "then the next line, the silence between skipped")
        finishSeek()
        for _ in 1...2 {
            play(to: 6.3)
            scheduler.advance(by: 1)
            finishSeek()
        }
        XCTAssertEqual(seeks, [0.75, 3.75, 3.75, 7.75], "lines 2 and 3 drilled as one stretch")
        XCTAssertEqual(model.lineStretch, LineStretch(start: 7.75, end: 10.75))
    }

    func testAfterTheLastLineTheItemPlaysOutOnceAndTheQueueMovesOn() async {
        model.setRepeatEach(2)
        model.setLoopsLines(true)
        model.seek(to: 12.9)
        finishSeek()
        play(to: 14.3)
        finishSeek()
        play(to: 14.3)
        XCTAssertNil(model.lineStretch, "the last line drilled")
        engine.clear()
        play(to: 20)
        XCTAssertEqual(seeks, [], "the rest plays on")
        engine.send(.endOfStream)
        XCTAssertEqual(model.currentItem?.uri, "file:///v/next.webm", "repeat-each counted lines, not the item")
    }

    func testShadowingPausesAtTheEndOfEveryLineUntilPlay() async {
        model.setPausesAfterLines(true)
        play(to: 2.8)
        XCTAssertEqual(engine.commands.last, .pause, "a pause to speak the first line")
        engine.send(.state(.paused))
        XCTAssertEqual(model.status, .paused)
        model.play()
        XCTAssertEqual(engine.commands.last, .play, "on from where it stopped")
        engine.send(.state(.playing))
        engine.clear()
        play(to: 6)
        XCTAssertEqual(engine.commands, [], "no pause inside a line")
        play(to: 6.3)
        XCTAssertEqual(engine.commands.last, .pause, "and at the end of the next")
    }

    func testShadowingInLineModePausesAfterTheLastPlayAndGoesOnToTheNextLine() async {
        model.setRepeatEach(2)
        model.setLoopsLines(true)
        model.setPausesAfterLines(true)
        play(to: 2.8)
        XCTAssertEqual(seeks.last, 0.75, "first the line again")
        finishSeek()
        engine.clear()
        play(to: 2.8)
        XCTAssertEqual(engine.commands, [.pause], "then a pause to speak it")
        engine.send(.state(.paused))
        model.play()
        XCTAssertEqual(Array(engine.commands.suffix(2)), [.seek(3.75, accurate: true), .play], "play goes on to the next line")
    }

    func testAnABLoopOfTheUsersOwnTakesPrecedence() async {
        model.setLoopsLines(true)
        model.setABLoop(start: 20, end: 22)
        finishSeek()
        engine.clear()
        play(to: 22)
        XCTAssertEqual(seeks, [20], "the user's loop, not a line")
    }

    func testASeekMovesTheDrillToTheLineThere() async {
        model.setRepeatEach(3)
        model.setLoopsLines(true)
        play(to: 1.5)
        XCTAssertEqual(model.lineStretch, LineStretch(start: 0.75, end: 2.75))
        model.seek(to: 9)
        finishSeek()
        play(to: 9.2)
        XCTAssertEqual(model.lineStretch, LineStretch(start: 7.75, end: 10.75))
        engine.clear()
        play(to: 10.8)
        XCTAssertEqual(seeks, [7.75], "its plays counted afresh: the first of three")
    }
}
