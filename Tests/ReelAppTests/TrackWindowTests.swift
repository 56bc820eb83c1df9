// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Subtitles seen on screen and sound tracks heard, on the real app.
final class TrackWindowTests: XCTestCase {
    /// The share of bright pixels in the lower part of the (black) video, where subtitles go.
    private func subtitleInk(_ image: Image?) -> Double {
        guard let image else { return 0 }
        var bright = 0, count = 0
        for y in Int(Double(image.height) * 0.6)..<Int(Double(image.height) * 0.97) {
            for x in Int(Double(image.width) * 0.15)..<Int(Double(image.width) * 0.85) {
                let p = image.pixel(x, y)
                if p.r + p.g + p.b > 360 { bright += 1 }
                count += 1
            }
        }
        return Double(bright) / Double(max(count, 1))
    }

    func testSubtitlesShowSwitchAndTurnOff() throws {
        let app = try ReelApp([Paths.media("subtitled.mkv")])
        app.waitForPlaying()
        eventually("the controls hidden, leaving the subtitles in view") { !app.controlsShown }
        var first: Image?
        eventually("the first subtitles on screen") {
            first = app.screenshot()
            return self.subtitleInk(first) > 0.001
        }
        _ = app.screenshot("subtitles-first-track")

        app.activate("subtitle-track", "-1")
        eventually("no subtitles") { self.subtitleInk(app.screenshot()) < 0.0002 }

        app.activate("subtitle-track", "1")
        var second: Image?
        eventually("the second track's subtitles, a different text") {
            second = app.screenshot()
            guard let first, let second, self.subtitleInk(second) > 0.001 else { return false }
            return first.difference(second) > 0.001
        }
        _ = app.screenshot("subtitles-second-track")
        XCTAssertEqual(app.status, "Playing", app.output)
        try? app.output.write(toFile: "/tmp/subtest.log", atomically: true, encoding: .utf8)
    }

    func testSubtitlesBesideTheFileAreShown() throws {
        let app = try ReelApp([Paths.media("talk.webm")])
        app.waitForPlaying()
        eventually("the controls hidden") { !app.controlsShown }
        eventually("talk.srt's text on screen") { self.subtitleInk(app.screenshot()) > 0.001 }
    }

    /// The second sound track is a tone an octave above the first: count zero crossings.
    func testTheSoundTrackCanBeChanged() throws {
        let app = try ReelApp([Paths.media("subtitled.mkv")])
        app.waitForPlaying()
        func frequency() throws -> Double {
            let recorder = try SoundRecorder()
            recorder.waitUntilRecorded(seconds: 1)
            let samples = recorder.stop().suffix(SoundRecorder.sampleRate / 2)
            var crossings = 0
            for (a, b) in zip(samples, samples.dropFirst()) where (a < 0) != (b < 0) { crossings += 1 }
            return Double(crossings) / 2 / (Double(samples.count) / Double(SoundRecorder.sampleRate))
        }
        XCTAssertEqual(try frequency(), 440, accuracy: 40)
        app.activate("audio-track", "1")
        var heard = 0.0
        eventually("the 880 Hz track", timeout: 10) {
            heard = (try? frequency()) ?? 0
            return abs(heard - 880) < 60
        }
        XCTAssertEqual(heard, 880, accuracy: 60)
    }
}
