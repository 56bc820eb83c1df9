// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelCore
import ReelEngine
import CGStreamer
import ReelTestSupport
import XCTest

/// Broken input ends in `failed` with words a person understands, and the engine keeps working.
@MainActor
final class ErrorTests: EngineTestCase {
    /// Each failure comes well within the model's 10 s start timeout, the last resort for a
    /// pipeline that neither plays nor fails.
    private func failure(opening uri: String, file: StaticString = #filePath, line: UInt = #line) -> PlaybackError? {
        let player = PlayerHarness()
        player.model.open([uri])
        waitUntil("failure", timeout: 5, file: file, line: line) {
            if case .failed = player.model.status { return true }
            return false
        }
        guard case .failed(let error) = player.model.status else { return nil }
        // The same engine then plays a good file.
        player.open("clip-vp9.webm")
        player.waitForPlaying(file: file, line: line)
        player.model.stop()
        return error
    }

    func testMissingFile() async {
        let error = failure(opening: Paths.mediaURI("does-not-exist.mp4"))
        XCTAssertEqual(error?.kind, .notFound)
        XCTAssertEqual(error?.message, "“does-not-exist.mp4” does not exist.")
    }

    func testEmptyFile() async {
        let error = failure(opening: Paths.mediaURI("empty.mp4"))
        XCTAssertEqual(error?.kind, .notMedia)
        XCTAssertEqual(error?.message, "“empty.mp4” is empty.")
    }

    func testRandomBytesAndText() async {
        for name in ["random.mp4", "text.mkv"] {
            let error = failure(opening: Paths.mediaURI(name))
            XCTAssertEqual(error?.kind, .notMedia, name)
            XCTAssertEqual(error?.message, "“\(name)” is not a video Reel can read.")
        }
    }

    /// An MP4 cut off before its index (written last): GStreamer 1.22's playbin sometimes loses
    /// qtdemux's error about it, so a few in a row, in one process, as a user would try them.
    func testTruncatedFile() async {
        for _ in 0..<4 {
            let error = failure(opening: Paths.mediaURI("truncated.mp4"))
            XCTAssertEqual(error?.kind, .notMedia)
            XCTAssertEqual(error?.message, "“truncated.mp4” could not be opened; it may be damaged or incomplete.")
        }
    }

    func testFolder() async {
        let error = failure(opening: Paths.media.absoluteString)
        XCTAssertEqual(error?.kind, .notMedia)
    }
}

enum TestMediaNames {
    static let audioOnly = "audio-only.ogg"
}

/// A codec without a decoder names the codec and the Debian package to install.
@MainActor
final class MissingCodecTests: EngineTestCase {
    func testMissingDecoderNamesTheCodecAndThePackage() async throws {
        GStreamer.initialize()
        // Hide every H.264 decoder, as on a system without gstreamer1.0-libav: decodebin only
        // plugs elements ranked at least MARGINAL.
        let registry = gst_registry_get()
        var hidden: [(OpaquePointer, guint)] = []
        for name in ["avdec_h264", "openh264dec", "v4l2h264dec", "vaapih264dec", "nvh264dec", "vah264dec"] {
            guard let feature = gst_registry_lookup_feature(registry, name) else { continue }
            hidden.append((feature, gst_plugin_feature_get_rank(feature)))
            gst_plugin_feature_set_rank(feature, 0)
        }
        defer {
            for (feature, rank) in hidden {
                gst_plugin_feature_set_rank(feature, rank)
                gst_object_unref(UnsafeMutableRawPointer(feature))
            }
        }
        XCTAssertFalse(hidden.isEmpty, "an H.264 decoder is installed to hide")
        let player = PlayerHarness()
        player.open("clip-h264.mp4")
        // The sound has its decoder and plays on; the user is told what the video lacks.
        var problem: PlaybackError?
        waitUntil("a warning about the missing decoder") {
            for case .warning(_, let p) in player.changes { problem = p }
            return problem != nil
        }
        let error = try XCTUnwrap(problem)
        XCTAssertEqual(error.kind, .missingCodec)
        XCTAssertTrue(error.message.contains("H.264"), error.message)
        XCTAssertTrue(error.message.contains("gstreamer1.0-libav"), error.message)
    }
}

/// http and https URIs play like files (served here by a local test server on 127.0.0.1).
@MainActor
final class NetworkTests: EngineTestCase {
    func testPlaysOverHTTP() async throws {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let port = Int.random(in: 20000..<40000)
        server.arguments = ["python3", "-m", "http.server", "--bind", "127.0.0.1", "\(port)", "--directory", Paths.media.path]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        let player = PlayerHarness()
        // The server needs a moment to listen; a refused connection fails the item, so retry.
        waitUntil("the stream plays", timeout: 15) {
            if case .failed = player.model.status { player.model.open(["http://127.0.0.1:\(port)/clip-vp9.webm"]) }
            if player.model.currentItem == nil { player.model.open(["http://127.0.0.1:\(port)/clip-vp9.webm"]) }
            return player.model.status == .playing && player.model.position > 0.2
        }
        XCTAssertEqual(player.model.duration ?? 0, 5, accuracy: 0.2)
        player.model.stop()
    }
}
