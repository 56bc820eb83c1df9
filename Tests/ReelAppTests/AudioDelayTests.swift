// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// The audio delay (`--audio-delay`), measured as the user meets it: on `flash-click.mkv`, whose
/// flashes and clicks are made at the same instants, the time from a flash reaching the X
/// screen to its click reaching the null sink's monitor, both on CLOCK_MONOTONIC
/// (`meson_helpers/av-sync-probe`). X11 only: the probe reads the screen back from the X server.
final class AudioDelayTests: XCTestCase {
    /// One run's click − flash for each of the clip's 5 events, in milliseconds.
    struct Run {
        let arguments: [String]
        let offsets: [Double]
        var median: Double {
            let sorted = offsets.sorted()
            guard !sorted.isEmpty else { return .nan }
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        var description: String {
            String(format: "median %+.1f ms (each: %@)", median, offsets.map { String(format: "%+.1f", $0) }.joined(separator: ", "))
        }
    }

    static let events = 5

    func testTheSoundIsHeardLaterByTheDelay() throws {
        guard Desktop.current == .x11 else { throw XCTSkip("the probe reads the X server's screen: REEL_TEST_DESKTOP=x11") }
        let baseline = try measureAllEvents([])
        let delayed = try measureAllEvents(["--audio-delay=0.3"])
        let shift = delayed.median - baseline.median
        print("audio delay: no delay: \(baseline.description)")
        print("audio delay: \(delayed.arguments.joined(separator: " ")): \(delayed.description)")
        print(String(format: "audio delay: measured shift %.1f ms (asked 300 ms)", shift))
        XCTAssertEqual(baseline.offsets.count, Self.events, "every flash of the run without delay has its click")
        XCTAssertEqual(delayed.offsets.count, Self.events, "every flash of the delayed run has its click")
        // The recording path (the null sink to its monitor to parec) and the screen's read-back
        // each take a constant time, the same in both runs: it cancels in the difference, which
        // is what the delay must be. The baseline itself only has to be sane.
        XCTAssertEqual(shift, 300, accuracy: 20, "the click is heard 300 ± 20 ms later than without delay")
        XCTAssertEqual(baseline.median, 0, accuracy: 80, "without delay, flash and click arrive together (± 80 ms)")
    }

    /// A run that lost an event is run once more, and both are printed: a click lost on a loaded
    /// machine (seen once in CI, with the 4 heard on time) says nothing of the delay. Lost twice
    /// in a row fails the count's assertions.
    private func measureAllEvents(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        let first = try measure(arguments, file: file, line: line)
        guard first.offsets.count < Self.events else { return first }
        print("audio delay: \(arguments) lost an event (\(first.offsets.count) of \(Self.events) pairs): measured again")
        return try measure(arguments, file: file, line: line)
    }

    /// Plays the clip once from its start with Reel started with `arguments`, and times its events.
    private func measure(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        let app = try ReelApp(arguments + [Paths.media("flash-click.mkv")], file: file, line: line)
        defer { app.stop() }
        app.waitForPlaying(file: file, line: line)
        let window = app.windowID
        // Back to the start, paused, so the probe listens before the first flash.
        try app.player("Pause")
        try app.player("SetPosition", [.objectPath(app.metadata["mpris:trackid"]?.stringValue ?? ""), .int64(0)])
        eventually("paused at the start", file: file, line: line) { app.status == "Paused" && app.position < 0.2 }

        let probe = Process(), output = SharedText(), pipe = Pipe()
        probe.executableURL = Paths.packageRoot.appendingPathComponent("meson_helpers/av-sync-probe")
        probe.arguments = ["--window", window, "--events", "\(Self.events)", "--timeout", "20"]
        probe.standardOutput = pipe
        pipe.fileHandleForReading.readabilityHandler = { output.append($0.availableData) }
        try probe.run()
        defer { if probe.isRunning { probe.terminate() } }
        eventually("the probe ready", file: file, line: line) { output.value.contains("ready\n") || !probe.isRunning }
        try app.player("Play")
        // The probe ends once the last click is in (at most a second after the last flash, 20 s in all).
        eventually("the probe's figures", timeout: 30, file: file, line: line) { !probe.isRunning }
        probe.waitUntilExit()
        pipe.fileHandleForReading.readabilityHandler = nil
        output.append(pipe.fileHandleForReading.readDataToEndOfFile())

        let json = output.value.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        let figures = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
                                    "the probe's output: \(output.value)", file: file, line: line)
        let pairs = figures["pairs"] as? [[Double]] ?? []
        print("audio delay: \(arguments) flashes \((figures["flashes"] as? [Double])?.count ?? 0), clicks "
            + "\((figures["clicks"] as? [Double])?.count ?? 0), screen read \(figures["reads"] ?? 0) times "
            + "(longest gap \(figures["max_read_gap_ms"] ?? 0) ms)")
        if pairs.count < Self.events {
            // Where the lost one was, on the clip's own time: each event is 1 s after the last.
            let start = (figures["flashes"] as? [Double])?.first ?? 0
            let at = { (times: [Double]) in times.map { String(format: "%.3f", $0 - start) }.joined(separator: ", ") }
            print("audio delay: seconds after the first flash: flashes \(at(figures["flashes"] as? [Double] ?? [])); "
                + "clicks \(at(figures["clicks"] as? [Double] ?? []))")
        }
        return Run(arguments: arguments, offsets: pairs.map { ($0[1] - $0[0]) * 1000 })
    }
}
