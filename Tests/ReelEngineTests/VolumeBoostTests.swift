// SPDX-License-Identifier: GPL-3.0-or-later
import CShims
import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest

/// Volume up to 150 %: the part above 100 % is gain in the sink bin followed by a limiter
/// (audio_sink.c), measured on what reaches the session's null sink.
@MainActor
final class VolumeBoostTests: EngineTestCase {
    /// The session's null sink's own rate.
    nonisolated static let rate = 44100

    /// A -12 dBFS sine at 150 % is 1.5 times (3.5 dB) louder than at 100 %: no limiting there.
    func testAQuietSineAt150PercentIsOneAndAHalfTimesLouder() async throws {
        try requireLimiter()
        let full = try Tone(try record("sine-1k-12dbfs.flac", volume: 1))
        let boosted = try Tone(try record("sine-1k-12dbfs.flac", volume: 1.5))
        let gain = 20 * log10(boosted.amplitude / full.amplitude)
        print(String(format: "-12 dBFS sine: %.2f dBFS at 100 %%, %.2f dBFS at 150 %%: +%.2f dB", 20 * log10(full.amplitude),
                     20 * log10(boosted.amplitude), gain))
        XCTAssertEqual(20 * log10(full.amplitude), -12, accuracy: 1, "at 100 % the file's own level")
        XCTAssertEqual(gain, 20 * log10(1.5), accuracy: 1, "150 % is 3.5 dB louder")
        XCTAssertLessThan(boosted.distortion, 0.01, "and no more distorted")
    }

    /// A full-scale sine at 150 % is limited to full scale, not clipped: its peaks stay at or
    /// under 1.0 and its harmonics (2 to 10) under 1 % of it; at 100 % it passes as it is.
    func testAFullScaleSineAt150PercentIsLimitedNotClipped() async throws {
        try requireLimiter()
        let full = try Tone(try record("sine-1k-0dbfs.flac", volume: 1))
        let boosted = try Tone(try record("sine-1k-0dbfs.flac", volume: 1.5))
        print(String(format: "full-scale sine: at 100 %% peak %.4f, THD %.3f %%; at 150 %% peak %.4f, THD %.3f %%, %.2f dBFS",
                     full.peak, full.distortion * 100, boosted.peak, boosted.distortion * 100, 20 * log10(boosted.amplitude)))
        XCTAssertLessThan(full.distortion, 0.001, "at 100 % the limiter is out of the way")
        XCTAssertEqual(20 * log10(full.amplitude), 0, accuracy: 0.5, "at 100 % the file's own level")
        XCTAssertLessThanOrEqual(boosted.peak, 1)
        XCTAssertEqual(20 * log10(boosted.amplitude), 0, accuracy: 1, "at 150 % at or just under full scale")
        XCTAssertLessThan(boosted.distortion, 0.01, "at 150 % the sine is limited, not clipped")
    }

    /// The device keeps the part up to 100 % (what the desktop's sound settings show), and a
    /// change made there still reaches GstPlay's volume-changed, boost or not; mute too.
    func testTheDesktopSeesAndChangesTheStreamVolume() async throws {
        try requireLimiter()
        let player = PlayerHarness()
        player.open("tone-30s.webm")  // long enough for every wait below
        player.waitForPlaying()
        player.engine.setVolume(0.6)
        waitUntil("the stream at 60 %") { abs(((try? Self.stream().volume) ?? 0) - 0.6) < 0.01 }
        player.engine.setVolume(1.5)
        waitUntil("volume-changed: 150 %") { abs(player.model.volume - 1.5) < 0.001 }
        waitUntil("the stream at 100 % while boosted") { abs(((try? Self.stream().volume) ?? 0) - 1) < 0.001 }

        try Self.pactl("set-sink-input-volume", String(try Self.stream().index), "0.5")
        waitUntil("the desktop's 50 % reached the model") { abs(player.model.volume - 0.5) < 0.01 }
        runMainLoop(for: 0.5)
        XCTAssertEqual(player.model.volume, 0.5, accuracy: 0.01, "and stayed: the boost went with it")
        XCTAssertEqual(try Self.stream().volume, 0.5, accuracy: 0.01)

        player.engine.setMuted(true)
        waitUntil("the stream muted") { (try? Self.stream().muted) == true }
        try Self.pactl("set-sink-input-mute", String(try Self.stream().index), "0")
        waitUntil("the desktop's unmute reached the model") { !player.model.isMuted }
    }

    // MARK: Measuring

    private func requireLimiter() throws {
        GStreamer.initialize()
        try XCTSkipUnless(reel_volume_limiter_factory() != nil, "LSP's limiter (lsp-plugins-ladspa) is not installed")
    }

    /// Plays `name` at `volume` and records 2.5 s of the null sink's monitor from 1 s in (the
    /// clips last 6 s): the left channel, -1…1.
    private func record(_ name: String, volume: Double) throws -> [Double] {
        let player = PlayerHarness()
        player.engine.setVolume(volume)
        player.open(name)
        player.waitForPlaying()
        waitUntil("a second in", timeout: 5) { player.model.position >= 1 }
        // The session's own format, 16-bit stereo at 44.1 kHz: nothing converted on the way.
        let recorder = try SoundRecorder(rate: Self.rate, channels: 2)
        waitUntil("2.5 s recorded", timeout: 6) { recorder.duration >= 2.5 }
        XCTAssertEqual(player.model.status, .playing)
        // The left channel, -1…1.
        let samples = recorder.stop()
        return stride(from: 0, to: samples.count - 1, by: 2).map { Double(Int16(littleEndian: samples[$0])) / 32768 }
    }

    /// Runs `pactl` with `arguments`; its output.
    @discardableResult
    private static func pactl(_ arguments: String...) throws -> Data {
        let process = Process(), pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pactl"] + arguments
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return output
    }

    /// This process's stream on the sound server, as the desktop's sound settings see it.
    private static func stream() throws -> (index: Int, volume: Double, muted: Bool) {
        let inputs = try JSONSerialization.jsonObject(with: pactl("-f", "json", "list", "sink-inputs")) as? [[String: Any]] ?? []
        let pid = String(ProcessInfo.processInfo.processIdentifier)
        // The newest: an earlier test's stream may still be closing.
        guard let input = inputs.last(where: { ($0["properties"] as? [String: Any])?["application.process.id"] as? String == pid }),
              let index = input["index"] as? Int,
              let channel = (input["volume"] as? [String: [String: Any]])?.values.first,
              let raw = channel["value"] as? Int
        else { throw CocoaError(.fileReadUnknown) }
        // PulseAudio's software volume is cubic: PA_VOLUME_NORM (65536) is 1.0.
        return (index, pow(Double(raw) / 65536, 3), input["mute"] as? Bool ?? false)
    }
}

/// A 1 kHz tone measured over 2 s of a recording: its amplitude (the median of its 50 ms
/// stretches': a gap in the sound, the machine's and not the volume's, leaves it be), its peak
/// and its total harmonic distortion (harmonics 2 to 10 over the fundamental, in amplitude).
private struct Tone {
    let amplitude: Double, peak: Double, distortion: Double

    init(_ samples: [Double], rate: Double = Double(VolumeBoostTests.rate)) throws {
        // 2 s from 0.25 s in: whole cycles of 1 kHz, past where the recording began.
        let start = Int(0.25 * rate), count = Int(2 * rate)
        guard samples.count >= start + count else { throw CocoaError(.fileReadCorruptFile) }
        let stretch = Array(samples[start..<(start + count)])
        peak = stretch.map(abs).max() ?? 0
        let window = Int(rate / 20)
        let amplitudes = stride(from: 0, through: count - window, by: window).map { start in
            (stretch[start..<(start + window)].map { $0 * $0 }.reduce(0, +) / Double(window) * 2).squareRoot()
        }.sorted()
        amplitude = amplitudes[amplitudes.count / 2]
        let harmonics = (1...10).map { Self.amplitude(of: stretch, at: 1000 * Double($0), rate: rate) }
        distortion = (harmonics.dropFirst().map { $0 * $0 }.reduce(0, +)).squareRoot() / max(harmonics[0], 1e-9)
    }

    /// The amplitude of the sine at `frequency` in `samples` (Goertzel, Hann-windowed).
    static func amplitude(of samples: [Double], at frequency: Double, rate: Double) -> Double {
        let n = Double(samples.count), coefficient = 2 * cos(2 * Double.pi * frequency / rate)
        var previous = 0.0, beforePrevious = 0.0
        for (i, sample) in samples.enumerated() {
            let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / n)
            let current = sample * window + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        // A Hann window keeps half of a sine's amplitude.
        return power.squareRoot() / (n / 2) / 0.5
    }
}
