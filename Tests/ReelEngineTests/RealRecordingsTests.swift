// SPDX-License-Identifier: GPL-3.0-or-later
import CGtk
import CShims
import Foundation
import ReelCore
import ReelDiagnostics
import ReelEngine
import ReelGLib
import ReelTestSupport
import XCTest

/// Real recordings that nobody on the team made, taken from Debian packages by
/// `meson_helpers/fetch-real-media` (its header says where each comes from), played through the
/// real engine and checked as a user would: it plays without an error or a warning, its length is
/// the one gst-discoverer-1.0 reports, time goes on, a video shows its frames at its display size,
/// a song is heard on the session's null sink, and a seek to the middle lands there and plays on.
@MainActor
final class RealRecordingsTests: EngineTestCase {
    /// What a recording must be, as gst-discoverer-1.0 (and ffprobe) describe it.
    struct Recording {
        let name: String
        let duration: Seconds
        /// The size the picture is shown at (square pixels in all of these); nil: sound only.
        let display: (width: Int, height: Int)?
        /// Whether its sound must reach the speakers.
        let audible: Bool
    }

    /// H.264 High 4:4:4 Predictive (an unusual profile: 4:4:4 chroma) with MP3 at 16 kHz mono in
    /// MP4, from a camera; keyframes 3.8 s and 7.25 s in are I-frames, not IDR. Its sound track
    /// is digital silence in the file itself (−91 dB throughout), so nothing is to be heard.
    func testCockatooH264High444InMP4() async {
        play(Recording(name: "cockatoo.mp4", duration: 14.0, display: (1280, 720), audible: false))
    }

    /// VP8 in WebM, 15 fps, a screen recording with no sound track.
    func testDualMonitorsVP8InWebM() async {
        play(Recording(name: "dual-monitors.webm", duration: 37.133, display: (1024, 768), audible: false))
    }

    /// MS-MPEG-4 v3 ("DivX ;-)", fourcc DIV3) in AVI, 10 fps, a CCTV recording with no sound.
    func testCCTVMSMPEG4InAVI() async {
        play(Recording(name: "vtest.avi", duration: 79.5, display: (768, 576), audible: false))
    }

    /// MP3, 128 kb/s at 11025 Hz mono, no ID3 tags.
    func testMusicLoopMP3() async {
        play(Recording(name: "house-lo.mp3", duration: 7.262, display: nil, audible: true))
    }

    /// Opus, stereo at 48 kHz, in Matroska, with its title and artist in the container's tags.
    func testRingToneOpusInMatroska() async {
        play(Recording(name: "notes-of-the-optimistic.mkv", duration: 29.635, display: nil, audible: true))
    }

    // MARK: - Checks

    static let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["REEL_REAL_MEDIA"]
        ?? Paths.packageRoot.appendingPathComponent(".build/test-media/real").path)

    /// The recording's URI; fails the test (it does not skip it) when it was never fetched.
    private func uri(of name: String, file: StaticString, line: UInt) -> String? {
        let url = Self.folder.appendingPathComponent(name)
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int ?? 0
        guard size > 0 else {
            XCTFail("\(url.path) is missing: run meson_helpers/fetch-real-media first " +
                    "(it downloads the real recordings from Debian's archive), " +
                    "or set REEL_REAL_MEDIA to the folder it fetched them to",
                    file: file, line: line)
            return nil
        }
        return url.absoluteString
    }

    private func play(_ recording: Recording, file: StaticString = #filePath, line: UInt = #line) {
        guard let uri = uri(of: recording.name, file: file, line: line) else { return }
        let name = recording.name
        let player = PlayerHarness()
        let frames = FrameCounter(player.engine.frameSink)
        let monitor: SoundRecorder?
        do {
            monitor = recording.audible ? try SoundRecorder() : nil
        } catch {
            XCTFail("\(name): cannot record the null sink's monitor (\(error)); run inside meson_helpers/test-session",
                    file: file, line: line)
            return
        }

        // It loads and plays, with no error and no warning (a missing decoder is a warning).
        player.model.open([uri])
        let started = waitUntil("\(name) playing", timeout: 20, file: file, line: line) {
            player.model.status == .playing && player.model.duration != nil || problems(player) != nil
        }
        if let problem = problems(player) {
            XCTFail("\(name): \(problem)", file: file, line: line)
            return
        }
        guard started else { return }
        XCTAssertEqual(player.model.duration ?? -1, recording.duration, accuracy: 0.5,
                       "\(name): the length gst-discoverer-1.0 reports", file: file, line: line)
        let media = player.model.media
        XCTAssertEqual(media?.hasVideo, recording.display != nil, "\(name): has a picture", file: file, line: line)
        XCTAssertEqual(media?.isSeekable, true, "\(name): seekable", file: file, line: line)

        // Time goes on, at about the speed of a clock.
        let start = player.model.position, startTime = Date()
        waitUntil("\(name): a second played", timeout: 5, file: file, line: line) { player.model.position >= start + 1 }
        let rate = (player.model.position - start) / Date().timeIntervalSince(startTime)
        XCTAssertEqual(rate, 1, accuracy: 0.35, "\(name): the position follows the clock", file: file, line: line)

        if let display = recording.display {
            checkFrames(player, frames, display: display, name: name, file: file, line: line)
        } else {
            XCTAssertEqual(frames.received, 0, "\(name): no picture, no frames", file: file, line: line)
        }

        // A seek to the middle lands near it, plays on from there, and shows the picture there.
        let target = (recording.duration / 2).rounded()
        let seeks = player.seekedPositions.count
        player.model.seek(to: target)
        waitUntil("\(name): seeked to \(target)", timeout: 10, file: file, line: line) {
            player.seekedPositions.count > seeks
        }
        let landed = player.seekedPositions.last ?? -1
        XCTAssertEqual(landed, target, accuracy: 0.25, "\(name): where the seek landed", file: file, line: line)
        let framesAtSeek = frames.received
        waitUntil("\(name): playing on after the seek", timeout: 5, file: file, line: line) {
            player.model.position > landed + 0.5
        }
        XCTAssertLessThan(player.model.position, target + 3, "\(name): played on from the middle",
                          file: file, line: line)
        if recording.display != nil {
            waitUntil("\(name): frames after the seek", timeout: 5, file: file, line: line) {
                frames.received > framesAtSeek + 2
            }
        }

        // Its sound reached the speakers, before and after the seek.
        var sound = ""
        if let monitor {
            waitUntil("\(name): 2.5 s recorded", timeout: 10, file: file, line: line) { monitor.duration >= 2.5 }
            let levels = SoundRecorder.levels(monitor.stop())
            let loud = levels.filter { $0 > 300 }.count
            sound = String(format: "sound in %d of %d 10 ms, loudest RMS %.0f, ", loud, levels.count, levels.max() ?? 0)
            XCTAssertGreaterThan(loud, 50, "\(name): at least half a second of sound on the null sink " +
                                 "(loudest 10 ms: RMS \(Int(levels.max() ?? 0)))", file: file, line: line)
        }
        XCTAssertNil(problems(player), "\(name): no error or warning while playing", file: file, line: line)
        let size = recording.display.map { "frames \($0.width)×\($0.height), \(frames.received) received, " } ?? ""
        print(String(format: "%@: %.3f s long, played at %.2f×, %@%@seek to %.0f landed at %.3f", name,
                     player.model.duration ?? -1, rate, size, sound, target, landed))
        XCTAssertEqual(player.model.status, .playing, "\(name): still playing", file: file, line: line)
    }

    /// The first error or warning the model reported for the item, in words.
    private func problems(_ player: PlayerHarness) -> String? {
        for change in player.changes {
            switch change {
            case .failed(_, let error): return "failed: \(error.message) (\(error.detail ?? "no detail"))"
            case .warning(_, let warning): return "warning: \(warning.message) (\(warning.detail ?? "no detail"))"
            default: continue
            }
        }
        if case .failed(let error) = player.model.status { return "failed: \(error.message)" }
        return nil
    }

    /// Frames reach the sink and the picture is shown at the video's display size: the paintable's
    /// intrinsic size (what the window letterboxes to) and, with no window to make them smaller,
    /// the frames themselves.
    private func checkFrames(_ player: PlayerHarness, _ frames: FrameCounter, display: (width: Int, height: Int),
                             name: String, file: StaticString, line: UInt) {
        waitUntil("\(name): frames", timeout: 5, file: file, line: line) { frames.received > 5 }
        let paintable = player.engine.frameSink.paintable.pointer
        waitUntil("\(name): a frame shown", timeout: 5, file: file, line: line) {
            reel_video_paintable_get_texture(paintable) != nil
        }
        let shown = (Int(gdk_paintable_get_intrinsic_width(gcast(paintable))),
                     Int(gdk_paintable_get_intrinsic_height(gcast(paintable))))
        XCTAssertTrue(shown == display, "\(name): shown at \(shown), not \(display)", file: file, line: line)
        if let texture = reel_video_paintable_get_texture(paintable) {
            let made = (Int(gdk_texture_get_width(texture)), Int(gdk_texture_get_height(texture)))
            XCTAssertTrue(made == display, "\(name): frames made at \(made), not \(display)", file: file, line: line)
        }
        if let format = player.model.media?.videoFormat {
            XCTAssertTrue((format.width, format.height) == display,
                          "\(name): media info says \(format.width)×\(format.height)", file: file, line: line)
        }
    }
}
