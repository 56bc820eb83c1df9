import ReelCore
import XCTest

@MainActor
final class PlayerModelTests: XCTestCase {
    private var engine: ScriptedEngine!
    private var model: PlayerModel!
    private var changes: [PlayerModel.Change] = []

    override func setUp() async throws {
        engine = ScriptedEngine()
        model = PlayerModel(engine: engine)
        changes = []
        model.observe { [unowned self] in self.changes.append($0) }
    }

    private func openAndPlay(_ uris: [String] = ["file:///v/a.mp4"], duration: Seconds = 60) {
        model.open(uris)
        engine.startPlaying(duration: duration)
        engine.clear()
        changes = []
    }

    func testOpeningLoadsAppliesTheRateAndPlays() async {
        model.setRate(1.8)
        engine.clear()
        model.open(["file:///v/a.mp4", "file:///v/b.mp4"])
        XCTAssertEqual(engine.commands, [.load("file:///v/a.mp4"), .rate(1.8), .play])
        XCTAssertEqual(model.status, .loading)
        XCTAssertNil(model.duration, "the length is unknown, not 0")
        XCTAssertEqual(model.queue.items.map(\.uri), ["file:///v/a.mp4", "file:///v/b.mp4"])
        engine.startPlaying()
        XCTAssertEqual(model.status, .playing)
        XCTAssertFalse(changes.contains(.status) && model.status == .paused, "no paused flicker while starting")
    }

    func testPrerollDoesNotShowPausedWhileStartingToPlay() async {
        model.open(["file:///v/a.mp4"])
        var statuses: [PlaybackStatus] = []
        model.observe { [unowned self] in if $0 == .status { statuses.append(self.model.status) } }
        engine.send(.state(.paused), .state(.playing))
        XCTAssertEqual(statuses, [.playing])
    }

    func testTitleFallsBackToTheFileName() async {
        model.open(["file:///videos/My%20Trip.final.mp4"])
        XCTAssertEqual(model.title, "My Trip.final")
        engine.send(.mediaInfo(MediaInfo(title: "<b>A & B</b>")))
        XCTAssertEqual(model.title, "<b>A & B</b>", "titles are kept literally")
    }

    func testSeekClampsKeepsStateAndReportsSeekedOnce() async {
        openAndPlay()
        model.seek(to: 90)
        XCTAssertEqual(engine.commands, [.seek(60, accurate: true)])
        model.seek(to: -5)
        XCTAssertEqual(engine.commands.last, .seek(0, accurate: true))
        XCTAssertEqual(model.position, 0)
        engine.send(.position(30))
        XCTAssertEqual(model.position, 0, "stale ticks from before the seek do not pull the position back")
        engine.send(.seekDone(0))
        XCTAssertEqual(changes.filter { if case .seeked = $0 { return true }; return false }, [.seeked(0)])
        XCTAssertFalse(engine.commands.contains(.pause), "a seek keeps playing")
        XCTAssertEqual(model.status, .playing)
    }

    func testScrubbingSeeksAreNotAwaited() async {
        openAndPlay()
        model.seek(to: 20, accurate: false)
        XCTAssertEqual(engine.commands, [.seek(20, accurate: false)])
        engine.send(.position(20.5))
        XCTAssertEqual(model.position, 20.5)
    }

    func testSkipClampsAndEndsPastTheEnd() async {
        openAndPlay(duration: 30)
        engine.send(.position(5))
        model.skip(by: -10)
        XCTAssertEqual(engine.commands.last, .seek(0, accurate: true))
        engine.send(.seekDone(0))
        model.skip(by: 10)
        XCTAssertEqual(engine.commands.last, .seek(10, accurate: true))
        engine.send(.seekDone(10))
        model.skip(by: 25)
        XCTAssertEqual(model.status, .ended)
        XCTAssertEqual(model.position, 30)
    }

    func testSkipPastTheEndGoesToTheNextItem() async {
        openAndPlay(["file:///a.mp4", "file:///b.mp4"], duration: 30)
        model.skip(by: 40)
        XCTAssertEqual(model.currentItem?.uri, "file:///b.mp4")
        XCTAssertEqual(engine.commands.first, .load("file:///b.mp4"))
    }

    func testPlayAfterTheEndStartsOver() async {
        openAndPlay(duration: 30)
        engine.send(.endOfStream, .state(.stopped))
        XCTAssertEqual(model.status, .ended)
        engine.clear()
        model.play()
        XCTAssertEqual(engine.commands, [.seek(0, accurate: true), .rate(1), .play])
        XCTAssertEqual(model.position, 0)
        engine.send(.seekDone(0), .state(.playing))
        XCTAssertEqual(model.status, .playing)
    }

    func testRateIsClampedAndKept() async {
        openAndPlay()
        model.setRate(10)
        XCTAssertEqual(model.rate, 4)
        model.setRate(0.1)
        XCTAssertEqual(model.rate, 0.25)
        model.setRate(.nan)
        XCTAssertEqual(model.rate, 0.25)
        model.pause()
        model.play()
        XCTAssertEqual(model.rate, 0.25)
        XCTAssertFalse(engine.commands.contains(.rate(1)), "play never resets the rate")
    }

    func testVolumeClamps() async {
        model.setVolume(-1)
        XCTAssertEqual(model.volume, 0)
        model.setVolume(3)
        XCTAssertEqual(model.volume, 1)
        model.setVolume(.infinity)
        XCTAssertEqual(model.volume, 1)
    }

    func testPreviousRestartsAfterThreeSecondsElseGoesBack() async {
        openAndPlay(["file:///a.mp4", "file:///b.mp4"])
        model.next()
        engine.startPlaying()
        engine.send(.position(5))
        engine.clear()
        model.previous()
        XCTAssertEqual(engine.commands, [.seek(0, accurate: true)])
        engine.send(.seekDone(0), .position(1))
        model.previous()
        XCTAssertEqual(model.currentItem?.uri, "file:///a.mp4")
    }

    func testAFailedItemIsReportedAndTheQueueMovesOn() async {
        model.open(["file:///bad.mp4", "file:///good.mp4"])
        let error = PlaybackError(kind: .notMedia, message: "“bad.mp4” is not a video Reel can read.")
        engine.send(.error(error))
        XCTAssertTrue(changes.contains(.failed(model.queue.items[0], error)))
        XCTAssertEqual(model.currentItem?.uri, "file:///good.mp4")
        XCTAssertEqual(model.status, .loading)
    }

    func testAFailedLastItemStaysFailed() async {
        model.open(["file:///bad.mp4"])
        engine.send(.error(PlaybackError(kind: .notFound, message: "gone")), .state(.stopped))
        XCTAssertEqual(model.status, .failed(PlaybackError(kind: .notFound, message: "gone")))
        engine.clear()
        model.play()
        XCTAssertEqual(engine.commands.first, .load("file:///bad.mp4"), "play retries the item")
    }

    func testStopThenPlayStartsOver() async {
        openAndPlay()
        engine.send(.position(12))
        model.stop()
        XCTAssertEqual(model.status, .stopped)
        XCTAssertEqual(model.position, 0)
        engine.send(.state(.stopped), .position(12))
        XCTAssertEqual(model.position, 0)
        engine.clear()
        model.play()
        XCTAssertEqual(engine.commands.first, .seek(0, accurate: true))
    }

    func testRemovingThePlayingItemStopsCleanly() async {
        openAndPlay(["file:///a.mp4", "file:///b.mp4"])
        model.removeItem(id: model.currentItem!.id)
        XCTAssertEqual(engine.commands, [.stop])
        XCTAssertNil(model.currentItem)
        XCTAssertEqual(model.status, .idle)
        XCTAssertEqual(model.queue.items.map(\.uri), ["file:///b.mp4"])
    }

    func testLoopOneItemRestartsIt() async {
        openAndPlay(["file:///a.mp4", "file:///b.mp4"])
        model.setLoopMode(.item)
        engine.send(.endOfStream)
        XCTAssertEqual(model.currentItem?.uri, "file:///a.mp4")
        XCTAssertEqual(engine.commands.first, .load("file:///a.mp4"))
    }

    func testLoopQueueWrapsAround() async {
        openAndPlay(["file:///a.mp4", "file:///b.mp4"])
        model.setLoopMode(.queue)
        model.next()
        engine.send(.endOfStream)
        XCTAssertEqual(model.currentItem?.uri, "file:///a.mp4")
    }

    func testObservationCanBeCancelled() async {
        var count = 0
        let observation = model.observe { _ in count += 1 }
        model.setVolume(0.5)
        observation.cancel()
        model.setVolume(0.6)
        XCTAssertEqual(count, 1)
    }

    func testUnseenVideoIsDetachedButAudioOnlyMediaAreLeftAlone() {
        openAndPlay()
        model.setVideoVisible(false)
        XCTAssertEqual(engine.commands, [.video(false)])
        model.setVideoVisible(false)
        XCTAssertEqual(engine.commands, [.video(false)], "no repeated switches")
        model.setVideoVisible(true)
        XCTAssertEqual(engine.commands.last, .video(true))
        engine.clear()
        model.open(["file:///song.ogg"])
        engine.send(.mediaInfo(MediaInfo(hasVideo: false, hasAudio: true)))
        model.setVideoVisible(false)
        model.setVideoVisible(true)
        XCTAssertFalse(engine.commands.contains(.video(false)), "audio-only media never get the video branch switched")
    }
}
