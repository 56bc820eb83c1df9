// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGtk
import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest

/// Seek-bar previews from their own pipeline: the keyframe at or before the time asked for,
/// small, and kept (chapters.mkv: red 0–4 s, green 4–8 s, blue 8–12 s, a keyframe a second).
@MainActor
final class PreviewFramesTests: XCTestCase {
    /// The texture's middle pixel, as red, green and blue.
    private func middle(_ texture: OpaquePointer) -> (r: UInt8, g: UInt8, b: UInt8) {
        let (width, height, pixels) = bgraPixels(texture)
        let at = ((height / 2) * width + width / 2) * 4
        return (pixels[at + 2], pixels[at + 1], pixels[at])
    }

    func testAFrameComesForATimeAndIsKept() async {
        GStreamer.initialize()
        let frames = PreviewFrames(uri: Paths.mediaURI("chapters.mkv"), width: 160)
        var received: [(Seconds, OpaquePointer)] = []
        frames.onFrame = { received.append(($0, $1)) }
        frames.request(at: 6.5)
        waitUntil("a frame for 6.5 s") { !received.isEmpty }
        guard let (requested, texture) = received.first else { return }
        XCTAssertEqual(requested, 6.5)
        XCTAssertEqual(gdk_texture_get_width(texture), 160, "small")
        let green = middle(texture)
        XCTAssertTrue(green.g > 200 && green.r < 60 && green.b < 60, "the middle part's green: \(green)")
        XCTAssertNotNil(frames.cached(at: 6.2), "between its keyframe (about 6 s) and 6.5 s: the same frame, kept")
        XCTAssertNil(frames.cached(at: 6.8), "past the time asked for: not known to be the same frame")
        XCTAssertNil(frames.cached(at: 10), "nor another keyframe's")

        frames.request(at: 9)
        frames.request(at: 10.5)  // asked before the last is decoded: only the newest need come
        waitUntil("a frame for 10.5 s") { received.contains { $0.0 == 10.5 } }
        let blue = middle(received.last!.1)
        XCTAssertTrue(blue.b > 200 && blue.r < 60 && blue.g < 60, "the ending's blue: \(blue)")
    }

    /// Let go of, a source ends on its own thread (once: a crash there, not here, if it went
    /// wrong), and another one works meanwhile.
    func testSourcesEndOnTheirOwnThreadWhileOthersWork() async {
        GStreamer.initialize()
        for _ in 0..<3 {
            var frame: OpaquePointer?
            let frames = PreviewFrames(uri: Paths.mediaURI("chapters.mkv"), width: 64)
            frames.onFrame = { frame = $1 }
            frames.request(at: 2)
            waitUntil("a frame") { frame != nil }
        }
    }

    /// This process's threads (their names) whose nice value is `nice`.
    private func threads(atNice nice: Int) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task -> String? in
            guard let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
            // After the name: the state is field 3, the nice value field 19.
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            return Int(fields[16]) == nice ? String(stat[stat.index(after: open)..<close]) : nil
        }
    }

    /// Got ready (the pointer moved), the pipeline opens before any request; unused, it closes,
    /// and a request opens it again. Its decoding threads run at a lower priority, and end with
    /// it: none is given back to GLib's shared pool, whose threads playback also uses.
    func testThePipelineOpensWhenGotReadyAndClosesWhenUnused() async {
        GStreamer.initialize()
        let frames = PreviewFrames(uri: Paths.mediaURI("chapters.mkv"), width: 64, idle: 1)
        XCTAssertFalse(frames.isOpen, "nothing opened before it is needed")
        frames.getReady()
        waitUntil("the pipeline open") { frames.isOpen }
        XCTAssertEqual(threads(atNice: 10).filter { $0.hasPrefix("matroskademux") || $0.hasPrefix("multiqueue") }.count, 4,
                       "the demuxer's and the queues' (the decoders') threads at a background priority: \(threads(atNice: 10))")
        waitUntil("the pipeline closed once unused") { !frames.isOpen }
        waitUntil("its threads ended, none kept at the lower priority") { threads(atNice: 10).isEmpty }

        var received: [(Seconds, OpaquePointer)] = []
        frames.onFrame = { received.append(($0, $1)) }
        frames.request(at: 2)
        waitUntil("a frame for 2 s, the pipeline opened again") { !received.isEmpty }
        guard let (_, texture) = received.first else { return }
        let red = middle(texture)
        XCTAssertTrue(red.r > 200 && red.g < 60 && red.b < 60, "the beginning's red: \(red)")
        XCTAssertTrue(frames.isOpen)
    }

    /// In an MP4 with sound, the frame for a keyframe's very time is a keyframe's, decoded
    /// alone: qtdemux (1.22) snaps that seek to the sound sample before, whose keyframe is the
    /// one a second earlier, and starts the segment at the sample, and the decoder decoded a
    /// second of frames to reach it (clip-h264.mp4 has a keyframe every second).
    func testAFrameAtAKeyframesTimeIsAKeyframesAlone() async {
        GStreamer.initialize()
        let frames = PreviewFrames(uri: Paths.mediaURI("clip-h264.mp4"), width: 64)
        var received = false
        frames.onFrame = { _, _ in received = true }
        frames.request(at: 2)
        waitUntil("a frame for 2 s") { received }
        XCTAssertNotNil(frames.cached(at: 1.1), "the frame is the keyframe at 1 s, which stands for 1.1 s too")
    }
}
