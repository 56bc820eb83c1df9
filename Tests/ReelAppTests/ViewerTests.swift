import Foundation
import ReelTestSupport
import XCTest

/// What viewers reach for, on the real app: frame stepping, screenshots and the copied frame.
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

    /// An image file read through ImageMagick (PNG in, the harness's PPM out).
    private func image(at file: URL) -> Image? {
        let ppm = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).ppm")
        defer { try? FileManager.default.removeItem(at: ppm) }
        guard shell("convert", [file.path, ppm.path]).status == 0, let data = try? Data(contentsOf: ppm) else { return nil }
        return Image(ppm: data)
    }

    /// frames.mp4's bar in a frame at the video's own size: its left edge on the middle row.
    private func barLeft(_ image: Image) -> Int? {
        (0..<image.width).first { x in
            let p = image.pixel(x, image.height / 2), q = image.pixel((x + 319) % 320, image.height / 2)
            return p.r > 200 && q.r < 50
        }
    }

    /// Ctrl+Alt+S saves the frame at the position, at the video's own size, in
    /// Pictures/Screenshots, named after the title and position; minimized too. Ctrl+Shift+C
    /// puts it on the clipboard as an image.
    func testScreenshotsAndTheCopiedFrameAreTheMediasOwnFrames() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("reel-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent("config"), pictures = home.appendingPathComponent("Pictures")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "XDG_PICTURES_DIR=\"\(pictures.path)\"\n".write(to: config.appendingPathComponent("user-dirs.dirs"), atomically: true, encoding: .utf8)
        let app = try ReelApp([Paths.media("frames.mp4")], environment: ["XDG_CONFIG_HOME": config.path])
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        app.waitForPlaying()
        try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        let track = try XCTUnwrap(app.metadata["mpris:trackid"]?.stringValue)
        try app.player("SetPosition", [.objectPath(track), .int64(1_000_000)])
        eventually("at 1 s") { self.seeked(app).last == 1 }

        app.key("ctrl+alt+s")
        let first = pictures.appendingPathComponent("Screenshots/frames 0-00-01.000.png")
        eventually("saved as \(first.lastPathComponent)") { FileManager.default.fileExists(atPath: first.path) }
        eventually("a toast says so") { app.messageShown.contains("frames 0-00-01.000.png") }
        var shot = try XCTUnwrap(image(at: first))
        XCTAssertEqual([shot.width, shot.height], [320, 240], "the video's own size")
        XCTAssertEqual(barLeft(shot), 230, "frame 30, the one at 1 s")

        app.minimize()
        try app.player("SetPosition", [.objectPath(track), .int64(2_000_000)])
        eventually("at 2 s") { self.seeked(app).last == 2 }
        app.activate("screenshot")
        let second = pictures.appendingPathComponent("Screenshots/frames 0-00-02.000.png")
        eventually("saved while minimized") { FileManager.default.fileExists(atPath: second.path) }
        shot = try XCTUnwrap(image(at: second))
        XCTAssertEqual(barLeft(shot), 140, "frame 60, the one at 2 s")

        app.activate("copy-frame")
        let copied = home.appendingPathComponent("copied.png")
        eventually("the frame on the clipboard, as a PNG image") {
            let result = shell("sh", ["-c", "xclip -selection clipboard -t image/png -o > '\(copied.path)'"])
            guard result.status == 0, let image = self.image(at: copied) else { return false }
            return image.width == 320 && image.height == 240 && self.barLeft(image) == 140
        }
    }
}
