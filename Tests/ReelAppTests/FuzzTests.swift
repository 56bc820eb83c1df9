import Foundation
import XCTest

/// A misbehaving MPRIS client: random methods and property writes, with wrong types, NaN,
/// infinities, huge and negative numbers, stale track ids, odd URIs and long or invalid text,
/// for a bounded time. Reel must refuse what is wrong, never crash, and keep answering.
///
/// Opt-in (REEL_FUZZ=1) because it FAILS today — issue 9's open work, not a passing check:
/// thousands of loads a second (OpenUri, AddTrack/GoTo, Next) once crashed Reel after 17 693
/// calls, and once left it unable to play afterwards; GStreamer meanwhile reported errors for
/// good files. REEL_FUZZ_SEED repeats a run's calls (timing still varies); REEL_FUZZ_SECONDS
/// sets its length.
final class FuzzTests: XCTestCase {
    func testRandomMPRISCallsNeitherCrashNorHang() throws {
        guard ProcessInfo.processInfo.environment["REEL_FUZZ"] == "1" else {
            throw XCTSkip("opt-in reproducer for issue 9 (REEL_FUZZ=1); it fails today")
        }
        let app = try ReelApp([Paths.media("short-1.webm"), Paths.media("tone-30s.webm"), Paths.media("short-2.webm")])
        app.waitForPlaying()
        var generator = SystemRandomNumberGenerator()
        let seed = UInt64(ProcessInfo.processInfo.environment["REEL_FUZZ_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max, using: &generator)
        var rng = SplitMix(seed: seed)
        print("MPRIS fuzz seed \(seed)")
        let doubles: [Double] = [.nan, .infinity, -.infinity, -1, 0, 0.1, 1, 1.8, 4, 1e300, -1e-300]
        let int64s: [Int64] = [.min, .max, -1, 0, 1, 5_000_000, 29_000_000, 10_000_000_000_000]
        let texts = ["", "x", String(repeating: "ü", count: 10_000), "<b>&amp;</b>", "file:///nonexistent.mp4",
                     "ftp://example.com/a.mp4", "javascript:alert(1)", "http://127.0.0.1:1/x.mp4", "/org/reelplayer/Reel/Track/999999",
                     Paths.mediaURI("random.mp4"), Paths.mediaURI("short-2.webm"), "\u{0}\u{1}\u{7f}", "None", "Track", "Playlist"]
        func text() -> String { texts[Int(rng.next() % UInt64(texts.count))] }
        func anyArgument() -> DBusArgument {
            switch rng.next() % 9 {
            case 0: return .string(text())
            case 1: return .objectPath(["/", "/org/mpris/MediaPlayer2/TrackList/NoTrack", "/org/reelplayer/Reel/Track/1"][Int(rng.next() % 3)])
            case 2: return .int64(int64s[Int(rng.next() % UInt64(int64s.count))])
            case 3: return .uint32(UInt32(truncatingIfNeeded: rng.next()))
            case 4: return .bool(rng.next() % 2 == 0)
            case 5: return .variantDouble(doubles[Int(rng.next() % UInt64(doubles.count))])
            case 6: return .variantString(text())
            case 7: return .variantBool(rng.next() % 2 == 0)
            default: return .variantInt32(Int32(truncatingIfNeeded: rng.next()))
            }
        }
        let methods = [("org.mpris.MediaPlayer2.Player", ["Next", "Previous", "Pause", "PlayPause", "Stop", "Play", "Seek", "SetPosition", "OpenUri"]),
                       ("org.mpris.MediaPlayer2", ["Raise"]),
                       ("org.mpris.MediaPlayer2.TrackList", ["GetTracksMetadata", "AddTrack", "RemoveTrack", "GoTo"])]
        let properties = ["Rate", "Volume", "LoopStatus", "Shuffle", "Fullscreen", "Position", "PlaybackStatus"]
        var calls = 0, refused = 0
        let end = Date().addingTimeInterval(Double(ProcessInfo.processInfo.environment["REEL_FUZZ_SECONDS"] ?? "") ?? 12)
        while Date() < end {
            do {
                if rng.next() % 3 == 0 {
                    let name = properties[Int(rng.next() % UInt64(properties.count))]
                    let interface = name == "Fullscreen" ? "org.mpris.MediaPlayer2" : ReelApp.playerInterface
                    _ = try app.bus.call(ReelApp.busName, ReelApp.mprisPath, "org.freedesktop.DBus.Properties", "Set",
                                         [.string(interface), .string(name), anyArgument()])
                } else {
                    let (interface, names) = methods[Int(rng.next() % UInt64(methods.count))]
                    let method = names[Int(rng.next() % UInt64(names.count))]
                    let arguments = (0..<Int(rng.next() % 4)).map { _ in anyArgument() }
                    _ = try app.bus.call(ReelApp.busName, ReelApp.mprisPath, interface, method, arguments)
                }
            } catch {
                refused += 1
            }
            calls += 1
            if !app.process.isRunning {
                let crashDir = (ProcessInfo.processInfo.environment["XDG_STATE_HOME"] ?? "") + "/reel/crash"
                let reports = ((try? FileManager.default.contentsOfDirectory(atPath: crashDir)) ?? [])
                    .compactMap { try? String(contentsOfFile: crashDir + "/" + $0, encoding: .utf8) }
                XCTFail("Reel died after \(calls) calls (seed \(seed)), status \(app.process.terminationStatus): " +
                        "\(reports.joined(separator: "\n")) \(app.output.suffix(1500))")
            }
            if !app.process.isRunning { return }
        }
        print("MPRIS fuzz: \(calls) calls, \(refused) refused with an error")
        XCTAssertGreaterThan(calls, 100)
        // Still answering, and still a player: it plays what it is asked to.
        let started = Date()
        XCTAssertFalse(app.status.isEmpty)
        XCTAssertLessThan(Date().timeIntervalSince(started), 1, "answers at once after the storm")
        try app.player("OpenUri", [.string(Paths.mediaURI("short-2.webm"))])
        try app.player("Play")
        app.waitForPlaying("short-2")
    }
}

/// A small seeded generator, so a failing run can be repeated with its printed seed.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
