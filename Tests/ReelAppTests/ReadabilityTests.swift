// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Reel for low vision, as the desktop asks for it: GNOME's Large Text (text at 1.5×), high
/// contrast and no animations, set where GNOME sets them (GSettings; on X11 also XSETTINGS, from
/// xsettingsd as from GNOME's own daemon). Each case is shot for review (`readability/`: the
/// window playing, with the queue, Preferences and an error page), nothing is clipped at 960×600,
/// and the bar's times stand out from it at WCAG AA (4.5:1) over the brightest video.
final class ReadabilityTests: XCTestCase {
    /// Where the shots go: `readability/`, or `readability-gnome/` on GNOME Shell.
    private static let folder = Desktop.current == .gnome ? "readability-gnome" : "readability"

    override class func setUp() {
        try? FileManager.default.createDirectory(at: Paths.artifacts.appendingPathComponent(folder), withIntermediateDirectories: true)
    }

    func testLargeTextHighContrastAndNoAnimation() throws {
        var normalTimeWidth: Int?
        for (name, interface, a11y) in [("normal", "", ""),
                                        ("large-text", "text-scaling-factor=1.5\nenable-animations=false", ""),
                                        ("high-contrast", "", "high-contrast=true")] {
            let environment = try Self.desktopSettings(interface: interface, a11y: a11y)
            let xsettings = try Self.xsettings(interface.isEmpty ? [] : ["Xft/DPI 147456", "Gtk/EnableAnimations 0"])
            defer { xsettings?.terminate() }
            let app = try ReelApp([Paths.media("tone-30s.webm")], environment: environment)
            defer { app.stop() }
            app.waitForPlaying()
            XCTAssertEqual(app.debugProperty("TextDPI")?.int64Value, interface.isEmpty ? 96 * 1024 : 144 * 1024, "\(name): the text size")
            XCTAssertEqual(app.debugBool("Animations"), interface.isEmpty, "\(name): animations")
            XCTAssertEqual(app.debugBool("HighContrast"), !a11y.isEmpty, "\(name): high contrast")

            app.resize(width: 960, height: 600)
            ReviewTests.checkControlBar(app, "\(name) at 960×600")
            _ = try app.player("Pause")  // the bright bars behind the time stay put while it is measured
            eventually("paused") { app.status == "Paused" }
            app.revealControls()
            let bounds = app.controlBounds
            guard let shot = app.screenshot("\(Self.folder)/\(name)"),
                  let elapsed = bounds["elapsed"], let total = bounds["total"] else {
                return XCTFail("\(name): no screenshot, or no times: \(bounds.keys.sorted())")
            }
            for (label, rect) in [("elapsed", elapsed), ("total", total)] {
                let ratio = Self.contrast(in: shot, rect)
                print(String(format: "readability: %@ %@ contrast %.1f:1", name, label, ratio))
                XCTAssertGreaterThanOrEqual(ratio, 4.5, "\(name): the \(label) time against the bar, WCAG AA")
            }
            if name == "large-text", let normalWidth = normalTimeWidth {
                XCTAssertGreaterThan(Double(elapsed.width), Double(normalWidth) * 1.3, "the time's text is larger")
            }
            if name == "normal" { normalTimeWidth = elapsed.width; continue }

            // The other surfaces in this look: the queue beside the video, Preferences, an error.
            app.activate("show-queue")
            eventually("\(name): the queue shown") { app.queueShown }
            ReviewTests.checkControlBar(app, "\(name) with the queue")
            _ = app.screenshot("\(Self.folder)/\(name)-queue")
            app.activate("show-queue")
            eventually("\(name): the queue closed") { !app.queueShown }
            _ = ReviewTests.shootDialog(app, action: "app.preferences", width: 960, height: 600, "\(name)-preferences", folder: Self.folder)
            app.activate("open-uri", "'\(Paths.mediaURI("random.mp4"))'")
            eventually("\(name): the error page") { app.messageShown.contains("random.mp4") }
            ReviewTests.checkControlBar(app, "\(name) error page")
            _ = app.screenshot("\(Self.folder)/\(name)-error")
        }
    }

    /// The desktop's settings for the app (GSettings' keyfile backend, as the Preferences tests).
    private static func desktopSettings(interface: String, a11y: String) throws -> [String: String] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-desktop-\(UUID().uuidString)")
        let settings = dir.appendingPathComponent("glib-2.0/settings")
        try FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
        try "[org/gnome/desktop/interface]\n\(interface)\n[org/gnome/desktop/a11y/interface]\n\(a11y)\n"
            .write(to: settings.appendingPathComponent("keyfile"), atomically: true, encoding: .utf8)
        return ["GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": dir.path]
    }

    /// On X11, GTK takes text size and animations from the XSETTINGS manager.
    private static func xsettings(_ lines: [String]) throws -> Process? {
        guard Desktop.current == .x11, !lines.isEmpty else { return nil }
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("xsettingsd-\(UUID().uuidString)")
        try (lines.joined(separator: "\n") + "\n").write(to: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xsettingsd")
        process.arguments = ["-c", config.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Running once it owns the screen's XSETTINGS selection.
        eventually("xsettingsd running") { shell("xprop", ["-root", "_XSETTINGS_SETTINGS"]).status == 0 || !process.isRunning }
        return process
    }

    /// WCAG's contrast ratio between the text and its background in `rect`: the background is
    /// the commonest luminance, the text the one farthest from it (a glyph's core, not its
    /// anti-aliased edge).
    static func contrast(in image: Image, _ rect: WindowRect) -> Double {
        var counts: [Int: Int] = [:]
        var luminances: [Double] = []
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                let p = image.pixel(x, y)
                let l = relativeLuminance(p.r, p.g, p.b)
                luminances.append(l)
                counts[Int(l * 100), default: 0] += 1
            }
        }
        guard let commonest = counts.max(by: { $0.value < $1.value })?.key else { return 0 }
        let background = luminances.filter { Int($0 * 100) == commonest }.reduce(0, +) / Double(counts[commonest]!)
        let text = luminances.max { abs($0 - background) < abs($1 - background) } ?? background
        return (max(text, background) + 0.05) / (min(text, background) + 0.05)
    }

    private static func relativeLuminance(_ r: Int, _ g: Int, _ b: Int) -> Double {
        func linear(_ c: Int) -> Double {
            let v = Double(c) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }
}
