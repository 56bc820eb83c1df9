// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Arabic, read right to left: the window mirrors as GTK mirrors it (the control bar's order,
/// the queue on the left), time on the seek slider runs toward the left (a click there goes
/// forward), and an Arabic subtitle is centred on the picture and wrapped.
final class RightToLeftTests: XCTestCase {
    private static let shortLine = "مرحبا"
    private static let longLine = "هذا سطر طويل جدا من الترجمة العربية يجب أن يلتف على عدة أسطر داخل عرض الصورة ولا يخرج عنها أبدا مهما طال النص المكتوب فيه"

    func testArabicMirrorsTheWindowAndKeepsTimeRight() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-rtl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("talk.webm")
        try FileManager.default.createSymbolicLink(atPath: video.path, withDestinationPath: Paths.media("talk.webm"))
        try "1\n00:00:00,000 --> 00:00:20,000\n\(Self.shortLine)\n\n2\n00:00:20,000 --> 00:00:40,000\n\(Self.longLine)\n"
            .write(to: folder.appendingPathComponent("talk.srt"), atomically: true, encoding: .utf8)

        let app = try ReelApp([video.path], environment: ["LANG": "ar_EG.UTF-8", "LC_ALL": "ar_EG.UTF-8", "LANGUAGE": ""])
        app.waitForPlaying("talk")
        try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        app.resize(width: 960, height: 600)
        let track = try XCTUnwrap(app.metadata["mpris:trackid"]?.stringValue)

        // At 5 s and at 25 s: where the knob is, and the subtitle line shown then.
        var knobs: [Double] = [], subtitles: [WindowRect] = []
        var bounds: [String: WindowRect] = [:]
        for t in [5.0, 25.0] {
            try app.player("SetPosition", [.objectPath(track), .int64(Int64(t * 1e6))])
            eventually("at \(t) s") { abs(app.position - t) < 0.3 }
            var previous: [String: WindowRect] = [:]
            eventually("laid out at \(t) s", interval: 0.15) {
                app.revealControls()
                defer { previous = bounds }
                bounds = app.controlBounds
                return bounds["knob"] != nil && bounds["subtitle"] != nil && bounds == previous
            }
            knobs.append(Double(bounds["knob"]?.midX ?? 0))
            if let subtitle = bounds["subtitle"] { subtitles.append(subtitle) }
        }
        _ = app.screenshot("right-to-left")
        let play = try XCTUnwrap(bounds["play-pause"]), slider = try XCTUnwrap(bounds["slider"])
        let picture = try XCTUnwrap(bounds["video"])
        XCTAssertGreaterThan(play.x, slider.maxX - 1, "the bar mirrored: play/pause at its right end")
        if let elapsed = bounds["elapsed"], let total = bounds["total"] {
            XCTAssertGreaterThan(elapsed.x, total.x, "the time played on the right, the length on the left")
        }
        XCTAssertGreaterThan(knobs[0], knobs[1] + 100, "time runs toward the left: \(knobs)")

        // Over the slider three quarters of the way toward its left end, the preview says 0:30;
        // a click there goes forward, to 30 s of 40.
        let x30 = knobs[0] + (knobs[1] - knobs[0]) * (30 - 5) / (25 - 5)
        let y = try XCTUnwrap(bounds["knob"]).midY
        app.desktop.pointerMove(app.windowID, x: Int(x30), y: y)
        eventually("the preview of 0:30 (\(app.debugProperty("PreviewText")?.stringValue ?? "none"))") {
            app.debugProperty("PreviewText")?.stringValue?.hasPrefix("0:30") == true
        }
        app.desktop.click(app.windowID, x: Int(x30), y: y)
        eventually("the click went forward, to about 30 s (at \(app.position))") { abs(app.position - 30) < 2 }

        // The subtitle: centred on the picture, the long line wrapped inside it.
        XCTAssertEqual(subtitles.count, 2, "both lines shown")
        for subtitle in subtitles {
            XCTAssertEqual(Double(subtitle.midX), Double(picture.midX), accuracy: 4, "centred on the picture")
            XCTAssertTrue(picture.contains(subtitle), "inside the picture: \(subtitle) in \(picture)")
        }
        if subtitles.count == 2 {
            XCTAssertGreaterThan(subtitles[1].height * 2, subtitles[0].height * 3, "the long line wrapped: \(subtitles)")
        }

        // The queue comes in on the left: the picture moves right.
        app.activate("show-queue")
        var slid: WindowRect?
        eventually("the queue slid in on the left, whole", interval: 0.15) {
            let picture = app.controlBounds["video"]
            defer { slid = picture }
            return app.queueShown && picture != nil && picture == slid && (picture?.x ?? 0) >= 300
        }
        _ = app.screenshot("right-to-left-queue")
    }
}
