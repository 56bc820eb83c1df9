// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// The sleep timer as a listener in bed uses it: set on the command line or in the main menu,
/// the sound fading out on the output, then a pause the desktop sees.
final class SleepTimerAppTests: XCTestCase {
    func testTheTimerFadesTheSoundOutAndPauses() throws {
        let recorder = try SoundRecorder()
        let app = try ReelApp([Paths.media("tone-30s.webm"), "--sleep=0.25"])
        app.waitForPlaying()
        XCTAssertEqual(app.actionState("sleep"), "'0'", "15 s: no whole minute, none of the menu's choices")
        eventually("asleep", timeout: 25) { app.status == "Paused" }
        let asleep = recorder.duration
        // What was heard 9 s and 2 s before the pause (the output's latency is well under 0.5 s).
        let early = SoundRecorder.rms(recorder.samples(from: asleep - 9.5, to: asleep - 8.5))
        let late = SoundRecorder.rms(recorder.samples(from: asleep - 2.5, to: asleep - 1.5))
        print(String(format: "sleep timer: level %.0f at 9 s before the pause, %.0f at 2 s", early, late))
        XCTAssertGreaterThan(early, 300, "the tone played")
        XCTAssertLessThan(late, early * 0.5, "and faded")
        XCTAssertEqual(app.actionState("sleep"), "'off'")

        // From the menu's action: the end of this item, cancelled; then 15 minutes, shown counting.
        app.activate("sleep", "'end'")
        XCTAssertEqual(app.actionState("sleep"), "'end'")
        app.activate("sleep", "'off'")
        XCTAssertEqual(app.actionState("sleep"), "'off'")
        app.activate("sleep", "'15'")
        XCTAssertEqual(app.actionState("sleep"), "'15'")
        app.activate("play-pause")
        app.waitForPlaying()
        XCTAssertGreaterThan(recorder.levelOnceChanged(over: 0.5), 300, "woken at the volume set")
    }
}
