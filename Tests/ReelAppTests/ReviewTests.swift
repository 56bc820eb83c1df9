// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// What a user sees: every surface in every language, saved in one folder a reviewer pages
/// through (`review/`, with a contact sheet a language), and the control bar's geometry checked
/// at each size through the diagnostics. Every language at 960×600, and English, the
/// right-to-left language (Arabic) and the one with the longest text (French) at all three
/// sizes; every language at every size with `REEL_REVIEW_ALL=1` (CI's time is limited), only
/// some with `REEL_REVIEW_LANGUAGES`.
final class ReviewTests: XCTestCase {
    static let allSizes = [(360, 640), (960, 600), (1600, 1000)]
    private static let everyCombination = ProcessInfo.processInfo.environment["REEL_REVIEW_ALL"] == "1"
    /// French's labels are the longest: 4,853 characters against English's 3,677 in the strings
    /// under 40 characters (buttons, menus, rows), German's 4,514.
    private static let longestText = "fr"
    private static func sizes(_ language: String) -> [(Int, Int)] {
        ["en", "ar", longestText].contains(language) || everyCombination ? allSizes : [(960, 600)]
    }
    /// `REEL_REVIEW_LANGUAGES=en,ar`: only these (run-tests' GNOME Shell part; all of them on X11).
    private static let languagesReviewed = ProcessInfo.processInfo.environment["REEL_REVIEW_LANGUAGES"]
        .map { Set($0.split(separator: ",").map(String.init)) }
    /// Each language of po/LINGUAS with the locale it is shown in.
    static let languages = [("en", "C.UTF-8"), ("ar", "ar_EG.UTF-8"), ("fr", "fr_FR.UTF-8"), ("de", "de_DE.UTF-8"),
                            ("es", "es_ES.UTF-8"), ("it", "it_IT.UTF-8"), ("pt_BR", "pt_BR.UTF-8"), ("pl", "pl_PL.UTF-8"),
                            ("ru", "ru_RU.UTF-8"), ("ja", "ja_JP.UTF-8"), ("ko", "ko_KR.UTF-8"), ("zh_CN", "zh_CN.UTF-8"),
                            ("zh_TW", "zh_TW.UTF-8")]
    /// `review/`, or `review-gnome/` on GNOME Shell.
    static let name = Desktop.current == .gnome ? "review-gnome" : "review"
    private static let folder = Paths.artifacts.appendingPathComponent(name)

    override class func setUp() {
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func testEverySurfaceInEveryLanguage() throws {
        let linguas = try String(contentsOf: Paths.packageRoot.appendingPathComponent("po/LINGUAS"), encoding: .utf8)
            .components(separatedBy: "\n").map { $0.components(separatedBy: "#")[0].trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        XCTAssertEqual(Set(Self.languages.map(\.0).dropFirst()), Set(linguas), "every language of po/LINGUAS reviewed")
        for (language, locale) in Self.languages where Self.everyCombination || Self.languagesReviewed?.contains(language) ?? true {
            try review(language: language, locale: locale)
            // One image a language: its thumbnails with their names.
            let shots = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
                .filter { $0.hasPrefix("\(language)-") && $0.hasSuffix(".png") }.sorted()
            let sizes = Self.sizes(language).count, dialogSizes = language == "en" || Self.everyCombination ? sizes : 1
            XCTAssertGreaterThanOrEqual(shots.count, sizes * 5 + dialogSizes * 4 + 1, "\(language): every surface saved")
            let sheet = shell("montage", ["-label", "%t", "-pointsize", "10", "-tile", "9x", "-geometry", "200x150+4+4"]
                              + shots.map { Self.folder.appendingPathComponent($0).path }
                              + [Paths.artifacts.appendingPathComponent("\(Self.name)-contact-sheet-\(language).png").path])
            XCTAssertEqual(sheet.status, 0, sheet.output)
        }
    }

    private func review(language: String, locale: String) throws {
        // A broken file with a name far too long for any window: its page must stay readable.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("review-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let longName = directory.appendingPathComponent(
            "A lecture recorded on the first of December with a name much longer than any window - part 12 of 40.mp4")
        try FileManager.default.copyItem(atPath: Paths.media("random.mp4"), toPath: longName.path)
        for name in ["talk.webm", "talk.srt"] {
            try FileManager.default.copyItem(atPath: Paths.media(name), toPath: directory.appendingPathComponent(name).path)
        }

        let app = try ReelApp([directory.appendingPathComponent("talk.webm").path, longName.path],
                              environment: ["LANG": locale, "LC_ALL": locale, "LANGUAGE": ""])
        app.waitForPlaying("talk")
        try app.setProperty("LoopStatus", .variantString("Track"))
        for (width, height) in Self.sizes(language) {
            let size = "\(width)x\(height)"
            app.resize(width: width, height: height)
            app.revealControls()
            Self.checkControlBar(app, "\(language) \(size) playing")
            shoot(app, "\(language)-\(size)-1-playing")

            // Paused, so that only the menu changes the picture while it opens.
            try app.player("Pause")
            eventually("paused") { app.status == "Paused" }
            Self.checkControlBar(app, "\(language) \(size) paused")
            shoot(app, "\(language)-\(size)-2-paused")
            try openTracksMenu(app, "\(language)-\(size)-3-subtitle-menu")

            XCTAssertFalse(app.queueShown, "\(language) \(size): the queue stays closed when the window grows")
            app.activate("show-queue")
            eventually("\(language) \(size): the queue shown") { app.queueShown }
            Self.checkControlBar(app, "\(language) \(size) with the queue")
            shoot(app, "\(language)-\(size)-4-queue")
            app.activate("show-queue")
            eventually("\(language) \(size): the queue closed") { !app.queueShown }
            try app.player("Play")
            app.waitForPlaying("talk")

            // The dialogs at every size in English, at 960×600 in the others (CI's time).
            let dialogs = language == "en" || width == 960 || Self.everyCombination
                ? [("app.preferences", "preferences"), ("win.show-help-overlay", "shortcuts"), ("app.about", "about"),
                   ("app.open-location", "open-location")] : []
            for (index, (action, name)) in dialogs.enumerated() {
                let shot = Self.shootDialog(app, action: action, width: width, height: height,
                                       "\(language)-\(size)-\(index + 5)-\(name)")
                if name == "preferences", let shot {
                    // libadwaita's row descriptions, not Reel's subtitles: no grey pill behind them.
                    XCTAssertLessThan(shot.longestUniformRun(in: 110...200), 100,
                                      "\(language) \(size): preferences show no dark blocks behind their text")
                }
            }
        }
        // On Wayland the fullscreen state comes a frame before the size, and GNOME Shell then
        // animates the change: wait for all of it.
        let frame = app.desktop.geometry(app.windowID)
        app.key("f")
        eventually("fullscreen") { app.isFullscreen && app.desktop.geometry(app.windowID) != frame && app.desktop.isSettled(app.windowID) }
        app.revealControls()
        Self.checkControlBar(app, "\(language) fullscreen")
        shoot(app, "\(language)-fullscreen")
        app.key("Escape")
        eventually("out of fullscreen") {
            !app.isFullscreen && app.desktop.geometry(app.windowID) == frame && app.desktop.isSettled(app.windowID)
        }

        try app.setProperty("LoopStatus", .variantString("None"))
        try app.player("Next")
        eventually("the broken file's page") { app.messageShown.contains("part 12 of 40.mp4") || app.messageShown.contains("…") }
        for (width, height) in Self.sizes(language) {
            let size = "\(width)x\(height)"
            app.resize(width: width, height: height)
            app.revealControls()
            Self.checkControlBar(app, "\(language) \(size) error page")
            let bounds = app.controlBounds
            if let bar = bounds["bar"], let title = bounds["error-title"], let description = bounds["error-description"] {
                XCTAssertLessThanOrEqual(description.maxY, bar.y, "\(language) \(size): the explanation ends above the controls")
                XCTAssertLessThan(title.maxY, description.y + 1, "\(language) \(size): title above the explanation")
            } else {
                XCTFail("\(language) \(size): the error page and the bar are shown: \(bounds.keys.sorted())")
            }
            XCTAssertTrue(app.messageShown.contains("…") && !app.messageShown.contains("first of December")
                          && app.messageShown.contains("12 of 40.mp4"), "the long name is shortened in the middle: \(app.messageShown)")
            shoot(app, "\(language)-\(size)-9-error")
        }
    }

    private func shoot(_ app: ReelApp, _ name: String, onScreen: Bool = false) {
        XCTAssertNotNil(app.screenshot("\(Self.name)/\(name)", onScreen: onScreen), name)
        Self.checkNothingCutShort(app, name)
    }

    /// No label cut short with an ellipsis, but those made to be: the window's title and the
    /// queue's rows (file names of any length). The error page's name is shortened by Reel, in
    /// its middle, so never by Pango.
    static func checkNothingCutShort(_ app: ReelApp, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        let meant = Set([app.windowTitle] + (app.debugProperty("QueueRowTitles")?.strings ?? []))
        let cut = (app.debugProperty("EllipsizedLabels")?.strings ?? []).filter { !meant.contains($0) }
        XCTAssertEqual(cut, [], "\(context): labels cut short", file: file, line: line)
    }

    /// The bar fits the window: every shown control inside it, none over another, the slider
    /// usable and the times readable.
    static func checkControlBar(_ app: ReelApp, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        var bounds: [String: WindowRect] = [:]
        app.revealControls()
        // Settled: the same in two reads in a row (but for the knob, which moves while playing).
        // The bar fits its width a frame after each change, so while the queue panel slides in
        // it lags the video area's width.
        eventually("\(context): the control bar laid out", interval: 0.15, file: file, line: line) {
            let previous = bounds.filter { $0.key != "knob" }
            bounds = app.controlBounds
            return bounds["bar"] != nil && bounds["slider"] != nil && bounds.filter { $0.key != "knob" } == previous
        }
        guard let bar = bounds["bar"], let window = app.desktop.geometry(app.windowID) else { return }
        let margins = bounds["surface-offset"].map { $0.x } ?? 0
        XCTAssertGreaterThanOrEqual(bar.x, 0, "\(context): bar inside the window", file: file, line: line)
        XCTAssertLessThanOrEqual(bar.maxX, window.width - margins, "\(context): bar inside the window (\(bar), \(window.width))", file: file, line: line)
        let controls = bounds.filter { !["bar", "trough", "knob", "video", "subtitle"].contains($0.key) && !$0.key.hasPrefix("error-") && !$0.key.hasPrefix("recent-") }
        for (name, rect) in controls {
            XCTAssertTrue(bar.contains(rect), "\(context): \(name) \(rect) inside the bar \(bar)", file: file, line: line)
            XCTAssertGreaterThan(rect.width, 8, "\(context): \(name) not squeezed to nothing", file: file, line: line)
            for (other, otherRect) in controls where other > name {
                XCTAssertFalse(rect.overlaps(otherRect), "\(context): \(name) \(rect) overlaps \(other) \(otherRect)", file: file, line: line)
            }
        }
        XCTAssertGreaterThanOrEqual(bounds["slider"]?.width ?? 0, 120, "\(context): the slider keeps 120 px", file: file, line: line)
        if let slider = bounds["slider"], let play = bounds["play-pause"], slider.y < play.maxY, play.y < slider.maxY {
            XCTAssertGreaterThanOrEqual(slider.width, 240, "\(context): beside the buttons, a roomy slider", file: file, line: line)
        }
        for label in ["elapsed", "total"] {
            XCTAssertGreaterThanOrEqual(bounds[label]?.width ?? 0, 30, "\(context): the \(label) time readable", file: file, line: line)
        }
    }

    /// The subtitles menu from its button, or, folded, the overflow menu that holds it.
    private func openTracksMenu(_ app: ReelApp, _ name: String) throws {
        app.revealControls()
        let bounds = app.controlBounds
        guard let button = bounds["tracks"] ?? bounds["overflow"] else {
            return XCTFail("\(name): neither the subtitles button nor the overflow menu is shown: \(bounds.keys.sorted())")
        }
        let id = app.windowID
        let before = app.screenshot(onScreen: true)
        app.desktop.click(id, x: button.midX, y: button.midY)
        eventually("\(name): the menu open") { app.menuOpen }
        // Drawn: the screen changed from before the click (a few hundred pixels of menu), then holds.
        var previous: Image?
        eventually("\(name): the menu drawn", interval: 0.2) {
            let current = app.screenshot(onScreen: true)
            defer { previous = current }
            guard let current, let previous, let before else { return false }
            let changed = before.difference(current) * Double(current.width * current.height)
            return changed > 300 && current.difference(previous) < 0.001
        }
        shoot(app, name, onScreen: true)
        app.pressKey("Escape")
        eventually("\(name): the menu closed") { !app.menuOpen }
    }

    /// Opens a dialog by its action, at the window size where the dialog allows it.
    /// Opens a dialog by its action at a size, shoots it under `folder/name` once drawn, closes it.
    static func shootDialog(_ app: ReelApp, action: String, width: Int, height: Int, _ name: String,
                            folder: String = ReviewTests.name) -> Image? {
        app.activateQuietly(action)
        var dialog = ""
        eventually("\(name): the dialog open") {
            dialog = app.otherWindows.last ?? ""
            return !dialog.isEmpty
        }
        guard !dialog.isEmpty else { return nil }
        app.desktop.resize(dialog, width: width, height: height)
        // A dialog may not shrink as far as asked: wait for the size asked, or one it keeps.
        var last: (Int, Int)?
        eventually("\(name): the dialog's size settled", interval: 0.2) {
            guard let frame = app.desktop.geometry(dialog) else { return false }
            defer { last = (frame.width, frame.height) }
            return (frame.width, frame.height) == (width, height) || last.map { $0 == (frame.width, frame.height) } ?? false
        }
        // Drawn at that size: two captures in a row alike.
        var previous: Image?
        eventually("\(name): the dialog drawn", interval: 0.2) {
            let current = app.screenshot(of: dialog)
            defer { previous = current }
            guard let current, let previous else { return false }
            return current.difference(previous) < 0.001
        }
        let shot = app.screenshot(of: dialog, "\(folder)/\(name)")
        XCTAssertNotNil(shot, name)
        checkNothingCutShort(app, name)
        app.closeDialogs()
        return shot
    }
}

extension Image {
    /// The longest horizontal run of one flat grey whose level is in `levels`: a filled block, never text.
    func longestUniformRun(in levels: ClosedRange<Int>) -> Int {
        var longest = 0
        for y in 0..<height {
            var run = 0
            var previous = (r: -100, g: -100, b: -100)
            for x in 0..<width {
                let p = pixel(x, y)
                let flat = abs(p.r - previous.r) + abs(p.g - previous.g) + abs(p.b - previous.b) < 6
                // Grey: a focused row's blue outline is a long flat run too, and no block.
                let grey = abs(p.r - p.g) + abs(p.g - p.b) < 24
                run = levels.contains((p.r + p.g + p.b) / 3) && flat && grey ? run + 1 : 0
                longest = max(longest, run)
                previous = p
            }
        }
        return longest
    }
}
