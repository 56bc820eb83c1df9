// SPDX-License-Identifier: GPL-3.0-or-later
import CGtk
import CShims
import Foundation
import ReelCore
import ReelDiagnostics
@testable import ReelEngine
import ReelGLib
import ReelTestSupport
import XCTest

/// The engine and model through real GStreamer pipelines on generated media.
@MainActor
final class PlaybackTests: EngineTestCase {
    func testPlaysToTheEnd() async {
        let player = PlayerHarness()
        let frames = FrameCounter(player.engine.frameSink)
        player.open("clip-vp9.webm")
        player.waitForPlaying()
        player.model.setRate(2)
        waitUntil("the end", timeout: 10) { player.model.status == .ended }
        XCTAssertEqual(player.model.position, player.model.duration ?? -1, accuracy: 0.01)
        XCTAssertGreaterThan(frames.received, 30, "video frames reached the sink")
    }

    func testDurationMatchesTheFileAndIsNeverZeroWhileUnknown() async {
        let player = PlayerHarness()
        player.open("clip-h264.mp4")
        XCTAssertNil(player.model.duration, "unknown at first, not 0")
        player.waitForPlaying()
        XCTAssertEqual(player.model.duration ?? 0, 5, accuracy: 0.1)
        XCTAssertFalse(player.changes.contains(.duration) && player.model.duration == 0)
    }

    func testPositionAdvancesMonotonicallyAndFollowsTheRate() async {
        let player = PlayerHarness()
        player.open("tone-30s.webm")
        player.waitForPlaying()
        var positions: [Seconds] = []
        let observation = player.model.observe { if $0 == .position { positions.append(player.model.position) } }
        defer { observation.cancel() }

        func advance(over seconds: TimeInterval) -> Double {
            let start = player.model.position, startTime = Date()
            runMainLoop(for: seconds)
            return (player.model.position - start) / Date().timeIntervalSince(startTime)
        }
        let normal = advance(over: 2)
        XCTAssertGreaterThanOrEqual(positions.count, 8, "at least 4 updates a second")
        XCTAssertEqual(positions, positions.sorted(), "position never goes back while playing")
        let changedAt = player.model.position
        player.model.setRate(1.5)
        // The position follows what is heard: the sound already buffered (the device's 200 ms)
        // plays at the old speed. Measured from once it has played out.
        waitUntil("the sound buffered before the change played out") { player.model.position > changedAt + 0.3 }
        let faster = advance(over: 2)
        XCTAssertEqual(normal, 1, accuracy: 0.15)
        XCTAssertEqual(faster / normal, 1.5, accuracy: 0.15)
    }

    func testAccurateSeekLandsWithin50ms() async {
        let player = PlayerHarness()
        player.open("tone-30s.webm")
        player.waitForPlaying()
        for target in [12.34, 3.21, 25.0] {
            player.model.seek(to: target)
            waitUntil("seek to \(target)") { player.seekedPositions.last.map { abs($0 - target) < 1 } ?? false }
            XCTAssertEqual(player.seekedPositions.last ?? -1, target, accuracy: 0.05)
        }
        waitUntil("position ticks resume after the seek") { player.model.position > 25.05 }
        XCTAssertEqual(player.model.status, .playing, "a seek keeps playing")
    }

    /// GstPlay pauses the pipeline to seek while playing and reports "buffering" until it plays
    /// again; the window and MPRIS clients must see it play on.
    func testASeekWhilePlayingKeepsPlaying() async { checkPlayingThroughFourSeeks(accurate: true) }

    /// The slider's keyframe seeks while dragging go past GstPlay, which sees the pipeline settle
    /// again after each one: that is not buffering either.
    func testScrubbingWhilePlayingKeepsPlaying() async { checkPlayingThroughFourSeeks(accurate: false) }

    private func checkPlayingThroughFourSeeks(accurate: Bool, file: StaticString = #filePath, line: UInt = #line) {
        let player = PlayerHarness()
        player.open("tone-30s.webm")
        player.waitForPlaying()
        let before = player.changes.count
        for target in [15.0, 3.0, 24.0, 9.0] {
            player.model.seek(to: target, accurate: accurate)
            // Keyframes are a second apart: a tick from the old place is further off than that.
            waitUntil("playing on from near \(target)", file: file, line: line) {
                player.model.position != target && abs(player.model.position - target) < 1.5
            }
        }
        XCTAssertFalse(player.changes[before...].contains(.status), "the status stayed playing through four seeks", file: file, line: line)
        XCTAssertEqual(player.model.status, .playing, file: file, line: line)
    }

    /// Scrubbing while paused stays paused (GstPlay reports nothing for it), and playing then
    /// plays on from where the slider was left.
    func testScrubbingWhilePausedThenPlaying() async {
        let player = PlayerHarness()
        player.open("tone-30s.webm")
        player.waitForPlaying()
        player.model.pause()
        waitUntil("paused") { player.model.status == .paused }
        let before = player.changes.count
        for target in [15.0, 3.0, 24.0] { player.model.seek(to: target, accurate: false) }
        player.model.play()
        waitUntil("playing on from near 24") {
            player.model.status == .playing && player.model.position != 24 && abs(player.model.position - 24) < 1.5
        }
        XCTAssertEqual(player.changes[before...].filter { $0 == .status }.count, 1, "one change of status: to playing")
    }

    /// An item's first frame is drawn before GstPlay's reports that came with it are taken in:
    /// they wait for the repaint (a window's; here the test's own), and no longer.
    func testGstPlaysReportsWaitForAFramesRepaint() async {
        XCTAssertNotEqual(gtk_init_check(), 0, "GTK starts")
        let player = PlayerHarness()
        let reports = g_main_context_find_source_by_user_data(nil, player.engine.adapter.raw)
        XCTAssertNotNil(reports, "GstPlay's reports come through a source of the main loop")
        player.open("clip-h264.mp4")
        let paintable = player.engine.frameSink.paintable.pointer
        waitUntil("the first frame") { reel_video_paintable_get_texture(paintable) != nil }
        XCTAssertEqual(g_source_get_priority(reports), GDK_PRIORITY_REDRAW + 1, "they wait while the frame waits for its repaint")
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(gcast(paintable), gcast(snapshot), 64, 36)
        if let node = gtk_snapshot_free_to_node(snapshot) { gsk_render_node_unref(node) }
        XCTAssertEqual(g_source_get_priority(reports), G_PRIORITY_DEFAULT, "and go ahead once it is drawn")
        player.waitForPlaying()
    }

    /// A pause that lands at any moment of a seek — before GstPlay pauses for it, while it is
    /// paused for it, after it is done — leaves the player paused, and says so.
    func testAPauseDuringASeekIsReported() async {
        let player = PlayerHarness()
        player.open("tone-30s.webm")
        player.waitForPlaying()
        for (i, delay) in [0.0, 0.005, 0.01, 0.02, 0.04, 0.08].enumerated() {
            player.model.seek(to: Double(5 + 3 * i))
            runMainLoop(for: delay)
            player.model.pause()
            waitUntil("paused, \(Int(delay * 1000)) ms into a seek") { player.model.status == .paused }
            let position = player.model.position
            runMainLoop(for: 0.3)  // an observation window: the position must not move over it
            XCTAssertEqual(player.model.position, position, accuracy: 0.01, "it really is paused")
            player.model.play()
            waitUntil("playing again") { player.model.status == .playing }
        }
    }

    func testRateSurvivesPausePlaySeekAndItemChanges() async {
        let player = PlayerHarness()
        player.open("tone-30s.webm")
        player.waitForPlaying()
        player.model.setRate(1.8)
        player.model.pause()
        waitUntil("paused") { player.model.status == .paused }
        player.model.play()
        waitUntil("playing") { player.model.status == .playing }
        player.model.seek(to: 10)
        waitUntil("seeked") { !player.seekedPositions.isEmpty }
        XCTAssertEqual(player.model.rate, 1.8)
        // The rate, not how long the seek takes to resume (slow under ThreadSanitizer): from the first tick past it.
        let landed = player.model.position
        waitUntil("advancing after the seek") { player.model.position > landed }
        let start = player.model.position, startTime = Date()
        runMainLoop(for: 1.5)
        XCTAssertEqual((player.model.position - start) / Date().timeIntervalSince(startTime), 1.8, accuracy: 0.2,
                       "the pipeline really plays at 1.8× after pause, play and seek")

        player.model.open([Paths.mediaURI("clip-vp9.webm")])
        player.waitForPlaying()
        // As above: from the first tick past the start.
        let started = player.model.position
        waitUntil("the next item advancing") { player.model.position > started }
        let start2 = player.model.position, startTime2 = Date()
        runMainLoop(for: 1.5)
        XCTAssertEqual((player.model.position - start2) / Date().timeIntervalSince(startTime2), 1.8, accuracy: 0.2,
                       "the next item plays at the same rate")
    }

    func testPlayAfterTheEndStartsOver() async {
        let player = PlayerHarness()
        player.open("short-1.webm")
        player.waitForPlaying()
        waitUntil("the end") { player.model.status == .ended }
        player.model.play()
        waitUntil("playing again") { player.model.status == .playing }
        XCTAssertLessThan(player.model.position, 1.0)
        waitUntil("advancing") { player.model.position > 0.3 }
    }

    func testSkipClampsToTheItem() async {
        let player = PlayerHarness()
        player.open("tone-30s.webm")
        player.waitForPlaying()
        player.model.skip(by: -10)
        waitUntil("seek to 0") { !player.seekedPositions.isEmpty }
        XCTAssertEqual(player.seekedPositions.last ?? -1, 0, accuracy: 0.05)
        player.model.skip(by: 10)
        waitUntil("seek to 10") { player.seekedPositions.count == 2 }
        XCTAssertEqual(player.seekedPositions.last ?? -1, 10, accuracy: 0.3)
        player.model.skip(by: 60)
        XCTAssertEqual(player.model.status, .ended, "skipping past the end ends the item")
    }

    func testVideoCanBeTurnedOffWithoutStoppingSound() async {
        let player = PlayerHarness()
        let frames = FrameCounter(player.engine.frameSink)
        player.open("tone-30s.webm")
        player.waitForPlaying()
        waitUntil("frames") { frames.received > 10 }
        player.model.setVideoVisible(false)
        // The branch is detached a second later (GstPlayEngine.applyVideoTrackSwitch); frames
        // already on their way may still land.
        waitUntil("video branch detached", timeout: 3) { !player.engine.isVideoBranchAttached }
        var received = frames.received, since = Date()
        waitUntil("frames stopped arriving (none for 0.5 s)") {
            if frames.received != received { (received, since) = (frames.received, Date()) }
            return Date().timeIntervalSince(since) >= 0.5
        }
        let before = frames.received
        let position = player.model.position
        runMainLoop(for: 1.5)  // an observation window: no frame may arrive over it, and the sound plays on
        XCTAssertEqual(frames.received, before, "no frames decoded while hidden")
        XCTAssertGreaterThan(player.model.position, position + 1, "audio keeps the clock going")
        XCTAssertEqual(player.model.status, .playing)
        player.model.setVideoVisible(true)
        waitUntil("frames again", timeout: 3) { frames.received > before + 5 }
    }

    /// playbin 1.22 aborts when the video track is switched while an item changes source groups
    /// (`VideoBranch`): an attach asked for as the next item loads waits until it plays.
    func testAVideoSwitchWaitsForTheLoadingItemToSettle() async {
        let player = PlayerHarness()
        let released = Locked(false)
        player.engine.onMemoryReleased = { released.withLock { $0 = true } }
        player.open("tone-30s.webm")
        player.waitForPlaying()
        player.model.setVideoVisible(false)
        // Detached, and the spacing after that switch over (its end gives the memory back).
        waitUntil("video branch detached, spacing over", timeout: 5) {
            !player.engine.isVideoBranchAttached && released.withLock { $0 }
        }
        player.open("clip-h264.mp4")
        player.model.setVideoVisible(true)
        var statusAtAttach: PlaybackStatus?
        waitUntil("video branch attached") {
            if player.engine.isVideoBranchAttached { statusAtAttach = player.model.status }
            return statusAtAttach != nil
        }
        // Not while loading; attaching makes playbin preroll again for a moment, which GstPlay
        // reports as buffering, so the model may already say so.
        XCTAssertTrue(statusAtAttach == .playing || statusAtAttach == .buffering(percent: 0),
                      "attached while the model said \(String(describing: statusAtAttach))")
    }

    /// A relink while a sink waits for preroll deadlocks playsink 1.22 (`VideoBranch`): paused,
    /// the branch stays as it is until playing resumes.
    func testTheVideoBranchIsSwitchedOnlyWhilePlaying() async {
        let player = PlayerHarness()
        player.open("tone-30s.webm")
        player.waitForPlaying()
        player.model.pause()
        waitUntil("paused") { player.model.status == .paused }
        player.model.setVideoVisible(false)
        // The subject is a delay: a detach would come `detachDelay` (1 s) after it was asked
        // for, so nothing must happen over all of it, and a margin.
        runMainLoop(for: VideoBranch.detachDelay + 1.5)
        XCTAssertTrue(player.engine.isVideoBranchAttached, "no switch while paused")
        player.model.play()
        waitUntil("detached once playing", timeout: 4) { !player.engine.isVideoBranchAttached }
    }

    /// Restored while paused, the window gets the frame at the position (from a pipeline of its
    /// own: the branch stays detached until playing resumes), and a seek then brings the new one.
    func testRestoredWhilePausedShowsTheFrameAtThePosition() async {
        let player = PlayerHarness()
        let paintable = player.engine.frameSink.paintable.pointer
        var kept: [OpaquePointer] = []
        defer { kept.forEach { g_object_unref(UnsafeMutableRawPointer($0)) } }
        /// The texture shown, kept alive so that a new one cannot take its address.
        func shown() -> OpaquePointer? {
            guard let texture = reel_video_paintable_get_texture(paintable) else { return nil }
            kept.append(OpaquePointer(g_object_ref(UnsafeMutableRawPointer(texture))))
            return texture
        }
        player.open("tone-30s.webm")
        player.waitForPlaying()
        player.model.setVideoVisible(false)
        waitUntil("detached", timeout: 4) { !player.engine.isVideoBranchAttached }
        player.model.pause()
        waitUntil("paused") { player.model.status == .paused }
        let minimized = shown()
        player.model.setVideoVisible(true)
        waitUntil("a still shown", timeout: 3) { reel_video_paintable_get_texture(paintable) != minimized }
        let restored = shown()
        XCTAssertNotNil(restored)
        player.model.seek(to: 20)
        waitUntil("the still at the new position", timeout: 3) { reel_video_paintable_get_texture(paintable) != restored }
        XCTAssertFalse(player.engine.isVideoBranchAttached, "no switch while paused")
        player.model.play()
        waitUntil("attached once playing", timeout: 4) { player.engine.isVideoBranchAttached }
    }

    /// Seeks, pauses and item changes racing video switches: with GStreamer 1.22 a flush or a
    /// state change during playsink's relink deadlocked the pipeline within a few rounds (the
    /// storm test's hang). Each command here comes the moment a switch has been made.
    func testSwitchesRacingSeeksPausesAndLoadsNeverHang() async {
        let player = PlayerHarness()
        player.open("subtitled.mkv")
        player.waitForPlaying()
        var random = SystemRandomNumberGenerator()
        for round in 0..<8 {
            let wanted = round % 2 == 1
            player.model.setVideoVisible(wanted)
            waitUntil("switched (round \(round))", timeout: 5) { player.engine.isVideoBranchAttached == wanted }
            switch round % 4 {  // seeks stay clear of the end, where switches wait
            case 0: player.model.seek(to: Double.random(in: 0..<20, using: &random))
            case 1: player.model.seek(to: Double.random(in: 0..<20, using: &random), accurate: false)
            case 2:
                player.model.pause()
                runMainLoop(for: Double.random(in: 0.001..<0.03, using: &random))
                player.model.play()
            default: player.open(round % 8 == 3 ? "tone-30s.webm" : "subtitled.mkv")
            }
            waitUntil("playing after round \(round)", timeout: 10) { player.model.status == .playing }
        }
        let position = player.model.position
        waitUntil("time goes on", timeout: 5) { player.model.position > position + 0.5 }
    }
}
