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
/// decoded, and the frame shown is still exactly the target's.
@MainActor
final class AccurateSeekTests: EngineTestCase {
    /// The bar's left edges on the middle row of the frame shown, at 320 pixels across: one,
    /// where the frame is whole; more, or none, where a missing reference smeared it.
    private func barEdges(_ paintable: OpaquePointer) -> [Int] {
        reel_video_paintable_show_newest(paintable)  // as a repaint would: nothing draws here
        guard let texture = reel_video_paintable_get_texture(paintable) else { return [] }
        let width = Int(gdk_texture_get_width(texture)), height = Int(gdk_texture_get_height(texture))
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        gdk_texture_download(texture, &pixels, gsize(width * 4))
        let row = (height / 2) * width * 4
        let white = (0..<width).map { pixels[row + $0 * 4 + 2] > 200 }  // cairo's ARGB32: B, G, R, A
        return (0..<width).filter { white[$0] && !white[($0 + width - 1) % width] }.map { $0 * 320 / width }
    }

    func testFramesNoOtherFrameRefersToAreSkippedAndTheTargetsFrameIsShown() async {
        for name in ["frames-b.mp4", "frames-b-h265.mp4"] {
            let player = PlayerHarness()
            let paintable = player.engine.frameSink.paintable.pointer
            player.open(name)
            player.waitForPlaying()
            player.model.pause()
            waitUntil("\(name): paused") { player.model.status == .paused }
            // Frames 45, 105 and 15: 45, 45 and 15 frames past the keyframe before each.
            for frame in [45, 105, 15] {
                let spared = player.engine.framesNotDecoded
                let edge = (320 - frame * 3 % 320) % 320
                player.model.seek(to: Double(frame) / 30)
                waitUntil("\(name): frame \(frame) shown, whole (bar at \(edge))", timeout: 5) {
                    self.barEdges(paintable) == [edge]
                }
                XCTAssertGreaterThan(player.engine.framesNotDecoded, spared, "\(name): frames spared before frame \(frame)")
            }
        }
    }
}
