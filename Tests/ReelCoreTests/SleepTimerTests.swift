// SPDX-License-Identifier: GPL-3.0-or-later
import ReelCore
import ReelModelTestSupport
import XCTest

/// The sleep timer: a pause after a while or at the end of the item, the sound fading out over
/// the last 10 s, the volume set kept for the next play.
@MainActor
final class SleepTimerTests: XCTestCase {
    private var engine: ScriptedEngine!
    private var scheduler: ManualScheduler!
    private var model: PlayerModel!

    override func setUp() async throws {
        engine = ScriptedEngine()
        scheduler = ManualScheduler()
        model = PlayerModel(engine: engine, scheduler: scheduler)
        model.open(["file:///m/a.ogg", "file:///m/b.ogg"])
        engine.startPlaying(duration: 3600)
        model.setVolume(0.8)
        engine.clear()
    }

    /// The clock moves on with the position, as playing does (a still position is a stall).
    private func play(for seconds: Int) {
        for _ in 0..<seconds {
            engine.send(.position(model.position + 1))
            scheduler.advance(by: 1)
        }
    }

    private var volumes: [Double] {
        engine.commands.compactMap { if case .volume(let v) = $0 { return v } else { return nil } }
    }

    func testAfterAWhileTheSoundFadesAndPlaybackPauses() async {
        model.setSleep(.after(15 * 60))
        XCTAssertEqual(model.sleepRemaining, 900)
        engine.clear()
        play(for: 889)
        XCTAssertEqual(model.sleepRemaining, 11)
        XCTAssertEqual(volumes, [], "full volume until the last 10 s")
        play(for: 9)
        XCTAssertEqual(volumes.count, 8, "at 9, 8 … 2 s left")
        XCTAssertEqual(volumes.first ?? 0, 0.8 * 0.9, accuracy: 1e-9)
        XCTAssertEqual(volumes, volumes.sorted(by: >), "only ever quieter")
        XCTAssertEqual(model.status, .playing)
        // GstPlay tells each volume set; the fade's are not taken for the user's.
        engine.send(.volume(0.16))
        XCTAssertEqual(model.volume, 0.8)
        play(for: 2)
        XCTAssertEqual(volumes.last, 0, "silent, then paused")
        XCTAssertEqual(engine.commands.last, .pause)
        XCTAssertNil(model.sleep)
        XCTAssertEqual(model.volume, 0.8, "the volume set is the user's still")
        engine.send(.state(.paused))
        XCTAssertEqual(model.status, .paused, "sleeping is pausing")
        engine.clear()
        model.play()
        XCTAssertEqual(engine.commands, [.volume(0.8), .play], "woken at the volume set")
    }

    func testCancelledItNeverPausesAndTheFadeIsUndone() async {
        model.setSleep(.after(60))
        play(for: 55)
        model.setSleep(nil)
        XCTAssertEqual(volumes.last, 0.8, "the fade undone")
        engine.clear()
        play(for: 120)
        XCTAssertFalse(engine.commands.contains(.pause))
        XCTAssertEqual(volumes, [])
        XCTAssertEqual(model.status, .playing)
    }

    func testAtTheEndOfTheItemTheNextWaitsPausedAtItsStart() async {
        model.setSleep(.endOfItem)
        engine.clear()
        engine.send(.position(3590))
        XCTAssertEqual(volumes, [], "10 s before the end: not yet")
        engine.send(.position(3595))
        XCTAssertEqual(volumes.last ?? 0, 0.4, accuracy: 1e-9)
        engine.clear()
        engine.send(.endOfStream)
        XCTAssertEqual(model.currentItem?.uri, "file:///m/b.ogg")
        XCTAssertTrue(engine.commands.contains(.load("file:///m/b.ogg")))
        XCTAssertTrue(engine.commands.contains(.pause), "loaded paused")
        XCTAssertFalse(engine.commands.contains(.play))
        XCTAssertEqual(volumes, [0.8])
        XCTAssertNil(model.sleep)
    }

    func testNonsenseIsRefusedInWords() async {
        model.setSleep(.after(-5))
        XCTAssertNil(model.sleep)
        XCTAssertEqual(CommandLineOptions(enqueue: false, repeatEach: nil, gap: nil, rate: nil, sleep: "30").sleepMinutes, 30)
        for (text, words) in [("soon", "“soon”"), ("0", "--sleep"), ("2000", "--sleep"), ("nan", "--sleep")] {
            let options = CommandLineOptions(enqueue: false, repeatEach: nil, gap: nil, rate: nil, sleep: text)
            XCTAssertTrue(options.problem?.contains(words) ?? false, "\(text): \(options.problem ?? "no problem")")
        }
    }
}
