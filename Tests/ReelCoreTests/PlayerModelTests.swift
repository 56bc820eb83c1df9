// SPDX-License-Identifier: GPL-3.0-or-later
import ReelCore
import ReelModelTestSupport
import XCTest

@MainActor
final class PlayerModelTests: XCTestCase {
    private var engine: ScriptedEngine!
    private var model: PlayerModel!
    private var scheduler: ManualScheduler!
    private var changes: [PlayerModel.Change] = []

    override func setUp() async throws {
        engine = ScriptedEngine()
        scheduler = ManualScheduler()
        model = PlayerModel(engine: engine, scheduler: scheduler)
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
        XCTAssertEqual(engine.commands, [.restart])
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
        XCTAssertEqual(model.volume, 1.5, "past 100 % with the limiter, to 150 %")
        model.setVolume(.infinity)
        XCTAssertEqual(model.volume, 1.5)
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
        // The failed item stays in sight a moment, its error shown, before the queue moves on.
        XCTAssertEqual(model.currentItem?.uri, "file:///bad.mp4")
        XCTAssertEqual(model.status, .failed(error))
        scheduler.advance(by: PlayerModel.errorDwell - 0.1)
        XCTAssertEqual(model.currentItem?.uri, "file:///bad.mp4")
        scheduler.advance(by: 0.1)
        XCTAssertEqual(model.currentItem?.uri, "file:///good.mp4")
        XCTAssertEqual(model.status, .loading)
    }

    func testAUserChoiceDuringTheErrorDwellIsKept() async {
        model.open(["file:///bad.mp4", "file:///b.mp4", "file:///c.mp4"])
        engine.send(.error(PlaybackError(kind: .notMedia, message: "bad")))
        model.playItem(id: model.queue.items[2].id)
        scheduler.advance(by: PlayerModel.errorDwell)
        XCTAssertEqual(model.currentItem?.uri, "file:///c.mp4", "the skip after the error does not override the user")
        engine.send(.error(PlaybackError(kind: .notMedia, message: "bad too")))
        model.stop()
        scheduler.advance(by: PlayerModel.errorDwell)
        XCTAssertEqual(model.currentItem?.uri, "file:///c.mp4", "nor a stop")
    }

    func testAStreamThatStopsSendingIsGivenUpInWords() async {
        model.bufferingTimeout = 6
        model.open(["http://127.0.0.1/stalls.webm", "file:///next.mp4"])
        scheduler.advance(by: 5.9)
        XCTAssertEqual(model.status, .loading, "connecting, not yet given up")
        engine.startPlaying(duration: 60)
        engine.send(.position(1), .position(2))
        engine.send(.state(.buffering), .buffering(percent: 30))
        // The watchdog looks twice a second: the limit is met within half a second of it.
        scheduler.advance(by: 5.4)
        XCTAssertEqual(model.status, .buffering(percent: 30))
        engine.clear()
        scheduler.advance(by: 1.0)
        guard case .failed(let error) = model.status else { return XCTFail("given up, not \(model.status)") }
        XCTAssertEqual(error.kind, .network)
        XCTAssertTrue(error.message.contains("stalls.webm") && error.message.contains("fast enough"), error.message)
        XCTAssertEqual(engine.commands.first, .stop)
        scheduler.advance(by: PlayerModel.errorDwell)
        XCTAssertEqual(model.currentItem?.uri, "file:///next.mp4", "the queue moves on")
    }

    func testAStreamThatNeverAnswersIsGivenUp() async {
        model.bufferingTimeout = 6
        model.open(["http://127.0.0.1/silent.webm"])
        scheduler.advance(by: 6)
        guard case .failed(let error) = model.status else { return XCTFail("given up, not \(model.status)") }
        XCTAssertTrue(error.message.contains("did not answer"), error.message)
    }

    func testALocalFileThatNeverStartsFailsInWordsAfterTenSeconds() async {
        model.bufferingTimeout = 60
        model.open(["file:///v/damaged.mp4"])
        engine.clear()
        scheduler.advance(by: 9.9)
        XCTAssertEqual(model.status, .loading, "a local file gets 10 s, whatever the network timeout")
        scheduler.advance(by: 0.2)
        guard case .failed(let error) = model.status else { return XCTFail("given up, not \(model.status)") }
        XCTAssertEqual(error.message, "“damaged.mp4” could not be opened; it may be damaged or incomplete.")
        XCTAssertEqual(engine.commands, [.stop])
    }

    /// GstPlay reports "buffering" from play to preroll; a local file that takes seconds to
    /// preroll (a disk waking up; the ASan build takes up to 4 s) is loading, not stalled.
    func testALocalFileSlowToPrerollIsLoadingNotStalled() async {
        model.open(["file:///v/a.mp4"])
        engine.clear()
        engine.send(.state(.buffering), .buffering(percent: 0))
        XCTAssertEqual(model.status, .loading)
        scheduler.advance(by: 6)
        XCTAssertEqual(engine.commands, [], "no stall recovery while it prerolls")
        engine.send(.state(.paused), .state(.playing), .position(0.1))
        XCTAssertEqual(model.status, .playing)
        XCTAssertEqual(model.stallRecoveries, 0)
    }

    /// A seek takes seconds to settle under a sanitizer or from a slow disk: no stall until
    /// `seekTimeout` without it landing; then the same recoveries.
    func testASlowSeekIsGivenLongerBeforeItIsAStall() async {
        openAndPlay(["file:///v/a.mp4"])
        engine.send(.position(7))
        scheduler.advance(by: 1.5)
        model.seek(to: 20)
        engine.clear()
        scheduler.advance(by: 5.5)
        XCTAssertEqual(engine.commands, [], "a seek settling for 5.5 s is not a stall")
        scheduler.advance(by: 0.5)
        XCTAssertEqual(engine.commands, [.seek(20, accurate: true), .play], "6 s without landing is")
        XCTAssertEqual(model.stallRecoveries, 1)
    }

    /// A pause asked for while GstPlay was stuck settling is kept by the recovery's seek.
    func testAStallRecoveryKeepsAPause() async {
        openAndPlay(["file:///v/a.mp4"])
        engine.send(.position(7), .state(.buffering))
        model.pause()
        engine.clear()
        scheduler.advance(by: 2.1)
        XCTAssertEqual(engine.commands, [.seek(7, accurate: true), .pause])
        engine.clear()
        scheduler.advance(by: 2.0)
        XCTAssertEqual(engine.commands, [.load("file:///v/a.mp4"), .seek(7, accurate: true), .rate(1), .pause])
    }

    func testALocalFileThatStartsIsNotTimedOut() async {
        model.open(["file:///v/a.mp4"])
        engine.send(.state(.paused))
        scheduler.advance(by: 0.5)
        engine.send(.state(.playing))
        for second in 1...10 {
            engine.send(.position(Seconds(second)))
            scheduler.advance(by: 1)
        }
        XCTAssertEqual(model.status, .playing)
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
        XCTAssertEqual(engine.commands.first, .restart)
    }

    func testRemovingThePlayingItemStopsCleanly() async {
        openAndPlay(["file:///a.mp4", "file:///b.mp4"])
        model.removeItem(id: model.currentItem!.id)
        XCTAssertEqual(engine.commands, [.stop])
        XCTAssertNil(model.currentItem)
        XCTAssertEqual(model.status, .idle)
        XCTAssertEqual(model.queue.items.map(\.uri), ["file:///b.mp4"])
    }

    func testLoopOneItemRestartsItWithoutReloading() async {
        openAndPlay(["file:///a.mp4", "file:///b.mp4"])
        model.setLoopMode(.item)
        engine.send(.endOfStream)
        XCTAssertEqual(model.currentItem?.uri, "file:///a.mp4")
        XCTAssertEqual(engine.commands, [.restart])
        XCTAssertTrue(changes.contains(.seeked(0)), "MPRIS clients learn of the jump back")
    }

    /// The language learner's loop: each item twice, a gap of 1.5 s after every play.
    func testRepeatEachWithAGapPlaysEveryItemNTimesAndWaitsBetween() async {
        model.setRepeatEach(2)
        model.setGap(1.5)
        openAndPlay(["file:///a.mp4", "file:///b.mp4"], duration: 4)
        var plays: [String] = []
        model.observe { if case .played(let item) = $0 { plays.append(item.uri) } }

        engine.send(.endOfStream, .state(.stopped))
        XCTAssertEqual(model.gapRemaining, 1.5)
        XCTAssertFalse(model.canControlTransport)
        XCTAssertEqual(model.status, .playing, "the queue still plays during the gap")
        XCTAssertEqual(engine.commands, [.pause])
        model.togglePlayPause()
        model.seek(to: 1)
        XCTAssertEqual(engine.commands, [.pause], "the transport waits during the gap")
        scheduler.advance(by: 0.5)
        XCTAssertEqual(model.gapRemaining, 1, "counts down in whole seconds")
        scheduler.advance(by: 0.99)
        XCTAssertNotNil(model.gapRemaining)
        scheduler.advance(by: 0.02)
        XCTAssertNil(model.gapRemaining)
        XCTAssertEqual(engine.commands.last, .restart, "second play of a")
        XCTAssertEqual(model.currentItem?.uri, "file:///a.mp4")
        engine.send(.seekDone(0), .state(.playing))

        engine.send(.endOfStream)
        scheduler.advance(by: 1.5)
        XCTAssertEqual(model.currentItem?.uri, "file:///b.mp4", "then the next item")
        engine.startPlaying(duration: 4)
        engine.send(.endOfStream)
        scheduler.advance(by: 1.5)
        engine.send(.seekDone(0), .state(.playing), .endOfStream)
        XCTAssertEqual(model.status, .ended, "no gap after the very last play")
        XCTAssertNil(model.gapRemaining)
        XCTAssertEqual(plays, ["file:///a.mp4", "file:///a.mp4", "file:///b.mp4", "file:///b.mp4"])
    }

    func testNextDuringTheGapSkipsTheWait() async {
        model.setGap(5)
        openAndPlay(["file:///a.mp4", "file:///b.mp4"])
        engine.send(.endOfStream)
        XCTAssertNotNil(model.gapRemaining)
        model.next()
        XCTAssertNil(model.gapRemaining)
        XCTAssertEqual(model.currentItem?.uri, "file:///b.mp4")
        scheduler.advance(by: 10)
        XCTAssertEqual(engine.commands.filter { if case .load = $0 { return true } else { return false } }.count, 1,
                       "the cancelled gap does not move on a second time")
    }

    func testRepeatAndGapAreClamped() async {
        model.setRepeatEach(0)
        XCTAssertEqual(model.repeatEach, 1)
        model.setRepeatEach(1000)
        XCTAssertEqual(model.repeatEach, 100)
        model.setGap(-1)
        XCTAssertEqual(model.gapLength, 0)
        model.setGap(.nan)
        XCTAssertEqual(model.gapLength, 0)
        model.setGap(100)
        XCTAssertEqual(model.gapLength, 60)
    }

    /// The end of the stream that never comes (seen with GStreamer 1.22): a stall at the very
    /// end is the item's end, and the queue moves on.
    func testAStallAtTheVeryEndIsTheItemsEnd() async {
        openAndPlay(["file:///a.mp4", "file:///b.mp4"])
        engine.send(.duration(30), .position(29.9))
        engine.clear()
        scheduler.advance(by: 2.1)
        XCTAssertTrue(changes.contains(.stallRecovery(.end, at: 29.9)))
        XCTAssertEqual(engine.commands.first, .load("file:///b.mp4"), "on to the next item, not a seek")
    }

    func testAStalledItemIsSeekedThenReloadedThenFails() async {
        openAndPlay(["file:///a.mp4", "file:///b.mp4"])
        model.continueAfterErrors = false
        engine.send(.position(7))
        XCTAssertEqual(model.status, .playing)
        XCTAssertEqual(scheduler.pendingCount, 1, "the watchdog runs while playing")
        scheduler.advance(by: 1.9)
        XCTAssertEqual(engine.commands, [], "under 2 s without progress is not a stall")
        scheduler.advance(by: 0.2)
        XCTAssertEqual(engine.commands, [.seek(7, accurate: true), .play])
        XCTAssertTrue(changes.contains(.stallRecovery(.flushingSeek, at: 7)))
        engine.clear()
        scheduler.advance(by: 2.0)
        XCTAssertEqual(engine.commands, [.load("file:///a.mp4"), .seek(7, accurate: true), .rate(1), .play])
        XCTAssertTrue(changes.contains(.stallRecovery(.reload, at: 7)))
        engine.send(.state(.paused), .state(.playing), .seekDone(7))
        scheduler.advance(by: 2.0)
        guard case .failed = model.status else { return XCTFail("a third stall gives up in words, not \(model.status)") }
        XCTAssertEqual(model.stallRecoveries, 3)
    }

    /// GstPlay can report "buffering" for a local file and stay there while the pipeline plays
    /// on without position updates: that is a stall to recover from, never a network timeout.
    func testALocalFileStuckBufferingIsRecoveredNotTimedOut() async {
        model.bufferingTimeout = 6
        openAndPlay(["file:///a.mp4"])
        engine.send(.position(7), .state(.buffering))
        XCTAssertEqual(model.status, .buffering(percent: 0))
        scheduler.advance(by: 2.1)
        XCTAssertEqual(engine.commands, [.seek(7, accurate: true), .play], "a flushing seek brings GstPlay's state back")
        engine.send(.state(.paused), .state(.playing), .seekDone(7), .position(7.1))
        XCTAssertEqual(model.status, .playing)
        engine.send(.state(.buffering))
        scheduler.advance(by: 1)
        engine.send(.state(.playing))
        for tick in 1...50 {
            engine.send(.position(7.1 + Double(tick) * 0.1))
            scheduler.advance(by: 0.1)
        }
        XCTAssertEqual(model.stallRecoveries, 1, "a short settle after a seek is no stall")
        XCTAssertEqual(model.status, .playing)
    }

    func testProgressKeepsTheWatchdogQuiet() async {
        openAndPlay()
        for tick in 1...50 {
            engine.send(.position(Double(tick) * 0.1))
            scheduler.advance(by: 0.1)
        }
        model.pause()
        engine.send(.state(.paused))
        scheduler.advance(by: 10)
        XCTAssertEqual(model.stallRecoveries, 0, "paused is not stalled")
        XCTAssertFalse(engine.commands.contains(.load("file:///v/a.mp4")))
    }

    func testItemsCanBeMovedAndTheCurrentOneStaysCurrent() async {
        openAndPlay(["file:///a.mp4", "file:///b.mp4", "file:///c.mp4"])
        let ids = model.queue.items.map(\.id)
        model.moveItem(id: ids[2], before: ids[0])
        XCTAssertEqual(model.queue.items.map(\.uri), ["file:///c.mp4", "file:///a.mp4", "file:///b.mp4"])
        XCTAssertEqual(model.currentItem?.uri, "file:///a.mp4")
        model.moveItem(id: ids[0], before: nil)
        XCTAssertEqual(model.queue.items.map(\.uri), ["file:///c.mp4", "file:///b.mp4", "file:///a.mp4"])
        XCTAssertEqual(model.queue.nextIndex, nil, "the order follows the list")
        XCTAssertTrue(changes.contains(.queue))
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

    func testUnseenVideoIsDetachedButAudioOnlyMediaAndSilentVideosAreLeftAlone() {
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
        engine.clear()
        model.open(["file:///silent.mp4"])
        engine.send(.mediaInfo(MediaInfo(hasVideo: true, hasAudio: false)))
        model.setVideoVisible(false)
        XCTAssertFalse(engine.commands.contains(.video(false)), "a silent video keeps its branch, whose sink keeps the time")
    }
}
