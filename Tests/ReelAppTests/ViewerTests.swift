import Foundation
import ReelTestSupport
import XCTest

/// What viewers reach for, on the real app: frame stepping.
final class ViewerTests: XCTestCase {
    private func seeked(_ app: ReelApp) -> [Double] {
        app.bus.pump(for: 0.05)
        return app.bus.signals.filter { $0.member == "Seeked" }.compactMap { $0.arguments.first?.int64Value }.map { Double($0) / 1e6 }
    }

    /// frames.mp4's white bar across the middle of the window: its left edge and width, in
    /// screen pixels (the longest run of white: the header bar and window border are greyer), and the
    /// picture's height (the bar's, which is the picture's whole height).
    private func bar(_ app: ReelApp) -> (left: Int, width: Int, height: Int)? {
        guard let shot = app.screenshot() else { return nil }
        func white(_ x: Int, _ y: Int) -> Bool { let p = shot.pixel(x, y); return p.r > 245 && p.g > 245 && p.b > 245 }
        var best: (left: Int, width: Int)?
        var start: Int?
        for x in 0...shot.width {
            if x < shot.width && white(x, shot.height / 2) {
                if start == nil { start = x }
            } else if let from = start {
                if x - from > (best?.width ?? 0) { best = (from, x - from) }
                start = nil
            }
        }
        guard let best else { return nil }
        let column = best.left + best.width / 2
        let rows = (0..<shot.height).filter { white(column, $0) }
        guard let top = rows.first, let bottom = rows.last else { return nil }
        return (best.left, best.width, bottom - top + 1)
    }

    /// Paused, "." shows the next frame and "," the previous one, across a keyframe too; the
    /// position over MPRIS is each frame's own time. Frame N's bar starts at -3N mod 320 in
    /// the video's 320 pixels, so where it stands says which frame is on screen.
    func testFrameSteppingShowsTheExactNextAndPreviousFrame() throws {
        let app = try ReelApp([Paths.media("frames.mp4")])
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        app.waitForPlaying()
        app.key("period")
        eventually("\".\" pauses") { app.status == "Paused" }
        let track = try XCTUnwrap(app.metadata["mpris:trackid"]?.stringValue)
        try app.player("SetPosition", [.objectPath(track), .int64(0)])
        eventually("at 0 s") { self.seeked(app).last == 0 }
        // Frame 0: the bar at the picture's left edge, 45 of the video's pixels wide (the same
        // in two screenshots in a row: the frame from before the seek is gone).
        var origin: (left: Int, width: Int, height: Int) = (0, 0, 0)
        eventually("frame 0 on screen") {
            guard let bar = self.bar(app), bar.width > 60, let again = self.bar(app), again == bar else { return false }
            origin = bar
            return true
        }
        let scale = Double(origin.height) / 240  // screen pixels to the video's
        func frameShown() -> Int? {
            guard let bar = bar(app) else { return nil }
            let videoX = Double(bar.left - origin.left) / scale
            return Int(((320 - videoX).truncatingRemainder(dividingBy: 320) / 3).rounded())
        }
        try app.player("SetPosition", [.objectPath(track), .int64(1_000_000)])
        eventually("frame 30, the keyframe at 1 s") { frameShown() == 30 }
        for (key, frame) in [("comma", 29), ("comma", 28), ("period", 29), ("period", 30), ("period", 31)] {
            app.key(key)
            eventually("\(key): frame \(frame) at \(Double(frame) / 30) s (Seeked: \(seeked(app).suffix(3)), shown \(frameShown() ?? -1))") {
                frameShown() == frame && abs(app.position - Double(frame) / 30) < 0.001
            }
        }
        XCTAssertEqual(app.status, "Paused")
    }
}
