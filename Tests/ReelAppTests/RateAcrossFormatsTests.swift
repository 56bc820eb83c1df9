// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// A rate other than 1 across quick item changes between sound formats (codec, sample rate,
/// channels): GStreamer 1.22's scaletempo used to crash Reel here within a dozen changes, the
/// language learner's own setting. A failing run prints its seed; REEL_FUZZ_SEED repeats its
/// choices (timing still varies).
final class RateAcrossFormatsTests: XCTestCase {
    static let mixedFiles = ["mix-1-opus-48k-stereo.opus", "mix-2-vorbis-44k-mono.ogg", "mix-3-aac-44k-stereo.m4a",
                             "mix-4-mp3-44k-mono.mp3", "mix-5-mp3-48k-stereo.mp3", "mix-6-vorbis-48k-stereo.ogg"]

    /// `reel --rate=1.8` on a queue of mixed formats, MPRIS Next and Previous 0–300 ms apart.
    func testNextAndPreviousAtSpeedAcrossFormatsNeverCrash() throws {
        let seed = FuzzTests.seed()
        var rng = SplitMix(seed: seed)
        print("rate-across-formats seed \(seed)")
        let app = try ReelApp(["--rate=1.8"] + Self.mixedFiles.map(Paths.media))
        app.waitForPlaying()
        for skip in 1...80 {
            try? app.player(rng.next() % 3 == 0 ? "Previous" : "Next")
            Thread.sleep(forTimeInterval: Double(rng.next() % 300) / 1000)  // input pacing, not a wait
            guard app.process.isRunning else {
                return XCTFail("Reel died after \(skip) skips at 1.8× (seed \(seed)): \(app.crashReports) \(app.output.suffix(1500))")
            }
        }
        try Self.assertStillPlays(app, rate: 1.8)
    }

    /// MPRIS OpenUri of mixed formats, each followed within 80 ms by a new Rate.
    func testOpenUriThenRateAcrossFormatsNeverCrashes() throws {
        let seed = FuzzTests.seed()
        var rng = SplitMix(seed: seed)
        print("open-then-rate seed \(seed)")
        let app = try ReelApp([])
        for load in 1...60 {
            let file = Self.mixedFiles[Int(rng.next() % UInt64(Self.mixedFiles.count))]
            try? app.player("OpenUri", [.string(Paths.mediaURI(file))])
            Thread.sleep(forTimeInterval: Double(rng.next() % 80) / 1000)  // input pacing
            try? app.setProperty("Rate", .variantDouble(load % 2 == 0 ? 0.9 : 1.15))
            Thread.sleep(forTimeInterval: 0.1 + Double(rng.next() % 300) / 1000)
            guard app.process.isRunning else {
                return XCTFail("Reel died after \(load) loads (seed \(seed)): \(app.crashReports) \(app.output.suffix(1500))")
            }
        }
        try Self.assertStillPlays(app, rate: nil)
    }

    /// After the storm: a good file plays, its position moves and its sound reaches the sink.
    static func assertStillPlays(_ app: ReelApp, rate: Double?, file: StaticString = #filePath, line: UInt = #line) throws {
        try app.player("OpenUri", [.string(Paths.mediaURI("tone-30s.webm"))])
        try app.player("Play")
        app.waitForPlaying("tone-30s", file: file, line: line)
        let recorder = try SoundRecorder()
        if let rate { XCTAssertEqual((try? app.property("Rate"))?.doubleValue ?? 0, rate, accuracy: 0.001, "the rate kept", file: file, line: line) }
        let start = app.position
        eventually("the position advancing", file: file, line: line) { app.position > start + 1 }
        recorder.waitUntilRecorded(seconds: 1.5, file: file, line: line)
        XCTAssertGreaterThan(SoundRecorder.levels(recorder.stop()).filter { $0 > 1000 }.count, 100,
                             "a second of the tone on the sink's monitor", file: file, line: line)
    }
}
