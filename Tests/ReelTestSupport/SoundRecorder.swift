// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import XCTest

/// Records what reaches the test session's null sink (its monitor) as 16-bit samples, with
/// parec writing to a file: on a full pipe parec blocks, and then cannot handle SIGTERM.
public final class SoundRecorder {
    /// The rate the app tests record at, enough for levels and onsets.
    public static let sampleRate = 8000
    public let rate: Int
    public let channels: Int
    private let process = Process()
    private let file = FileManager.default.temporaryDirectory.appendingPathComponent("reel-rec-\(UUID().uuidString).raw")

    /// `rate` and `channels` as recorded; the session's sink is 16-bit stereo at 44.1 kHz.
    public init(rate: Int = SoundRecorder.sampleRate, channels: Int = 1) throws {
        guard ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil else {
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "PULSE_SERVER is not set: run in meson_helpers/test-session"])
        }
        self.rate = rate
        self.channels = channels
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["parec", "-d", "reel_null.monitor", "--raw", "--format=s16le", "--rate=\(rate)",
                             "--channels=\(channels)", "--latency-msec=20"]
        process.standardOutput = try FileHandle(forWritingTo: file)
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: file)
    }

    /// Seconds recorded so far.
    public var duration: Double {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int ?? 0
        return Double(bytes / MemoryLayout<Int16>.size / channels) / Double(rate)
    }

    /// Waits until `seconds` of sound have been recorded since the recorder started: a
    /// condition on the recording, which parec writes as it comes.
    public func waitUntilRecorded(seconds: Double, file: StaticString = #filePath, line: UInt = #line) {
        wait(for: String(format: "%.1f s of sound recorded", seconds), timeout: seconds + 10, file: file, line: line,
             between: { usleep(20_000) }) { self.duration >= seconds }
    }

    /// The samples recorded from `start` seconds on (to `end`, or to now), while the recording
    /// goes on (interleaved, with more than one channel).
    public func samples(from start: Double, to end: Double? = nil) -> [Int16] {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return [] }
        defer { try? handle.close() }
        let frameBytes = MemoryLayout<Int16>.size * channels
        try? handle.seek(toOffset: UInt64(max(0, Int(start * Double(rate))) * frameBytes))
        let data = end.map { handle.readData(ofLength: max(0, Int(($0 - start) * Double(rate))) * frameBytes) }
            ?? handle.readDataToEndOfFile()
        return data.prefix(data.count / frameBytes * frameBytes).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// The level of what is heard once a change made now (a volume, a mute) has reached the
    /// output: `settle` is the sound device's buffer (200 ms) and a margin, waited for in
    /// recorded sound; then the RMS level of the `seconds` after it.
    public func levelOnceChanged(settle: Double = 0.4, over seconds: Double = 0.3,
                                 file: StaticString = #filePath, line: UInt = #line) -> Double {
        let from = duration + settle
        waitUntilRecorded(seconds: from + seconds, file: file, line: line)
        return Self.rms(samples(from: from, to: from + seconds))
    }

    /// The RMS level of samples.
    public static func rms<C: Collection>(_ samples: C) -> Double where C.Element == Int16 {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// `level` against `reference`, in decibels.
    public static func decibels(_ level: Double, relativeTo reference: Double) -> Double {
        20 * log10(max(level, 1e-9) / max(reference, 1e-9))
    }

    /// Stops and returns the samples recorded (interleaved, with more than one channel).
    public func stop() -> [Int16] {
        process.terminate()
        process.waitUntilExit()
        let data = (try? Data(contentsOf: file)) ?? Data()
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// RMS level of each `windowMilliseconds` window of mono samples at `sampleRate`.
    public static func levels(_ samples: [Int16], windowMilliseconds: Int = 10) -> [Double] {
        let size = sampleRate * windowMilliseconds / 1000
        return stride(from: 0, to: samples.count - size, by: size).map { start in
            let window = samples[start..<(start + size)]
            return (window.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(size)).squareRoot()
        }
    }
}
