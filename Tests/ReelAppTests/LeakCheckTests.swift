// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// The short scenario meson_helpers/leak-check runs on an AddressSanitizer build of Reel
/// (REEL_EXECUTABLE): a bit of everything a session does, then a normal exit through MPRIS
/// Quit, which is when LeakSanitizer looks for memory nobody points to any more. This test
/// only drives Reel and checks it got to the end; reading LeakSanitizer's report is the
/// script's job. Skipped unless REEL_LEAK_CHECK=1: on the ordinary build it would prove nothing.
final class LeakCheckTests: XCTestCase {
    func testShortSessionThenQuit() throws {
        guard ProcessInfo.processInfo.environment["REEL_LEAK_CHECK"] == "1" else {
            throw XCTSkip("run by meson_helpers/leak-check (REEL_LEAK_CHECK=1) on an ASan build")
        }
        // Three containers and codecs, a file with tags and a cover (MPRIS artwork), and a broken
        // file the queue moves on from. (The multi-track subtitled.mkv comes last, on its own.)
        let app = try ReelApp(["short-1.webm", "tagged.mkv", "random.mp4", "clip-h264.mp4", "short-2.webm"].map(Paths.media))
        // The sanitized build starts several times slower than the ordinary one.
        app.waitForPlaying("short-1", timeout: 30)
        try app.setProperty("LoopStatus", .variantString("Playlist"))

        // Item changes, once round the queue and on: each one builds and drops a pipeline.
        for change in 1...6 {
            let before = app.title
            try app.player("Next")
            // Reel's output if it never comes (what the stall watchdog did, say).
            let changed = eventually("item change \(change) playing", timeout: 20) {
                app.title != before && app.status == "Playing" && app.position > 0.1
            }
            if !changed { print(app.output) }
            print("leak check: item change \(change): \(app.title)")
        }

        // A file opened from outside; minimized, the video is detached from the window, and
        // restored, it comes back.
        try app.player("OpenUri", [.string(Paths.mediaURI("tone-30s.webm"))])
        app.waitForPlaying("tone-30s", timeout: 20)
        for cycle in 1...2 {
            app.minimize()
            eventually("video detached, cycle \(cycle)", timeout: 20) { app.debugProperty("VideoAttached") == .bool(false) }
            let shown = app.framesShown
            app.restore()
            eventually("video back, cycle \(cycle)", timeout: 20) {
                app.debugProperty("VideoAttached") == .bool(true) && app.framesShown > shown
            }
        }

        // Seeking and pausing.
        try app.player("Seek", [.int64(10_000_000)])
        eventually("seeked") { app.position > 10 }
        try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        try app.player("Play")
        eventually("playing again") { app.status == "Playing" }

        // Subtitles (Reel renders them itself), switched to the second track and off; Reel quits
        // while this file still plays.
        try app.player("OpenUri", [.string(Paths.mediaURI("subtitled.mkv"))])
        app.waitForPlaying("subtitled", timeout: 20)
        app.activate("subtitle-track", "1")
        app.activate("subtitle-track", "-1")
        eventually("still playing") { app.status == "Playing" && app.position > 0.5 }
        print("leak check: scenario done at \(app.title) \(app.position) s; quitting")

        // Quit as a desktop would, and wait for the exit: LeakSanitizer's scan and the symbolized
        // stacks take a while under ASan, much longer than ReelApp.stop waits.
        _ = try app.bus.call(ReelApp.busName, ReelApp.mprisPath, "org.mpris.MediaPlayer2", "Quit")
        eventually("Reel exited after Quit", timeout: 120, interval: 0.2) { !app.process.isRunning }
        guard !app.process.isRunning else { return }
        // 0: no leak at all; ASAN_OPTIONS' exitcode (23, set by leak-check): leaks reported.
        // Anything else (a crash, an ASan error) is a failure of its own.
        let leakExit = Int32(ProcessInfo.processInfo.environment["REEL_LEAK_EXIT_CODE"] ?? "23") ?? 23
        XCTAssertEqual(app.process.terminationReason, .exit, "Reel was killed by a signal; it said: \(app.output.suffix(3000))")
        XCTAssertTrue([0, leakExit].contains(app.process.terminationStatus),
                      "Reel exited with \(app.process.terminationStatus); it said: \(app.output.suffix(3000))")
        print("leak check: Reel (pid \(app.process.processIdentifier)) exited with status \(app.process.terminationStatus)")
    }
}
