// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// An album whose tracks are one recording (a live album, an audiobook in parts) plays without
/// a break, measured where it is heard: on the sink's monitor.
final class GaplessPlaybackTests: XCTestCase {
    func testAnAlbumsTracksPlayWithoutABreak() throws {
        let recorder = try SoundRecorder()
        let app = try ReelApp([Paths.media("live-album")])
        app.waitForPlaying("Part 1")
        eventually("the second track, its own title and length", timeout: 10) {
            app.title == "Part 2" && (app.metadata["mpris:length"]?.int64Value ?? 0) == 3_000_000
        }
        eventually("the third", timeout: 10) { app.title == "Part 3" }
        eventually("the album played out", timeout: 10) { app.status == "Stopped" }
        let levels = SoundRecorder.levels(recorder.stop(), windowMilliseconds: 2)
        let loud = try XCTUnwrap(levels.max(), "something was recorded") / 2
        let first = try XCTUnwrap(levels.firstIndex { $0 > loud }, "the album was heard")
        let last = try XCTUnwrap(levels.lastIndex { $0 > loud })
        XCTAssertEqual(Double(last - first) * 0.002, 9, accuracy: 0.3, "three tracks of 3 s heard")
        // One tone throughout: any quiet window between the first sound and the last is a break.
        var longest = 0, run = 0
        for level in levels[first...last] {
            run = level < loud / 4 ? run + 1 : 0
            longest = max(longest, run)
        }
        XCTAssertLessThanOrEqual(longest * 2, 4, "the longest break between tracks, in ms")
    }
}
