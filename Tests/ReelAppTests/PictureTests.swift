// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// The picture as people's media need it, on the real app and the real desktop (the phone test
/// runs on GNOME Shell too): a phone's portrait video upright everywhere a frame shows, turned
/// by hand and kept per file; interlaced TV without combing; aspect, fill and colours.
/// phone-portrait.mp4, upright, is 360x640 in quarters red, green / blue, white.
final class PictureTests: XCTestCase {
    /// The picture on screen: its box inside the video area (where it is not black) and its
    /// quarters as "RG/BW" (R red, G green, B blue, W white, ? anything else).
    private struct Shown: Equatable {
        var width: Int, height: Int, quarters: String
        var isPortrait: Bool { height > width }
    }

    private static func quarter(_ p: (r: Int, g: Int, b: Int)) -> Character {
        switch (p.r > 170, p.g > 170, p.b > 170) {
        case (true, false, false) where p.g < 90 && p.b < 90: "R"
        case (false, true, false) where p.r < 90 && p.b < 90: "G"
        case (false, false, true) where p.r < 90 && p.g < 90: "B"
        case (true, true, true): "W"
        default: "?"
        }
    }

    private static func quarters(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> (r: Int, g: Int, b: Int)) -> String {
        let (l, r, t, b) = (width / 4, width * 3 / 4, height / 4, height * 3 / 4)
        return String([quarter(pixel(l, t)), quarter(pixel(r, t)), "/", quarter(pixel(l, b)), quarter(pixel(r, b))])
    }

    /// The picture's box and quarters in a screenshot of the window. The control bar may cover
    /// the picture's foot (it stays while paused): the picture is centred in the video area, so
    /// its top tells its height.
    private func shown(_ app: ReelApp, _ name: String? = nil) -> Shown? {
        let bounds = app.controlBounds
        guard let video = bounds["video"], video.width > 100, let shot = app.screenshot(name),
              video.maxX <= shot.width, video.maxY <= shot.height else { return nil }
        let above = min(video.midY, bounds["bar"]?.y ?? video.maxY)
        var (left, top, right) = (Int.max, Int.max, -1)
        for y in stride(from: video.y, to: above, by: 2) {
            for x in stride(from: video.x, to: video.maxX, by: 2) {
                let p = shot.pixel(x, y)
                guard max(p.r, p.g, p.b) > 60 else { continue }
                (left, top, right) = (min(left, x), min(top, y), max(right, x))
            }
        }
        guard right > left, top < above else { return nil }
        let (width, height) = (right - left + 2, 2 * (video.midY - top))
        return Shown(width: width, height: height, quarters: Self.quarters(width, height) { shot.pixel(left + $0, top + $1) })
    }

    /// Waits until the picture shows `quarters`, portrait or not, the same in two screenshots.
    @discardableResult
    private func waitForPicture(_ app: ReelApp, _ quarters: String, portrait: Bool, _ what: String,
                                file: StaticString = #filePath, line: UInt = #line) -> Shown? {
        var last: Shown?
        eventually("\(what): \(quarters), \(portrait ? "portrait" : "landscape") (seen \(String(describing: last)))", file: file, line: line) {
            guard let picture = self.shown(app), let again = self.shown(app), picture == again else { return false }
            last = picture
            return picture.quarters == quarters && picture.isPortrait == portrait
        }
        return last
    }

    private func image(at file: URL) -> Image? {
        let ppm = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).ppm")
        defer { try? FileManager.default.removeItem(at: ppm) }
        guard shell("convert", [file.path, ppm.path]).status == 0, let data = try? Data(contentsOf: ppm) else { return nil }
        return Image(ppm: data)
    }

    private func pictureSize(_ app: ReelApp) -> [Int64] {
        guard case .structure(let sizes)? = app.debugProperty("PictureSize") else { return [] }
        return sizes.compactMap { $0.int64Value }
    }

    /// On X11 and on GNOME Shell: upright in the window (at two sizes and after a minimize),
    /// in the screenshot it saves, turned by R, Shift+R and Shift+H, and kept for the file.
    func testAPhonesPortraitVideoIsUprightEverywhere() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("reel-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent("config"), pictures = home.appendingPathComponent("Pictures")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "XDG_PICTURES_DIR=\"\(pictures.path)\"\n".write(to: config.appendingPathComponent("user-dirs.dirs"), atomically: true, encoding: .utf8)
        let state = home.appendingPathComponent("state")
        let environment = ["XDG_CONFIG_HOME": config.path, "XDG_STATE_HOME": state.path]
        var app = try ReelApp([Paths.media("phone-portrait.mp4")], environment: environment)
        app.waitForPlaying()
        eventually("the picture's size is portrait, 360x640 (\(pictureSize(app)))") { self.pictureSize(app) == [360, 640] }
        waitForPicture(app, "RG/BW", portrait: true, "upright in the window")
        _ = app.screenshot("phone-portrait-upright-\(Desktop.current)")  // for people to look at
        app.resize(width: 480, height: 800)
        waitForPicture(app, "RG/BW", portrait: true, "upright in a tall window")

        try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        app.activate("screenshot")
        let folder = pictures.appendingPathComponent("Screenshots")
        var saved: URL?
        eventually("a screenshot saved") {
            saved = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil))?.first
            return saved != nil
        }
        let shot = try XCTUnwrap(saved.flatMap { image(at: $0) })
        XCTAssertEqual([shot.width, shot.height], [360, 640], "the screenshot is portrait, at the video's own size")
        XCTAssertEqual(Self.quarters(shot.width, shot.height) { shot.pixel($0, $1) }, "RG/BW", "and upright")

        app.minimize()
        eventually("minimized") { app.isMinimized }
        app.restore()
        waitForPicture(app, "RG/BW", portrait: true, "upright after a minimize")

        app.key("r")
        waitForPicture(app, "BR/WG", portrait: false, "R: turned clockwise")
        app.key("shift+r")
        waitForPicture(app, "RG/BW", portrait: true, "Shift+R: back")
        app.key("shift+h")
        waitForPicture(app, "GR/WB", portrait: true, "Shift+H: mirrored")

        // Kept with the file: opened again, it is still mirrored.
        app.stop()
        app = try ReelApp([Paths.media("phone-portrait.mp4")], environment: environment)
        app.waitForPlaying()
        waitForPicture(app, "GR/WB", portrait: true, "opened again, as it was left")
        app.activate("reset-picture")
        waitForPicture(app, "RG/BW", portrait: true, "reset")
    }

    /// The aspect ratio overridden (A, or the menu's radio items), then the window filled: the
    /// picture's box follows, and cropping fills the whole video area.
    func testAspectRatiosAndFillingTheWindow() throws {
        let app = try ReelApp([Paths.media("phone-portrait.mp4")])
        app.waitForPlaying()
        let start = try XCTUnwrap(waitForPicture(app, "RG/BW", portrait: true, "upright"))
        XCTAssertEqual(Double(start.width) / Double(start.height), 360.0 / 640, accuracy: 0.03, "automatic: the file's own")
        for (name, ratio) in [("16:9", 16.0 / 9), ("4:3", 4.0 / 3), ("2.39:1", 2.39), ("1:1", 1.0)] {
            app.activate("aspect", "'\(name)'")
            eventually("\(name): the picture \(ratio) times as wide as it is tall, letterboxed") {
                guard let picture = self.shown(app) else { return false }
                return abs(Double(picture.width) / Double(picture.height) - ratio) < 0.04 && picture.quarters == "RG/BW"
            }
            XCTAssertEqual(app.actionState("aspect"), "'\(name)'", "the menu shows the choice")
        }
        app.key("a")
        eventually("A: back to automatic") { app.actionState("aspect") == "'automatic'" }
        waitForPicture(app, "RG/BW", portrait: true, "automatic again")
        app.key("w")
        eventually("W: the picture fills the video area") {
            guard let video = app.controlBounds["video"], let picture = self.shown(app) else { return false }
            return abs(picture.width - video.width) <= 4 && abs(picture.height - video.height) <= 4
        }
        app.key("w")
        waitForPicture(app, "RG/BW", portrait: true, "W again: letterboxed")
    }

    /// Brightness, contrast, saturation and hue from their keys, on a paused frame (it is made
    /// again at once), and one reset; the phone clip's red, green, blue and white quarters.
    func testColoursAdjustAndReset() throws {
        let app = try ReelApp([Paths.media("phone-portrait.mp4")])
        app.waitForPlaying()
        try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        waitForPicture(app, "RG/BW", portrait: true, "as made")
        typealias Pixel = (r: Int, g: Int, b: Int)
        /// Waits until the red (top left) and white (bottom right) quarters' middles pass `check`.
        func picture(_ what: String, _ check: @escaping (_ red: Pixel, _ white: Pixel) -> Bool) {
            eventually(what) {
                guard let video = app.controlBounds["video"], let shot = app.screenshot() else { return false }
                // The picture is 9:16 in the middle of the area.
                let height = video.height, width = height * 9 / 16, left = video.midX - width / 2
                return check(shot.pixel(left + width / 4, video.y + height / 4), shot.pixel(left + width * 3 / 4, video.y + height * 3 / 4))
            }
        }
        func grey(_ p: Pixel) -> Bool { max(p.r, p.g, p.b) - min(p.r, p.g, p.b) < 24 }
        for _ in 0..<20 { app.key("7") }  // saturation 0
        picture("no saturation: red is grey, white still white") { red, white in grey(red) && red.r > 40 && white.r > 220 }
        app.key("0")
        waitForPicture(app, "RG/BW", portrait: true, "0: colours reset")
        for _ in 0..<10 { app.key("6") }  // hue half way round
        picture("hue turned: red is no longer red, white still white") { red, white in
            (red.g > red.r || red.b > red.r) && white.r > 220 && grey(white)
        }
        app.key("0")
        for _ in 0..<10 { app.key("3") }  // brightness -0.5
        picture("darker: white is grey, red dimmed") { red, white in
            grey(white) && white.r < 160 && white.r > 60 && red.r < 200 && red.r > red.g + 60
        }
        app.key("0")
        for _ in 0..<10 { app.key("1") }  // contrast 0.5
        picture("less contrast: white is grey") { _, white in grey(white) && white.r < 180 && white.r > 80 }
        app.key("0")
        waitForPicture(app, "RG/BW", portrait: true, "reset again")
    }

    /// How much the picture combs: the mean difference between lines next to each other, over
    /// the picture in a screenshot of the window. Bars move sideways, so an interlaced frame
    /// shown whole has every line's edge apart from its neighbour's.
    private func combing(_ app: ReelApp, _ name: String?) -> Double? {
        guard let video = app.controlBounds["video"], let shot = app.screenshot(name) else { return nil }
        var total = 0, count = 0
        // The upper half: the moving colour bars (the pattern's lower part is still).
        for y in stride(from: video.y + video.height / 8, to: video.y + video.height / 2, by: 1) {
            for x in stride(from: video.x, to: video.maxX, by: 2) {
                let a = shot.pixel(x, y), b = shot.pixel(x, y + 1)
                total += abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b)
                count += 1
            }
        }
        return count > 0 ? Double(total) / Double(count) : nil
    }

    /// Interlaced TV shows combing on every movement unless deinterlaced: automatic takes it
    /// away; off shows it; progressive video never goes through the deinterlacer.
    func testInterlacedTVIsDeinterlacedAndProgressiveIsNot() throws {
        let app = try ReelApp([Paths.media("interlaced.ts")])
        app.waitForPlaying()
        // Shown at the video's own height or more: the window large enough for 576 lines.
        app.resize(width: 1100, height: 800)
        eventually("deinterlaced") { app.debugProperty("Deinterlacing") == .bool(true) }
        try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        var clean: Double?
        eventually("a stable picture, controls hidden") {
            guard let first = self.combing(app, "interlaced-automatic") else { return false }
            clean = first
            return self.combing(app, nil).map { abs($0 - first) < 0.5 } ?? false
        }
        app.activate("deinterlacing", "'off'")
        eventually("off: out of the path") { app.debugProperty("Deinterlacing") == .bool(false) }
        var combed: Double?
        eventually("the frame made again, combed (clean \(clean ?? -1), seen \(combed ?? -1))") {
            combed = self.combing(app, "interlaced-off")
            return (combed ?? 0) > 2 * (clean ?? .infinity)
        }
        print("Line-to-line difference: deinterlaced \(clean ?? -1), not \(combed ?? -1)")
        app.activate("deinterlacing", "'automatic'")
        eventually("automatic: clean again") {
            (self.combing(app, nil) ?? .infinity) < (clean ?? 0) + ((combed ?? 0) - (clean ?? 0)) / 4
        }
        app.stop()

        let progressive = try ReelApp([Paths.media("progressive-motion.mp4")])
        progressive.waitForPlaying()
        eventually("frames shown") { progressive.framesShown > 10 }
        XCTAssertEqual(progressive.debugProperty("Deinterlacing"), .bool(false), "progressive: no deinterlacer in the path")
    }
}
