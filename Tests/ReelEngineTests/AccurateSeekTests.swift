// SPDX-License-Identifier: GPL-3.0-or-later
import CGtk
import CShims
import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest

/// Accurate seeks into the middle of a group of pictures, in video coded with B-frames as cameras
/// code it (frames-b*: a white bar moving 3 px left a frame, frame N's left edge at -3N mod 320;
/// keyframes 2 s apart). The frames before the target that no other frame refers to are not
/// decoded, and the frame shown (or grabbed, for a still or a screenshot) is still exactly the
/// target's.
@MainActor
final class AccurateSeekTests: EngineTestCase {
    private let files = ["frames-b.mp4", "frames-b-h265.mp4"]

    /// Where frame N's bar starts.
    private func edge(_ frame: Int) -> Int { (320 - frame * 3 % 320) % 320 }

    /// The bar's left edges on the middle row of the frame shown.
    private func barEdgesShown(_ paintable: OpaquePointer) -> [Int] {
        reel_video_paintable_show_newest(paintable)  // as a repaint would: nothing draws here
        return reel_video_paintable_get_texture(paintable).map(barEdges) ?? []
    }

    /// The bar's left edges on the middle row of a frame, at 320 pixels across: one, where the
    /// frame is whole; more, or none, where a missing reference smeared it.
    private func barEdges(_ texture: OpaquePointer) -> [Int] {
        let (width, height, pixels) = bgraPixels(texture)
        let row = (height / 2) * width * 4
        let white = (0..<width).map { pixels[row + $0 * 4 + 2] > 200 }  // red
        return (0..<width).filter { white[$0] && !white[($0 + width - 1) % width] }.map { $0 * 320 / width }
    }

    func testFramesNoOtherFrameRefersToAreSkippedAndTheTargetsFrameIsShown() async {
        for name in files {
            let player = PlayerHarness()
            let paintable = player.engine.frameSink.paintable.pointer
            player.open(name)
            player.waitForPlaying()
            player.model.pause()
            waitUntil("\(name): paused") { player.model.status == .paused }
            // Frames 45, 105 and 15: 45, 45 and 15 frames past the keyframe before each.
            for frame in [45, 105, 15] {
                let spared = reel_decoders_frames_spared()
                player.model.seek(to: Double(frame) / 30)
                waitUntil("\(name): frame \(frame) shown, whole (bar at \(edge(frame)))", timeout: 5) {
                    self.barEdgesShown(paintable) == [self.edge(frame)]
                }
                XCTAssertGreaterThan(reel_decoders_frames_spared(), spared, "\(name): frames spared before frame \(frame)")
            }
        }
    }

    /// Stills (a paused window restored while its video was detached) and screenshots come from a
    /// pipeline of their own, which skips the same frames.
    func testStillsSkipThemToo() async {
        GStreamer.initialize()
        for name in files {
            let spared = reel_decoders_frames_spared()
            var grabbed: [Int]?
            FrameGrabber.grab(uri: Paths.mediaURI(name), at: 1.5) { texture in
                grabbed = texture.map(self.barEdges) ?? []
                if let texture { g_object_unref(UnsafeMutableRawPointer(texture)) }
            }
            waitUntil("\(name): the still at 1.5 s", timeout: 5) { grabbed != nil }
            XCTAssertEqual(grabbed, [edge(45)], "\(name): frame 45, whole")
            XCTAssertGreaterThan(reel_decoders_frames_spared(), spared, "\(name): frames spared")
        }
    }
}
