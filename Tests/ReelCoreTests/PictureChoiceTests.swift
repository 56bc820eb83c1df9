// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelCore
import ReelModelTestSupport
import XCTest

/// The picture and sound adjustments in the model: what reaches the engine, the ranges, the
/// paused frame made again, the command line, and each file kept as it was left.
@MainActor
final class PictureChoiceTests: XCTestCase {
    private var directory: String!

    override func setUp() async throws {
        directory = NSTemporaryDirectory() + "reel-picture-\(UUID().uuidString)"
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func makeModel() -> (PlayerModel, ScriptedEngine) {
        let engine = ScriptedEngine()
        let positions = ResumePositions(file: StateFile(path: directory + "/reel/positions.json"))
        return (PlayerModel(engine: engine, scheduler: ManualScheduler(), resumePositions: positions), engine)
    }

    func testTurningAndMirroringAreWhatIsSeen() {
        var picture = Picture()
        picture.turn(clockwise: true)
        XCTAssertEqual([picture.quarterTurns], [1])
        picture.mirror()
        picture.turn(clockwise: true)
        XCTAssertEqual(picture.quarterTurns, 0, "mirrored, a clockwise turn as seen is a counterclockwise one underneath")
        picture.turn(clockwise: false)
        picture.turn(clockwise: false)
        XCTAssertEqual(picture.quarterTurns, 2)
        for _ in 0..<2 { picture.turn(clockwise: true) }
        picture.mirror()
        XCTAssertEqual(picture, Picture())
    }

    func testAdjustmentsReachTheEngineWithinTheirRanges() async {
        let (model, engine) = makeModel()
        model.open(["file:///clips/a.mp4"])
        engine.startPlaying()
        engine.clear()
        var changes: [PlayerModel.Change] = []
        model.observe { changes.append($0) }
        model.adjustPicture { $0.colour.brightness = 3; $0.colour.contrast = -1; $0.colour.hue = .nan; $0.quarterTurns = 7 }
        XCTAssertEqual(model.picture.colour.brightness, 1, "brightness stops at 1")
        XCTAssertEqual(model.picture.colour.contrast, 0)
        XCTAssertEqual(model.picture.colour.hue, 0, "nonsense is neutral")
        XCTAssertEqual(model.picture.quarterTurns, 3)
        XCTAssertEqual(engine.commands, [.picture(model.picture)], "playing: no seek to make the frame again")
        XCTAssertEqual(changes, [.picture])
        model.adjustPicture { $0.colour.brightness = 1 }
        XCTAssertEqual(engine.commands.count, 1, "no change, nothing sent")

        model.setAudioDelay(0.3456)
        model.setAudioDelay(99)
        XCTAssertEqual(engine.commands.suffix(2), [.audioDelay(0.346), .audioDelay(5)], "to the millisecond, at most 5 s")
        model.setVolume(9)
        XCTAssertEqual(model.volume, 1.5, "volume goes to 150 %")
    }

    func testAPausedFrameIsMadeAgainForColoursAndDeinterlacingNotForATurn() async {
        let (model, engine) = makeModel()
        model.open(["file:///clips/a.mp4"])
        engine.startPlaying()
        engine.send(.position(12))
        model.pause()
        engine.send(.state(.paused))
        engine.clear()
        model.adjustPicture { $0.turn(clockwise: true) }
        model.adjustPicture { $0.aspect = .wide }
        XCTAssertFalse(engine.commands.contains { if case .seek = $0 { true } else { false } }, "the view turns the frame shown")
        model.adjustPicture { $0.colour.saturation = 0 }
        XCTAssertEqual(engine.commands.last, .seek(12, accurate: true), "colours apply as frames are made: made again")
        engine.send(.seekDone(12))
        engine.clear()
        model.adjustPicture { $0.deinterlacing = .forced }
        XCTAssertEqual(engine.commands.last, .seek(12, accurate: true))
    }

    func testTheCommandLineTakesAnAudioDelayAndRefusesNonsense() {
        XCTAssertEqual(CommandLineOptions(enqueue: false, repeatEach: nil, gap: nil, rate: nil, audioDelay: "-0.25").audioDelay, -0.25)
        XCTAssertNil(CommandLineOptions(enqueue: false, repeatEach: nil, gap: nil, rate: nil, audioDelay: "0.3").problem)
        XCTAssertEqual(CommandLineOptions(enqueue: false, repeatEach: nil, gap: nil, rate: nil, audioDelay: "9").problem,
                       "--audio-delay must be a number of seconds from -5 to 5 (got 9.0).")
        XCTAssertEqual(CommandLineOptions(enqueue: false, repeatEach: nil, gap: nil, rate: nil, audioDelay: "late").problem,
                       "--audio-delay needs a number, not “late”.")
    }

    func testEachFileOpensAgainWithItsPictureAndDelay() async {
        let (model, engine) = makeModel()
        model.open(["file:///phone/portrait.mp4", "file:///tv/news.ts"])
        engine.startPlaying()
        model.adjustPicture { $0.turn(clockwise: true); $0.aspect = .standard; $0.colour.brightness = 0.2 }
        model.setAudioDelay(0.36)
        let turned = model.picture
        model.next()
        engine.startPlaying()
        XCTAssertEqual(model.picture, turned, "a file with nothing kept carries the choices over, as the speed does")
        model.setPicture(Picture())
        model.setAudioDelay(0)
        model.previous()
        engine.startPlaying()
        XCTAssertEqual(model.picture, turned, "the first file as it was left")
        XCTAssertEqual(model.audioDelay, 0.36)
        XCTAssertTrue(engine.commands.contains(.picture(turned)) && engine.commands.contains(.audioDelay(0.36)))

        let (again, engine2) = makeModel()  // a new run reads the file back
        again.open(["file:///phone/portrait.mp4"])
        XCTAssertEqual(again.picture, turned)
        XCTAssertEqual(again.audioDelay, 0.36)
        XCTAssertTrue(engine2.commands.contains(.picture(turned)))
    }
}
