// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Speed changes while playing are seamless, whatever the container: the sound never breaks and
/// keeps its pitch, and the position moves on at the new speed without jumping back. (Reel
/// applies the rate at its sinks; a seek would break the sound and, on an MP3 or Ogg file,
/// GStreamer's instant rate changes are refused or misbehave.) The longest silence is measured
/// and printed by the benchmark; here a break the listener would hear fails.
final class RateChangeTests: XCTestCase {
    func testSpeedChangesOnAVideoAreSeamless() throws {
        try assertSeamless(file: "tone-30s.webm", tone: 440, rates: [1.5, 1, 0.75, 2, 1])
    }

    func testSpeedChangesOnAnMP3AreSeamless() throws {
        try assertSeamless(file: "mix-4-mp3-44k-mono.mp3", tone: 550, rates: [1.5, 0.75])
    }

    func testSpeedChangesOnAnOggFileAreSeamless() throws {
        try assertSeamless(file: "mix-2-vorbis-44k-mono.ogg", tone: 440, rates: [1.5, 0.75])
    }

    /// A stream that cannot seek (no byte ranges, as a live stream): a seek to change the speed
    /// would end it with an error.
    func testSpeedChangesOnAStreamThatCannotSeekAreSeamless() throws {
        let server = try Fixture("media-server.py", [Paths.media.path], waitForFirstLine: true)
        try assertSeamless(file: "http://127.0.0.1:\(server.firstLine)/live/tone-30s.webm", tone: 440, rates: [1.5, 0.75, 1])
    }

    /// An item that starts at another speed plays at it from its first sound, pitch kept.
    func testAnItemStartsAtTheChosenSpeed() throws {
        let app = try ReelApp(["--rate=1.8", Paths.media("tone-30s.webm")])
        let recorder = try SoundRecorder()
        app.waitForPlaying("tone-30s")
        let stretch = try measure(app, seconds: 1.5)
        let samples = recorder.stop()
        XCTAssertEqual(stretch.speed, 1.8, accuracy: 0.2, "the position moves at 1.8× from the start")
        let heard = Self.frequency(samples.suffix(SoundRecorder.sampleRate))
        XCTAssertEqual(heard, 440, accuracy: 440 * 0.03, "the tone keeps its pitch at 1.8×")
    }

    /// Across a change the position moves on, never back, and at the new speed once the sound
    /// buffered before it is heard (the position follows what is heard). How long it stands
    /// still is printed, a figure for the benchmark ("speed change: position standing still"):
    /// 0.11 s measured, 0.19–0.21 s when the sinks' own answer jumped ahead by the sound
    /// device's buffer and then stood still as long. The position is refreshed ten times a
    /// second, so a reading repeats for 0.1 s or so; half a second of it is a frozen slider.
    func testThePositionMovesOnAtTheNewSpeedAcrossASpeedChange() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        for rate in [1.8, 1, 0.6, 1.5] {
            try app.setProperty("Rate", .variantDouble(rate))
            let stretch = try measure(app, seconds: 1.5, every: 0.02)
            let positions = stretch.positions.map { String(format: "%.2f", $0) }
            print("rate \(rate): the position stood still for \(Int(stretch.longestStandstill * 1000)) ms at most")
            XCTAssertLessThan(stretch.largestStepBack, 0.05, "the position never goes back at \(rate)×: \(positions)")
            XCTAssertLessThan(stretch.longestStandstill, 0.5, "the position never freezes at \(rate)×: \(positions)")
            XCTAssertEqual(stretch.speed(after: Self.soundBuffer + 0.2), rate, accuracy: rate * 0.1,
                           "the position moves on at \(rate)× once the change is heard: \(positions)")
        }
    }

    // MARK: Measuring

    /// The sound device's buffer (pulsesink's, in the test session): a change is heard this late.
    private static let soundBuffer = 0.2

    private struct Stretch {
        var speed: Double
        var largestStepBack: Double
        /// The longest time (s) the position read the same.
        var longestStandstill: Double
        var positions: [Double]
        /// When each position was read, in seconds from the first reading.
        var times: [Double]

        /// The speed from `start` seconds on, between the first and the last reading of a new
        /// position (a reading repeats until the position is refreshed, ten times a second).
        func speed(after start: Double) -> Double {
            let fresh = positions.indices.dropFirst().filter { times[$0] >= start && positions[$0] != positions[$0 - 1] }
            guard let first = fresh.first, let last = fresh.last, times[last] > times[first] else { return 0 }
            return (positions[last] - positions[first]) / (times[last] - times[first])
        }
    }

    /// A measurement that could not be made: Reel did not answer (hung, or gone) while it ran.
    private struct NoMeasurement: Error, CustomStringConvertible {
        let description: String
    }

    /// The position's advance per second of wall-clock time, polled over MPRIS every `interval`.
    /// Throws (failing the test) when Reel does not answer: a hang is a failure, not a skip.
    private func measure(_ app: ReelApp, seconds: Double, every interval: Double = 0.05) throws -> Stretch {
        var points: [(time: Date, position: Double)] = []
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            points.append((Date(), app.position))
            Thread.sleep(forTimeInterval: interval)  // the polling interval of a measurement
        }
        let steps = zip(points, points.dropFirst()).map { $1.position - $0.position }
        // `position` reads -1 when the call fails; one reading in all means a call took the
        // whole stretch (D-Bus's 5 s timeout): Reel stopped answering.
        guard let first = points.first, let last = points.last, points.count >= 2,
              points.allSatisfy({ $0.position >= 0 }) else {
            throw NoMeasurement(description: "Reel did not answer Position over \(seconds) s (hung or gone): "
                                + "\(points.count) readings \(points.map(\.position)); \(app.output.suffix(1000))")
        }
        var longest = 0.0, since = first
        for point in points.dropFirst() where point.position != since.position {
            longest = max(longest, point.time.timeIntervalSince(since.time))
            since = point
        }
        longest = max(longest, last.time.timeIntervalSince(since.time))
        return Stretch(speed: (last.position - first.position) / last.time.timeIntervalSince(first.time),
                       largestStepBack: max(0, -(steps.min() ?? 0)), longestStandstill: longest,
                       positions: points.map(\.position), times: points.map { $0.time.timeIntervalSince(first.time) })
    }

    private func assertSeamless(file name: String, tone: Double, rates: [Double],
                                file: StaticString = #filePath, line: UInt = #line) throws {
        let app = try ReelApp([name.hasPrefix("http:") ? name : Paths.media(name)])
        let recorder = try SoundRecorder()
        app.waitForPlaying(file: file, line: line)
        recorder.waitUntilRecorded(seconds: 0.5, file: file, line: line)
        var stretches: [(rate: Double, range: Range<Int>, stretch: Stretch)] = []
        for rate in rates {
            try app.setProperty("Rate", .variantDouble(rate))
            // A named delay: the change reaches what is heard within the sound device's buffer
            // (200 ms). The stretch measured starts after it and a margin, counted in sound recorded.
            recorder.waitUntilRecorded(seconds: recorder.duration + Self.soundBuffer + 0.2, file: file, line: line)
            let from = Int(recorder.duration * Double(SoundRecorder.sampleRate))
            let stretch = try measure(app, seconds: 1.2)
            let to = Int(recorder.duration * Double(SoundRecorder.sampleRate))
            stretches.append((rate, from..<to, stretch))
        }
        let samples = recorder.stop()
        for (rate, range, stretch) in stretches {
            XCTAssertEqual(stretch.speed, rate, accuracy: rate * 0.15, "\(name): the position moves at \(rate)×",
                           file: file, line: line)
            XCTAssertLessThan(stretch.largestStepBack, 0.05, "\(name): the position never jumps back at \(rate)×",
                              file: file, line: line)
            let clipped = range.clamped(to: 0..<samples.count)
            XCTAssertEqual(Self.frequency(samples[clipped]), tone, accuracy: tone * 0.03,
                           "\(name): the tone keeps its pitch at \(rate)×", file: file, line: line)
        }
        // From the first sound to the end of the last stretch: no break a listener would hear.
        let levels = SoundRecorder.levels(samples, windowMilliseconds: 10)
        let start = levels.firstIndex { $0 > 1000 } ?? levels.count
        let end = min(levels.count, (stretches.last?.range.upperBound ?? 0) / (SoundRecorder.sampleRate / 100))
        var longest = 0, run = 0
        for level in levels[start..<max(start, end)] {
            run = level < 300 ? run + 1 : 0
            longest = max(longest, run)
        }
        XCTAssertLessThanOrEqual(longest * 10, 50, "\(name): the sound broke for \(longest * 10) ms across the speed changes",
                                 file: file, line: line)
    }

    /// The tone's frequency, from its rising zero crossings.
    static func frequency<C: Collection>(_ samples: C) -> Double where C.Element == Int16 {
        let values = Array(samples)
        guard values.count > 1 else { return 0 }
        let crossings = zip(values, values.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        return Double(crossings) / (Double(values.count) / Double(SoundRecorder.sampleRate))
    }
}
