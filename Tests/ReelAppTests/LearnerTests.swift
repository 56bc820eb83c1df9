// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// The language learner's tools in the real app: the A-B loop, from the command line and from
/// Shift+L, each jump back a Seeked the desktop's media controls see; line by line and
/// shadowing on lesson.webm, whose tones last exactly its cues (make-test-media); moving by
/// line; the transcript; two subtitle tracks at once.
final class LearnerTests: XCTestCase {
    /// lesson.srt's lines as stretches with the default margins (0.25 s each side): lines 2 and 3
    /// touch and 4 and 5 overlap, so they are drilled together.
    static let stretches: [(start: Double, end: Double)] = [(0.75, 2.45), (3.25, 5.75), (6.75, 9.25), (10.75, 12.25)]
    /// The sound in each stretch, at 1×: the tones of its cues, end to end.
    static let tones: [(seconds: Double, hertz: Double)] = [(1.2, 400), (2.0, 500), (2.0, 700), (1.0, 900)]

    /// The Seeked positions received so far (reading what the bus has for us first).
    private func seeked(_ app: ReelApp) -> [Double] {
        app.bus.pump(for: 0.05)
        return app.bus.signals.filter { $0.member == "Seeked" }.compactMap { $0.arguments.first?.int64Value }.map { Double($0) / 1e6 }
    }

    func testTheLoopFromTheCommandLinePlaysTheStretchOverAndOver() throws {
        let app = try ReelApp(["--ab-loop=3-4.5", Paths.media("tone-30s.webm")])
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        app.waitForPlaying()
        eventually("three jumps back to A", timeout: 15) { self.seeked(app).filter { abs($0 - 3) < 0.3 }.count >= 3 }
        // Never past B by more than a position update or two.
        for _ in 0..<20 {
            let position = app.position
            XCTAssertTrue((2.9...4.9).contains(position), "position \(position) outside the stretch")
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertEqual(app.status, "Playing")
    }

    /// `--ab-loop=3-4.5 --repeat-each=3 --gap=1.5`: the stretch three times (the first from the
    /// jump to A at the start), 1.5 s of wait after each, then playback goes on past B.
    func testTheLoopObeysRepeatEachAndTheGapThenGoesOn() throws {
        let app = try ReelApp(["--ab-loop=3-4.5", "--repeat-each=3", "--gap=1.5", Paths.media("tone-30s.webm")])
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        app.waitForPlaying()
        eventually("past B after the third play", timeout: 20) { app.position > 5.5 }
        let jumps = app.bus.signals.filter { $0.member == "Seeked" }
        let atA = jumps.filter { abs(Double($0.arguments.first?.int64Value ?? 0) / 1e6 - 3) < 0.3 }
        XCTAssertEqual(atA.count, 3, "the jump at the start and two back: \(jumps.map(\.arguments))")
        // Each jump back comes after a play of the stretch (1.5 s) and the wait (1.5 s).
        for (earlier, later) in zip(atA, atA.dropFirst()) {
            XCTAssertEqual(later.time.timeIntervalSince(earlier.time), 3, accuracy: 0.6)
        }
        Thread.sleep(forTimeInterval: 1)
        app.bus.pump(for: 0.05)
        XCTAssertEqual(app.bus.signals.filter { $0.member == "Seeked" }.count, jumps.count, "no jump back after the third play")
        XCTAssertEqual(app.status, "Playing")
    }

    /// Ctrl+Right goes to the next line's start, Ctrl+Left under a second into a line to the
    /// line before (talk.srt beside talk.webm: a line every 2 s).
    func testCtrlRightAndLeftMoveBySubtitleLine() throws {
        let app = try ReelApp([Paths.media("talk.webm")])
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        app.waitForPlaying()
        try app.player("SetPosition", [.objectPath(app.metadata["mpris:trackid"]?.stringValue ?? ""), .int64(5_000_000)])
        eventually("at 5 s") { self.seeked(app).contains { abs($0 - 5) < 0.05 } }
        app.bus.clearSignals()
        app.key("ctrl+Right")
        eventually("the next line's start, 6 s") { self.seeked(app).contains { abs($0 - 6) < 0.05 } }
        app.key("ctrl+Left")
        eventually("the line before, 4 s (Seeked: \(seeked(app)))") { self.seeked(app).contains { abs($0 - 4) < 0.05 } }
        eventually("and it plays on from there", timeout: 5) { (4.3...5.5).contains(app.position) }
    }

    /// `--sub-delay=0.5`: lines start half a second later, and moving by line follows; X adds 0.1 s.
    func testTheSubtitleDelayMovesTheLinesMovedBy() throws {
        let app = try ReelApp(["--sub-delay=0.5", Paths.media("talk.webm")])
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        app.waitForPlaying()
        try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        try app.player("SetPosition", [.objectPath(app.metadata["mpris:trackid"]?.stringValue ?? ""), .int64(5_000_000)])
        eventually("at 5 s") { self.seeked(app).contains { abs($0 - 5) < 0.05 } }
        app.key("ctrl+Right")
        eventually("the next line's start, delayed: 6.5 s") { self.seeked(app).contains { abs($0 - 6.5) < 0.05 } }
        app.key("x")
        app.key("ctrl+Right")
        // With 0.6 s, the line that was at 6.5 s starts at 6.6 s: just ahead.
        eventually("the same line's new start, 6.6 s") { self.seeked(app).contains { abs($0 - 6.6) < 0.05 } }
    }

    /// `--loop-lines --repeat-each=2 --gap=0.5`: each line twice, half a second's wait after
    /// each play, then the next line: Seeked to each line's start, at the times that make.
    func testLineByLinePlaysEachLineTwiceWithTheWaitThenTheNext() throws {
        let app = try ReelApp(["--loop-lines", "--repeat-each=2", "--gap=0.5", Paths.media("lesson.webm")])
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        app.waitForPlaying("lesson")
        let expected = [0.75, 3.25, 3.25, 6.75, 6.75, 10.75, 10.75]
        eventually("Seeked to each line's start in turn", timeout: 30) { self.seeked(app).count >= expected.count }
        let seeks = app.bus.signals.filter { $0.member == "Seeked" }
        XCTAssertEqual(seeks.count, expected.count, "no other jumps")
        for (seek, target) in zip(seeks, expected) {
            XCTAssertEqual(Double(seek.arguments.first?.int64Value ?? 0) / 1e6, target, accuracy: 0.15)
        }
        // From one jump to the next: a play of the stretch it jumped to, then the wait.
        let plays = [0.75, 3.25, 3.25, 6.75, 6.75, 10.75].map { start in Self.stretches.first { $0.start == start }! }
        for (index, stretch) in plays.enumerated() {
            let interval = seeks[index + 1].time.timeIntervalSince(seeks[index].time)
            XCTAssertEqual(interval, stretch.end - stretch.start + 0.5, accuracy: 0.4,
                           "play \(index + 1) (the stretch from \(stretch.start) s) and its wait")
        }
        eventually("after the last line the lesson plays out", timeout: 10) { app.status == "Stopped" || app.position > 13 }
    }

    /// At 1.8× in line mode every line is heard to its end: each tone lasts its cue's length at
    /// that speed, in the stretches' order.
    func testNoLineIsCutShortAtSpeed() throws {
        let recorder = try SoundRecorder()
        let app = try ReelApp(["--loop-lines", "--rate=1.8", Paths.media("lesson.webm")])
        app.waitForPlaying("lesson")
        eventually("the lesson played through", timeout: 20) { app.position > 12.5 }
        let sounds = Self.sounds(in: recorder.stop())
        XCTAssertEqual(sounds.count, Self.tones.count, "one sound a stretch: \(sounds)")
        for (sound, tone) in zip(sounds, Self.tones) {
            XCTAssertGreaterThanOrEqual(sound.seconds, tone.seconds / 1.8 - 0.04, "the \(Int(tone.hertz)) Hz line heard to its end")
            XCTAssertEqual(sound.hertz, tone.hertz, accuracy: tone.hertz * 0.05, "its pitch kept")
        }
    }

    /// `--pause-after-lines`: a pause after each line, until MPRIS Play or Space.
    func testShadowingPausesAfterEveryLineUntilPlay() throws {
        let app = try ReelApp(["--pause-after-lines", Paths.media("lesson.webm")])
        app.waitForPlaying("lesson")
        for (index, stretch) in Self.stretches.prefix(3).enumerated() {
            eventually("paused after line \(index + 1)", timeout: 10) { app.status == "Paused" }
            XCTAssertEqual(app.position, stretch.end, accuracy: 0.3, "at the line's end, its margin played")
            if index % 2 == 0 { try app.player("Play") } else { app.key("space") }
            eventually("playing on", timeout: 5) { app.status == "Playing" }
        }
    }

    private func strings(_ app: ReelApp, _ name: String) -> [String] { app.debugProperty(name)?.strings ?? [] }

    /// The transcript lists the subtitle file's lines and highlights the one playing as
    /// playback goes on; Ctrl+F filters them, Enter plays from the first found.
    func testTheTranscriptFollowsPlaybackAndItsSearchFindsALine() throws {
        let app = try ReelApp([Paths.media("lesson.webm")])
        app.waitForPlaying("lesson")
        app.key("t")
        eventually("the transcript shown") { app.debugProperty("TranscriptShown")?.boolValue == true }
        XCTAssertEqual(strings(app, "TranscriptLines"), ["Line one", "Line two", "Line three", "Line four", "Line five", "Line six"])
        eventually("line one highlighted as it plays", timeout: 5) { app.debugProperty("TranscriptHighlight")?.stringValue == "Line one" }
        eventually("then line two", timeout: 5) { app.debugProperty("TranscriptHighlight")?.stringValue == "Line two" }
        _ = app.screenshot("transcript")
        app.key("ctrl+f")
        app.desktop.type("four")
        eventually("the search keeps one line") { self.strings(app, "TranscriptLines") == ["Line four"] }
        app.desktop.key("Return")
        eventually("Enter plays from it", timeout: 5) { (7.0...8.4).contains(app.position) && app.status == "Playing" }
        eventually("and it is highlighted") { app.debugProperty("TranscriptHighlight")?.stringValue == "Line four" }
    }

    /// The podcast case: a sound file with its transcript beside it.
    func testASoundFileShowsItsSubtitleFileAsItsTranscript() throws {
        let app = try ReelApp([Paths.media("lesson-audio.opus")])
        app.waitForPlaying("lesson-audio")
        app.key("t")
        eventually("its lines", timeout: 5) { self.strings(app, "TranscriptLines").count == 6 }
        eventually("the line playing highlighted", timeout: 6) { app.debugProperty("TranscriptHighlight")?.stringValue == "Line two" }
    }

    /// Two subtitle tracks at once: the lesson's own at the bottom, its translation (a second
    /// file) at the top of the picture.
    func testTwoSubtitleTracksShowAtOnce() throws {
        let app = try ReelApp([Paths.media("lesson.webm")])
        app.waitForPlaying("lesson")
        app.activate("second-subtitles", "'\(Paths.mediaURI("lesson.fr.srt"))'")
        eventually("the controls out of the way", timeout: 8) { !app.controlsShown }
        eventually("line four due in both tracks", timeout: 12) { (7.2...8.2).contains(app.position) }
        let shot = try XCTUnwrap(app.screenshot("two-subtitle-tracks"))
        // White text on the black picture, below the header bar: at its top and at its bottom.
        func whitePixels(from top: Double, to bottom: Double) -> Int {
            var count = 0
            for y in stride(from: Int(top * Double(shot.height)), to: Int(bottom * Double(shot.height)), by: 2) {
                for x in stride(from: 0, to: shot.width, by: 2) {
                    let p = shot.pixel(x, y)
                    if p.r > 200 && p.g > 200 && p.b > 200 { count += 1 }
                }
            }
            return count
        }
        XCTAssertGreaterThan(whitePixels(from: 0.1, to: 0.3), 40, "the second track's line at the top")
        XCTAssertGreaterThan(whitePixels(from: 0.6, to: 0.97), 40, "the first track's line at the bottom")
        XCTAssertEqual(app.debugProperty("SecondSubtitle")?.stringValue, "Ligne quatre")
    }

    /// 200 line plays in a row at a learner's 1.8× (20 short lines, each played 10 times, 0.05 s
    /// of margin around each 0.1 s line) without a stall: 199 jumps (the first play of the first
    /// line needs none), each to the line drilled, and it still plays. A seek every 0.15 s or so:
    /// before the guard on PulseAudio's clock, the position stood still once in 20 to 300 seeks.
    func testTwoHundredLineLoopsWithoutAStall() throws {
        let settings = try BackgroundTests.settingsDirectory(["line-lead-in": "0.05", "line-lead-out": "0.05"])
        let app = try ReelApp(["--loop-lines", "--repeat-each=10", "--rate=1.8", Paths.media("drill.webm")], environment: settings)
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        app.waitForPlaying("drill")
        eventually("199 jumps to a line's start", timeout: 90, interval: 0.2) { self.seeked(app).count >= 199 }
        let starts = seeked(app).prefix(199)
        // Each of the 20 lines' stretches starts 0.05 s before its cue (1 s, then every 0.7 s).
        for (index, start) in starts.enumerated() {
            let line = Double((index + 1) / 10)  // nine jumps back to the first line, then ten to each
            XCTAssertEqual(start, 0.95 + line * 0.7, accuracy: 0.15, "jump \(index + 1)")
        }
        XCTAssertFalse(app.output.contains("stalled"), "no stall: \(app.output.suffix(800))")
        XCTAssertEqual(app.status, "Playing")
    }

    /// An embedded track as the second: read whole ahead of playback, shown with the first.
    func testAnEmbeddedTrackAsTheSecondSubtitles() throws {
        let app = try ReelApp([Paths.media("subtitled.mkv")])
        app.waitForPlaying()
        eventually("the first track's line", timeout: 5) { app.messageShown.isEmpty && app.position > 0.5 }
        app.activate("second-subtitle-track", "1")
        eventually("the second track's line at the top", timeout: 10) {
            app.debugProperty("SecondSubtitle")?.stringValue == "SECOND TRACK TEXT"
        }
        _ = app.screenshot("two-embedded-subtitle-tracks")
    }

    /// Sound track, subtitle track, delay, A-B loop and line mode come back with the file.
    func testAFileOpensAgainAsItWasLeft() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("reel-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let environment = ["XDG_STATE_HOME": state.path]
        do {
            let app = try ReelApp([Paths.media("subtitled.mkv")], environment: environment)
            app.waitForPlaying()
            app.activate("audio-track", "1")
            app.activate("subtitle-track", "1")
            app.key("x")
            app.key("x")
            eventually("past 1 s") { app.position > 1 }
            app.key("shift+l")
            let start = app.position
            eventually("a second later") { app.position > start + 1.2 }
            app.key("shift+l")
            app.activate("loop-lines")
            eventually("the second sound and subtitle tracks, line by line") {
                app.actionState("audio-track") == "1" && app.actionState("subtitle-track") == "1" && app.actionState("loop-lines") == "true"
            }
            app.stop()
        }
        let kept = try String(contentsOf: state.appendingPathComponent("reel/positions.json"), encoding: .utf8)
        XCTAssertTrue(kept.contains("\"subtitleDelay\":0.2"), kept)

        let app = try ReelApp([Paths.media("subtitled.mkv")], environment: environment)
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        app.waitForPlaying()
        eventually("the same tracks and line by line") {
            app.actionState("audio-track") == "1" && app.actionState("subtitle-track") == "1" && app.actionState("loop-lines") == "true"
        }
        app.key("t")
        eventually("the second subtitle track's lines", timeout: 5) { self.strings(app, "TranscriptLines").contains("SECOND TRACK TEXT") }
        eventually("the loop jumps back to its start", timeout: 8) { !self.seeked(app).isEmpty }
        let jump = try XCTUnwrap(seeked(app).first)
        XCTAssertGreaterThan(jump, 0.9, "to the loop's start, not the item's")
    }

    /// The stretches of sound in a recording, with their length and pitch, silences of 50 ms
    /// or more apart.
    static func sounds(in samples: [Int16]) -> [(seconds: Double, hertz: Double)] {
        let window = SoundRecorder.sampleRate / 100
        let levels = SoundRecorder.levels(samples, windowMilliseconds: 10)
        var result: [(seconds: Double, hertz: Double)] = []
        var start: Int?, quiet = 0
        for (index, level) in levels.enumerated() {
            if level > 500 {
                if start == nil { start = index }
                quiet = 0
            } else if let first = start {
                quiet += 1
                if quiet >= 5 || index == levels.count - 1 {
                    let end = index - quiet + 1
                    // Its pitch a fifth of the way in, clear of the onset and of a later tone.
                    let from = first + (end - first) / 5
                    let stretch = samples[(from * window)..<min(samples.count, (from + 10) * window)]
                    result.append((Double(end - first) / 100, RateChangeTests.frequency(stretch)))
                    start = nil
                }
            }
        }
        return result
    }

    func testShiftLMarksTheStretchThenClearsIt() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        app.waitForPlaying()
        eventually("past 1 s") { app.position > 1 }
        app.key("shift+l")
        eventually("the toast says where the loop starts") { app.messageShown.contains("Loop from") }
        let start = app.position
        eventually("a second later") { app.position > start + 1 }
        app.bus.clearSignals()
        app.key("shift+l")
        eventually("a jump back to A", timeout: 5) { self.seeked(app).contains { abs($0 - start) < 0.5 } }
        app.key("shift+l")
        eventually("the toast says it is cleared") { app.messageShown.contains("Loop cleared") }
        let cleared = app.position
        eventually("playback goes on past the old end", timeout: 5) { app.position > cleared + 2.5 }
    }
}
