// SPDX-License-Identifier: GPL-3.0-or-later
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

    /// With no Pictures folder configured, screenshots go to $HOME/Pictures/Screenshots: the
    /// home the environment gives, as GLib reads it (Foundation's comes from passwd).
    func testScreenshotsGoToTheHomeTheEnvironmentGives() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("reel-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let app = try ReelApp([Paths.media("frames.mp4")], environment: ["HOME": home.path, "XDG_CONFIG_HOME": config.path])
        app.waitForPlaying()
        app.activate("screenshot")
        let folder = home.appendingPathComponent("Pictures/Screenshots")
        eventually("a screenshot in \(folder.path)") {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).contains { $0.hasSuffix(".png") }
        }
    }

    /// chapters.mkv: "Opening" (red, 0–4 s), "Middle part" (green, 4–8 s), "Ending" (blue,
    /// 8–12 s). Marks under the slider at 4 s and 8 s; the chapter playing under the window's
    /// title and before the title in MPRIS; Page Down and Page Up move by chapter; with this one
    /// item in the queue, MPRIS Next and Previous do too, and CanGoNext says whether one follows.
    func testChaptersMarksKeysAndTheMediaControls() throws {
        let app = try ReelApp([Paths.media("chapters.mkv")])
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        app.waitForPlaying()
        eventually("the chapter before the title") { app.title == "Opening — chapters" }
        XCTAssertEqual(app.debugProperty("HeaderSubtitle")?.stringValue, "Opening")
        XCTAssertEqual(try app.property("CanGoNext").boolValue, true, "a chapter follows")
        try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        app.resize(width: 960, height: 600)
        app.revealControls()
        let marks = chapterMarks(app)
        XCTAssertEqual(marks.count, 2, "a mark at each chapter's start after the first: \(marks)")
        if marks.count == 2, let trough = app.controlBounds["trough"] {
            XCTAssertEqual(Double(marks[1] - marks[0]), Double(trough.width) / 3, accuracy: 20, "4 s of 12 apart")
        }

        app.key("Next")  // Page Down
        eventually("Page Down: the middle part, 4 s") { self.seeked(app).last.map { abs($0 - 4) < 0.05 } ?? false }
        eventually("its name before the title") { app.title == "Middle part — chapters" }
        eventually("and under the window's title") { app.debugProperty("HeaderSubtitle")?.stringValue == "Middle part" }
        try app.player("Next")
        eventually("MPRIS Next: the ending, 8 s") { self.seeked(app).last.map { abs($0 - 8) < 0.05 } ?? false }
        eventually("the last chapter: nothing follows") { (try? app.property("CanGoNext").boolValue) == false }
        app.key("Prior")  // Page Up, under 3 s into the chapter: the one before
        eventually("Page Up: back to the middle part") { self.seeked(app).last.map { abs($0 - 4) < 0.05 } ?? false }
        try app.player("Previous")
        eventually("MPRIS Previous: the opening") { self.seeked(app).last.map { abs($0) < 0.05 } ?? false }
        eventually("its name again") { app.title == "Opening — chapters" }
        app.activate("chapter", "2")
        eventually("the chapters menu's third: 8 s") { self.seeked(app).last.map { abs($0 - 8) < 0.05 } ?? false }
        XCTAssertEqual(app.actionState("chapter"), "2", "the menu checks the chapter playing")
    }

    /// The x positions, in the window, of the marks GtkScale draws under the trough: short
    /// vertical lines, columns that stand out from the bar's background in several rows just
    /// under the trough (the knob and the trough's rounded ends left out).
    private func chapterMarks(_ app: ReelApp) -> [Int] {
        var marks: [Int] = []
        eventually("the marks drawn") {
            // Read on each try: GTK lays the bar out again a moment after the window has its new size.
            let bounds = app.controlBounds
            guard let trough = bounds["trough"], let knob = bounds["knob"], trough.width > 40, let shot = app.screenshot("chapter-marks"), trough.maxY + 16 < shot.height else { return false }
            let columns = (trough.x + 4..<trough.maxX - 4).filter { x in
                guard x < knob.x - 2 || x > knob.maxX + 2 else { return false }
                let rows = (trough.maxY + 1...trough.maxY + 14).filter { y in
                    let p = shot.pixel(x, y), left = shot.pixel(x - 3, y), right = shot.pixel(x + 3, y)
                    let brightness = { (q: (r: Int, g: Int, b: Int)) in q.r + q.g + q.b }
                    return brightness(p) - max(brightness(left), brightness(right)) > 45
                }
                return rows.count >= 3
            }
            // Neighbouring columns are one mark.
            marks = columns.reduce(into: [Int]()) { found, x in
                if let last = found.last, x - last <= 2 { found[found.count - 1] = x } else { found.append(x) }
            }
            return marks.count >= 2
        }
        return marks
    }

    /// The loud passages' level above the quiet ones', in dB, in what reached the speakers:
    /// dynamics.ogg alternates 2 s at -38 dBFS and 2 s at -14 dBFS (24 dB apart). Each passage's
    /// level is the median of its 100 ms windows, the loud ones those within 6 dB of the loudest.
    private static func loudOverQuiet(_ samples: [Int16]) -> Double {
        let decibels = SoundRecorder.levels(samples, windowMilliseconds: 100).filter { $0 > 3 }.map { 20 * log10($0 / 32767) }
        guard let loudest = decibels.max() else { return 0 }
        let loud = decibels.filter { $0 > loudest - 6 }.sorted(), quiet = decibels.filter { $0 <= loudest - 6 }.sorted()
        guard !loud.isEmpty, !quiet.isEmpty else { return 0 }
        return loud[loud.count / 2] - quiet[quiet.count / 2]
    }

    /// Night mode (the main menu, kept in the settings) evens out loud and quiet passages: the
    /// gap between them on the speakers shrinks by at least half.
    func testNightModeEvensOutLoudAndQuietPassages() throws {
        let settings = try BackgroundTests.settingsDirectory([:])
        var app = try ReelApp([Paths.media("dynamics.ogg")], environment: settings)
        app.waitForPlaying()
        var recorder = try SoundRecorder()
        eventually("two quiet and two loud passages played", timeout: 15) { app.position > 7.8 }
        let off = Self.loudOverQuiet(recorder.stop())
        XCTAssertEqual(off, 24, accuracy: 2, "night mode off: the file's own 24 dB")

        app.activate("night-mode")
        eventually("night mode on, in the menu's state") { app.actionState("night-mode") == "true" }
        let track = try XCTUnwrap(app.metadata["mpris:trackid"]?.stringValue)
        try app.player("SetPosition", [.objectPath(track), .int64(0)])
        eventually("from the start") { app.position < 1 }
        recorder = try SoundRecorder()
        eventually("played again", timeout: 15) { app.position > 7.8 }
        let on = Self.loudOverQuiet(recorder.stop())
        print(String(format: "night mode: loud passages %.1f dB above quiet ones off, %.1f dB on", off, on))
        XCTAssertLessThanOrEqual(on, off / 2, "night mode on: \(on) dB between loud and quiet, against \(off) dB off")
        app.stop()
        app = try ReelApp([Paths.media("dynamics.ogg")], environment: settings)
        app.waitForPlaying()
        XCTAssertEqual(app.actionState("night-mode"), "true", "kept for the next run")
    }

    /// Night mode switched on and off while a tone plays: the sound never breaks.
    func testSwitchingNightModeMakesNoGap() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        let recorder = try SoundRecorder()
        recorder.waitUntilRecorded(seconds: 0.5)
        for round in 1...6 {
            app.activate("night-mode")
            let expected = round % 2 == 1 ? "true" : "false"
            eventually("night mode \(expected)") { app.actionState("night-mode") == expected }
            recorder.waitUntilRecorded(seconds: 0.5 + Double(round) * 0.4)
        }
        let levels = SoundRecorder.levels(recorder.stop(), windowMilliseconds: 10)
        let start = levels.firstIndex { $0 > 1000 } ?? levels.count
        var longest = 0, run = 0
        for level in levels[start...] {
            run = level < 300 ? run + 1 : 0
            longest = max(longest, run)
        }
        XCTAssertGreaterThan(levels.count - start, 200, "two seconds of the tone recorded")
        XCTAssertLessThanOrEqual(longest * 10, 20, "the sound broke for \(longest * 10) ms while night mode was switched")
    }

    /// The x (in the window) where the slider's knob stands at `time`, from where it stands at two
    /// times the test seeks to, paused; and the knob's middle height.
    private func slider(_ app: ReelApp, at times: (Double, Double)) throws -> (x: (Double) -> Double, y: Int) {
        let track = try XCTUnwrap(app.metadata["mpris:trackid"]?.stringValue)
        var marks: [Double] = [], y = 0
        for t in [times.0, times.1] {
            try app.player("SetPosition", [.objectPath(track), .int64(Int64(t * 1e6))])
            eventually("at \(t) s") { abs(app.position - t) < 0.2 }
            app.revealControls()
            var knob: WindowRect?
            // The knob is laid out a frame or more after the position changes (on GNOME a read
            // right after it could still be the knob of the time before): the same twice in a row.
            var last: WindowRect?
            eventually("the knob where the time puts it, settled", interval: 0.15) {
                let previous = last
                knob = app.controlBounds["knob"]
                last = knob
                return knob != nil && knob == previous && abs(app.position - t) < 0.2
            }
            marks.append(Double(knob!.midX))
            y = knob!.midY
        }
        let (x0, x1) = (marks[0], marks[1])
        return ({ x0 + ($0 - times.0) / (times.1 - times.0) * (x1 - x0) }, y)
    }

    /// The preview's picture: its mean colour, from a screenshot of the window.
    private func previewColour(_ app: ReelApp, _ name: String) -> (r: Double, g: Double, b: Double)? {
        guard let box = app.controlBounds["preview"], box.width > 40, box.height > 60, let shot = app.screenshot(name),
              box.maxX <= shot.width, box.maxY <= shot.height else { return nil }
        // The picture is the preview's top part, above its time label.
        return shot.mean(x0: Double(box.x + 10) / Double(shot.width), y0: Double(box.y + 10) / Double(shot.height),
                         x1: Double(box.maxX - 10) / Double(shot.width), y1: Double(box.y + box.height / 3) / Double(shot.height))
    }

    /// Over the seek bar, a preview of where the pointer is: a frame from that time, the time and
    /// the chapter (chapters.mkv: red 0–4 s "Opening", green 4–8 s "Middle part", blue 8–12 s
    /// "Ending"); dragging the knob shows it too; gone when the pointer leaves.
    func testTheSeekBarPreviewsWhereThePointerIs() throws {
        let app = try ReelApp([Paths.media("chapters.mkv")])
        app.waitForPlaying()
        try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        app.resize(width: 960, height: 600)
        let slider = try slider(app, at: (1, 11))
        XCTAssertEqual(app.debugProperty("PreviewShown")?.boolValue, false, "no preview before the pointer comes")

        app.desktop.pointerMove(app.windowID, x: Int(slider.x(6.5)), y: slider.y)
        eventually("a preview of 6.5 s: its time and chapter") {
            app.debugProperty("PreviewShown")?.boolValue == true && app.debugProperty("PreviewText")?.stringValue == "0:06 Middle part"
        }
        eventually("with the middle part's green frame", timeout: 5) {
            guard app.debugProperty("PreviewFrame")?.boolValue == true, let colour = self.previewColour(app, "seek-preview-green") else { return false }
            return colour.g > 150 && colour.r < 80 && colour.b < 80
        }
        let preview = try XCTUnwrap(app.controlBounds["preview"]), trough = try XCTUnwrap(app.controlBounds["trough"])
        XCTAssertLessThanOrEqual(preview.maxY, trough.y, "above the slider")
        XCTAssertEqual(Double(preview.midX), slider.x(6.5), accuracy: 3, "over the pointer")

        app.desktop.pointerMove(app.windowID, x: Int(slider.x(10.5)), y: slider.y)
        eventually("then of 10.5 s") { app.debugProperty("PreviewText")?.stringValue == "0:10 Ending" }
        eventually("with the ending's blue frame", timeout: 5) {
            guard let colour = self.previewColour(app, "seek-preview-blue") else { return false }
            return colour.b > 150 && colour.r < 80 && colour.g < 80
        }
        XCTAssertEqual(app.position, 11, accuracy: 0.3, "hovering does not seek")

        app.desktop.pointerMove(app.windowID, x: 300, y: 200)
        eventually("gone when the pointer leaves the slider") { app.debugProperty("PreviewShown")?.boolValue == false }

        // Dragging the knob from 11 s to 2 s: the preview follows it.
        app.desktop.pointerMove(app.windowID, x: Int(slider.x(11)), y: slider.y)
        app.desktop.pointerButton(1, pressed: true)
        for x in stride(from: Int(slider.x(11)), through: Int(slider.x(2.5)), by: -40) {
            app.desktop.pointerMove(app.windowID, x: x, y: slider.y)
            Thread.sleep(forTimeInterval: 0.05)  // input pacing: a hand's drag, not a jump
        }
        app.desktop.pointerMove(app.windowID, x: Int(slider.x(2.5)), y: slider.y)
        eventually("a preview while dragging, of the opening") { app.debugProperty("PreviewText")?.stringValue?.hasSuffix("Opening") == true }
        eventually("red", timeout: 5) {
            guard let colour = self.previewColour(app, "seek-preview-red") else { return false }
            return colour.r > 150 && colour.g < 80 && colour.b < 80
        }
        let dragged = try XCTUnwrap(app.controlBounds["preview"])
        XCTAssertEqual(Double(dragged.midX), slider.x(2.5), accuracy: 10, "over the knob dragged, at 2.5 s")
        app.desktop.pointerButton(1, pressed: false)
        eventually("dropped there") { abs(app.position - 2.5) < 0.6 }

        // Another item: the last one's preview pipeline ends on its own thread.
        try app.player("OpenUri", [.string(Paths.mediaURI("clip-vp9.webm"))])
        app.waitForPlaying("clip-vp9")
        XCTAssertTrue(app.crashReports.isEmpty, app.crashReports)
    }

    /// A sound file's preview is the time alone: it has no picture to show.
    func testASoundFilesPreviewIsTheTimeAlone() throws {
        let app = try ReelApp([Paths.media("audio-only.ogg")])
        app.waitForPlaying()
        try app.player("Pause")
        app.resize(width: 960, height: 600)
        let slider = try slider(app, at: (0.5, 2.5))
        app.desktop.pointerMove(app.windowID, x: Int(slider.x(1.5)), y: slider.y)
        eventually("a preview with the time") { app.debugProperty("PreviewText")?.stringValue == "0:01" }
        XCTAssertEqual(app.debugProperty("PreviewFrame")?.boolValue, false, "no frame")
    }
}
