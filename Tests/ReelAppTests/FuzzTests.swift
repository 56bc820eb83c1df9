// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// A misbehaving MPRIS client: random methods and property writes, with wrong types, NaN,
/// infinities, huge and negative numbers, stale track ids, odd URIs and long or invalid text,
/// for a bounded time (REEL_FUZZ_SECONDS, 12 s in CI); and files whose tags are long, invalid
/// UTF-8 or markup. Reel must refuse what is wrong, never crash, keep answering, and show tags
/// as the plain text they are. A failing run prints its seed; REEL_FUZZ_SEED repeats its calls
/// (timing still varies).
final class FuzzTests: XCTestCase {
    func testRandomMPRISCallsNeitherCrashNorHang() throws {
        let app = try ReelApp([Paths.media("short-1.webm"), Paths.media("tone-30s.webm"), Paths.media("short-2.webm")])
        app.waitForPlaying()
        let seed = Self.seed()
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
        let end = Date().addingTimeInterval(Self.seconds)
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
                XCTFail("Reel died after \(calls) calls (seed \(seed)), status \(app.process.terminationStatus): " +
                        "\(app.crashReports) \(app.output.suffix(1500))")
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

extension FuzzTests {
    static var seconds: Double { Double(ProcessInfo.processInfo.environment["REEL_FUZZ_SECONDS"] ?? "") ?? 12 }

    static func seed() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return UInt64(ProcessInfo.processInfo.environment["REEL_FUZZ_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max, using: &generator)
    }

    /// Tag text a file may carry: bytes, not necessarily UTF-8.
    static func tagBytes(_ rng: inout SplitMix) -> [UInt8] {
        let pick = rng.next() % 7
        switch pick {
        case 0: return Array("<b>bold</b> & <i>it</i> <span foreground='red'>x</span> &amp; &lt;".utf8)
        case 1: return Array(String(repeating: "長い題名", count: 3000).utf8)
        case 2: return (0..<Int(rng.next() % 300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }  // not UTF-8
        case 3: return [0xC3, 0x28, 0xA0, 0xA1, 0xE2, 0x28, 0xA1, 0xF0, 0x28, 0x8C, 0xBC, 0x41]     // broken sequences
        case 4: return Array("\u{202E}evil\u{0007}\u{001B}[31m\tline\nbreak 🎬".utf8)
        case 5: return []
        default: return Array("%s %n %@ {0} $(reboot) `id` ../../etc/passwd".utf8)
        }
    }

    /// An MP3 with an ID3v2.4 tag whose title, artist and album are `texts`, as UTF-8-labelled bytes.
    static func taggedMP3(_ audio: Data, _ texts: [[UInt8]]) -> Data {
        func syncsafe(_ n: Int) -> [UInt8] { [UInt8((n >> 21) & 0x7F), UInt8((n >> 14) & 0x7F), UInt8((n >> 7) & 0x7F), UInt8(n & 0x7F)] }
        var frames: [UInt8] = []
        for (id, text) in zip(["TIT2", "TPE1", "TALB"], texts) {
            let body = [UInt8(3)] + text  // 3: UTF-8, which the bytes need not be
            frames += Array(id.utf8) + syncsafe(body.count) + [0, 0] + body
        }
        return Data(Array("ID3".utf8) + [4, 0, 0] + syncsafe(frames.count) + frames) + audio
    }

    func testRandomTagsShowAsPlainTextAndNeverCrash() throws {
        let seed = Self.seed()
        var rng = SplitMix(seed: seed)
        print("tag fuzz seed \(seed)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reel-tags-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("plain.mp3").path
        let made = shell("gst-launch-1.0", ["-q", "audiotestsrc", "num-buffers=1000", "!", "lamemp3enc", "!", "filesink", "location=\(plain)"])
        XCTAssertEqual(made.status, 0, made.output)
        let audio = try Data(contentsOf: URL(fileURLWithPath: plain))
        var files: [(path: String, title: [UInt8])] = []
        for index in 0..<11 {
            // The last file's title, artist and album are all long: together they once passed
            // what PulseAudio takes in one message, and the sound stopped.
            let texts = index == 10 ? Array(repeating: Array(String(repeating: "長い題名", count: 3000).utf8), count: 3)
                                    : (0..<3).map { _ in Self.tagBytes(&rng) }
            let path = directory.appendingPathComponent(String(format: "tagged-%02d.mp3", index)).path
            try Self.taggedMP3(audio, texts).write(to: URL(fileURLWithPath: path))
            files.append((path, texts[0]))
        }
        let app = try ReelApp([])
        for (index, file) in files.enumerated() {
            // One at a time, so a slow check never lets the next file start unseen.
            try app.player("OpenUri", [.string(URL(fileURLWithPath: file.path).absoluteString)])
            eventually("tagged file \(index) playing", timeout: 15) {
                app.status == "Playing" && (app.metadata["xesam:url"]?.stringValue ?? "").hasSuffix(String(format: "tagged-%02d.mp3", index))
            }
            XCTAssertTrue(app.process.isRunning, "Reel died on tags of file \(index) (seed \(seed))")
            guard app.process.isRunning else { return }
            let text = file.title.contains(0) ? "" : String(bytes: file.title, encoding: .utf8) ?? ""
            let hasControls = text.unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) }
            if !text.isEmpty, !hasControls {
                // Valid text comes through untouched (tags arrive just after playback starts):
                // markup stays literal, nothing is interpreted.
                var seen = ""
                eventually("the MPRIS title of file \(index) is its tag, literally") { seen = app.title; return seen == text }
                if seen != text { print("tag fuzz: file \(index): MPRIS title \(seen.prefix(80)) (\(seen.count) characters), tag \(text.prefix(80)) (\(text.count))") }
                eventually("the window title of file \(index) is its tag, literally") {
                    app.windowTitle == text
                }
            } else {
                // Undecodable bytes or control characters: GStreamer may convert or cut them;
                // Reel must still show some title and keep going.
                XCTAssertFalse(app.title.isEmpty, "a title, even for tag bytes like these (file \(index))")
            }
        }
        _ = app.screenshot("tag-fuzz")
    }
}

/// A small seeded generator, so a failing run can be repeated with its printed seed.
struct SplitMix: RandomNumberGenerator {
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
