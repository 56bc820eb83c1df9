// SPDX-License-Identifier: GPL-3.0-or-later
import ReelCore
import ReelModelTestSupport
import XCTest

/// Frame stepping in the model: a seek to the next or previous frame's start, paused.
@MainActor
final class FrameStepTests: XCTestCase {
    private var engine: ScriptedEngine!
    private var model: PlayerModel!

    private func open(frameRate: Double?) {
        engine = ScriptedEngine()
        model = PlayerModel(engine: engine, scheduler: ManualScheduler())
        model.open(["file:///v/film.mp4"])
        var media = MediaInfo(hasVideo: true, hasAudio: true)
        media.videoFormat = VideoFormat(width: 320, height: 240, frameRate: frameRate)
        engine.send(.duration(3), .mediaInfo(media), .state(.paused), .state(.playing))
        engine.send(.position(1.0))
        engine.clear()
    }

    private var seeks: [Seconds] { engine.commands.compactMap { if case .seek(let to, _) = $0 { to } else { nil } } }

    func testStepsPauseAndSeekToTheNextAndPreviousFrame() async {
        open(frameRate: 30)
        model.stepFrame(forward: true)
        XCTAssertEqual(engine.commands.first, .pause, "a step pauses first")
        XCTAssertEqual(seeks.last!, 31.0 / 30, accuracy: 1e-9)
        engine.send(.seekDone(31.0 / 30))
        model.stepFrame(forward: false)
        model.stepFrame(forward: false)  // before the first is done: from where it goes
        XCTAssertEqual(seeks.suffix(2).map { ($0 * 30).rounded() }, [30, 29])
    }

    func testNoStepBeforeTheStartOrPastTheEndOrWithoutAFrameRate() async {
        open(frameRate: 30)
        engine.send(.position(0))
        model.stepFrame(forward: false)
        XCTAssertEqual(seeks, [], "nothing before the first frame")
        engine.send(.position(2.99))
        model.stepFrame(forward: true)
        XCTAssertEqual(seeks, [], "nothing past the last")
        open(frameRate: nil)
        model.stepFrame(forward: true)
        XCTAssertEqual(seeks, [], "no frame rate, no step")
    }
}
