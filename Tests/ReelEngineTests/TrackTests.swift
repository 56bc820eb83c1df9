// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// Sound and subtitle tracks on real pipelines.
@MainActor
final class TrackTests: EngineTestCase {
    func testTracksAreListedAndCanBeSwitched() async {
        let harness = PlayerHarness()
        let model = harness.model
        harness.open("subtitled.mkv")
        harness.waitForPlaying()
        waitUntil("two sound and two subtitle tracks") {
            model.media?.audioTracks.count == 2 && model.media?.subtitleTracks.count == 2
        }
        let media = model.media!
        XCTAssertEqual(media.subtitleTracks.map(\.language), ["English", "French"])
        XCTAssertEqual(media.currentAudioTrack, 0)
        XCTAssertEqual(media.currentSubtitleTrack, 0, "subtitles are on by default")
        waitUntil("the first track's line") { model.subtitle?.text == "HELLO SUBTITLES" }

        waitUntil("a second in") { model.position > 1 }
        model.selectSubtitleTrack(1)
        waitUntil("the second track's line, from its next cue") { model.subtitle?.text == "SECOND TRACK TEXT" }
        XCTAssertEqual(model.media?.currentSubtitleTrack, 1)
        model.selectSubtitleTrack(7)
        XCTAssertEqual(model.media?.currentSubtitleTrack, 1, "a track that does not exist is ignored")

        // Off and on again, several times: playback goes on, never stopping on the way.
        var statuses: [PlaybackStatus] = []
        model.observe { [weak model] in if $0 == .status, let model { statuses.append(model.status) } }
        for round in 0..<3 {
            model.selectSubtitleTrack(nil)
            waitUntil("off, round \(round)") { model.media?.currentSubtitleTrack == nil && model.subtitle == nil }
            let position = model.position
            waitUntil("a cue boundary passes while off") { model.position > position + 2.1 }
            XCTAssertNil(model.subtitle, "no line comes while subtitles are off")
            model.selectSubtitleTrack(round % 2)
            waitUntil("on, round \(round)") {
                model.subtitle?.text == (round % 2 == 0 ? "HELLO SUBTITLES" : "SECOND TRACK TEXT")
            }
        }
        model.selectAudioTrack(1)
        waitUntil("the second sound track") { model.media?.currentAudioTrack == 1 }
        let position = model.position
        waitUntil("playing on after the switch") { model.position > position + 0.5 }
        XCTAssertEqual(model.status, .playing)
        XCTAssertFalse(statuses.contains(.stopped) || statuses.contains(.paused), "\(statuses)")
        XCTAssertEqual(model.stallRecoveries, 0)
    }

    func testSubtitlesBesideTheVideoAreLoaded() async {
        let harness = PlayerHarness()
        harness.open("talk.webm")
        harness.waitForPlaying()
        waitUntil("talk.srt as a subtitle track") { harness.model.media?.subtitleTracks.count == 1 }
        XCTAssertEqual(harness.model.media?.currentSubtitleTrack, 0)
        waitUntil("its line") { harness.model.subtitle?.text == "EXTERNAL SUBTITLE" }
        XCTAssertNotNil(harness.model.subtitle?.end, "a line knows when it ends")
    }

    /// Moving on from a file with several sound and subtitle tracks: the next item plays. (With
    /// playbin's own clock-synced track selectors, the stop between items hung for good.)
    func testTheItemAfterAMultiTrackFilePlays() async {
        let harness = PlayerHarness()
        let model = harness.model
        model.open([Paths.mediaURI("subtitled.mkv"), Paths.mediaURI("short-1.webm"), Paths.mediaURI("subtitled.mkv"),
                    Paths.mediaURI("short-2.webm")])
        harness.waitForPlaying()
        for expected in ["short-1.webm", "subtitled.mkv", "short-2.webm"] {
            waitUntil("a second played") { model.position > 1 }
            model.next()
            waitUntil("\(expected) playing") {
                model.currentItem?.uri.hasSuffix(expected) == true && model.status == .playing && model.position > 0.3
            }
        }
    }
}
