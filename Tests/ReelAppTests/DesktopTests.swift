// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// What makes Reel a desktop citizen: double-click from the file manager (an installed copy,
/// D-Bus activated), fullscreen, the shortcuts window, screen blanking, recent files and
/// opening a location — on the real app in the test session.
final class DesktopTests: XCTestCase {
    /// meson_helpers/run-tests installs Reel into this prefix and puts it on XDG_DATA_DIRS.
    private var prefix: String? { ProcessInfo.processInfo.environment["REEL_TEST_PREFIX"] }

    func testDoubleClickingVideosPlaysThemInOneInstance() throws {
        guard let prefix, FileManager.default.fileExists(atPath: prefix + "/share/applications/org.reelplayer.Reel.desktop") else {
            throw XCTSkip("needs the install made by meson_helpers/run-tests (REEL_TEST_PREFIX)")
        }
        // What a file manager does: the default app for the type, launched through GIO.
        XCTAssertEqual(shell("gio", ["mime", "video/mp4", "org.reelplayer.Reel.desktop"]).status, 0)
        XCTAssertEqual(shell("gio", ["mime", "video/webm", "org.reelplayer.Reel.desktop"]).status, 0)
        let bus = try DBusClient()
        func reelPIDs() -> [String] {
            shell("pgrep", ["-f", "^\(prefix)/bin/reel"]).output.split(whereSeparator: \.isNewline).map(String.init)
        }
        defer {
            // The next test's Reel must not find this one still holding the app's name (it would
            // hand its files over and exit), so wait for the installed Reel to be gone.
            _ = try? bus.call(ReelApp.busName, ReelApp.mprisPath, "org.mpris.MediaPlayer2", "Quit")
            eventually("the installed Reel quit") { reelPIDs().isEmpty }
            for pid in reelPIDs() { kill(pid_t(pid) ?? 0, SIGKILL) }
            eventually("its names released") {
                let owned = { (name: String) in
                    (try? bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                                   [.string(name)]))?.first?.boolValue == true
                }
                return !owned(ReelApp.busName) && !owned("org.reelplayer.Reel")
            }
        }
        func mpris(_ name: String) -> DBusValue? {
            try? bus.call(ReelApp.busName, ReelApp.mprisPath, "org.freedesktop.DBus.Properties", "Get",
                          [.string(ReelApp.playerInterface), .string(name)]).first
        }
        func url() -> String { mpris("Metadata")?.dictionary["xesam:url"]?.stringValue ?? "" }

        let open = shell("gio", ["open", Paths.media("clip-h264.mp4")])
        XCTAssertEqual(open.status, 0, open.output)
        eventually("the installed Reel plays the clip", timeout: 20) {
            url() == Paths.mediaURI("clip-h264.mp4") && mpris("PlaybackStatus")?.stringValue == "Playing"
        }
        XCTAssertEqual(reelPIDs().count, 1, "started by D-Bus activation from the installed prefix")

        let second = shell("gio", ["open", Paths.media("clip-vp9.webm")])
        XCTAssertEqual(second.status, 0, second.output)
        eventually("the running instance plays the second file") { url() == Paths.mediaURI("clip-vp9.webm") }
        XCTAssertEqual(reelPIDs().count, 1, "no second instance")
    }

    func testFullscreenByKeyAndDoubleClickAndEscapeLeaves() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        let id = app.windowID
        // Both the window manager's view and Reel's own (MPRIS Fullscreen) must agree, and the
        // window's frame too, and the window must be drawn there: on Wayland the state changes a
        // frame before the size, and GNOME Shell then animates the change; a double-click across
        // either is two single clicks far apart.
        let frame = app.desktop.geometry(id)
        func fullscreen() -> Bool {
            app.isFullscreen && (try? app.property("Fullscreen", interface: "org.mpris.MediaPlayer2").boolValue) == true
                && app.desktop.geometry(id) != frame && app.desktop.isSettled(id)
        }
        func windowed() -> Bool {
            !app.isFullscreen && (try? app.property("Fullscreen", interface: "org.mpris.MediaPlayer2").boolValue) == false
                && app.desktop.geometry(id) == frame && app.desktop.isSettled(id)
        }
        app.key("f")
        eventually("fullscreen by F") { fullscreen() }
        eventually("controls and pointer hidden after 3 s without motion") { !app.controlsShown }
        // The 16:9 video fills the 16:9 screen to its edges: there the bars and the strips under
        // them, not a window frame (X11 without a compositor kept one) or black bars all along.
        let shot = try XCTUnwrap(app.screenshot("fullscreen"))
        for x in [1, shot.width - 2] {
            let colours = Set(stride(from: 4, to: shot.height - 4, by: max(1, shot.height / 16)).map { y -> Int in
                let p = shot.pixel(x, y)
                return (p.r / 32) << 6 | (p.g / 32) << 3 | p.b / 32
            })
            XCTAssertGreaterThan(colours.count, 1, "the picture reaches the screen's edge at x = \(x)")
        }
        app.key("Escape")
        eventually("Escape leaves") { windowed() }

        app.desktop.click(id, x: 400, y: 250, count: 2)
        eventually("fullscreen by double-click") { fullscreen() }
        // Input pacing, not a wait for state: a second double-click, not a quadruple click
        // (GTK counts presses on within its double-click time, 400 ms).
        Thread.sleep(forTimeInterval: 0.5)
        app.desktop.click(id, x: 400, y: 250, count: 2)
        eventually("and back") { windowed() }
        XCTAssertEqual(app.status, "Playing", "double-clicks do not pause")
    }

    func testTheShortcutsWindowOpensWithCtrlQuestion() throws {
        let app = try ReelApp([])
        _ = app.windowID
        app.key("ctrl+question")
        eventually("the Shortcuts window") { app.otherWindows.contains { app.desktop.title($0) == "Keyboard Shortcuts" } }
    }

    /// A dialog asked for again (keys, menus, D-Bus) comes to the front instead of opening twice.
    func testADialogAskedForTwiceOpensOnce() throws {
        let app = try ReelApp([])
        _ = app.windowID
        for action in ["app.preferences", "app.preferences", "app.about", "app.about"] { app.activateQuietly(action) }
        eventually("preferences and about open") { app.otherWindows.count >= 2 }
        XCTAssertEqual(app.otherWindows.count, 2, "one of each: \(app.otherWindows.map(app.desktop.title))")
        app.closeDialogs()
    }

    /// A stand-in session manager on the bus records what GTK asks of it for Reel.
    func testTheScreenStaysAwakeOnlyWhileVideoPlaysVisibly() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("reel-sm-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let manager = Process()
        manager.executableURL = Paths.packageRoot.appendingPathComponent("Tests/ReelAppTests/Fixtures/session-manager.py")
        manager.standardOutput = try FileHandle(forWritingTo: log)
        manager.standardInput = Pipe()
        try manager.run()
        defer { manager.terminate(); manager.waitUntilExit() }
        func lines() -> [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(whereSeparator: \.isNewline).map(String.init)
        }
        func inhibited() -> Bool {
            var active = Set<String>()
            for line in lines() {
                let words = line.split(separator: " ")
                if words.first == "inhibit", line.contains("flags=8") { active.insert(String(words[1])) }
                if words.first == "uninhibit" { active.remove(String(words[1])) }
            }
            return !active.isEmpty
        }
        eventually("the session manager on the bus") { lines().contains("ready") }

        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        eventually("idle inhibited while playing") { inhibited() }
        try app.player("Pause")
        eventually("released when paused") { !inhibited() }
        try app.player("Play")
        eventually("again when playing") { inhibited() }
        app.minimize()
        eventually("released while minimized") { !inhibited() }
        app.restore()
        eventually("again when restored") { inhibited() }
        try app.player("OpenUri", [.string(Paths.mediaURI("audio-only.ogg"))])
        app.waitForPlaying()
        eventually("sound alone does not keep the screen on") { !inhibited() }
    }

    func testPlayedFilesGoToRecentFiles() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("reel-data-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let app = try ReelApp([Paths.media("short-1.webm")], environment: ["XDG_DATA_HOME": data.path])
        app.waitForPlaying()
        let recent = data.appendingPathComponent("recently-used.xbel")
        eventually("listed in recently-used.xbel") {
            ((try? String(contentsOf: recent, encoding: .utf8)) ?? "").contains(Paths.mediaURI("short-1.webm"))
        }
    }

    func testOpenLocationPlaysAStreamAndRefusesOtherSchemes() throws {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let port = 18_000 + Int(getpid() % 1000)
        server.arguments = ["-m", "http.server", "--bind", "127.0.0.1", "--directory", Paths.media.path, "\(port)"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        let url = "http://127.0.0.1:\(port)/clip-vp9.webm"
        eventually("the server answers") {
            shell("python3", ["-c", "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=2)", url]).status == 0
        }

        let app = try ReelApp([])
        _ = app.windowID
        app.key("ctrl+l")
        eventually("the Open Location dialog") { self.dialogShown(app) }
        app.desktop.type(url)
        app.desktop.key("Return")
        eventually("the stream plays", timeout: 20) {
            app.metadata["xesam:url"]?.stringValue == url && app.status == "Playing"
        }

        app.key("ctrl+l")
        eventually("the dialog again") { self.dialogShown(app) }
        app.desktop.type("ftp://example.com/a.mp4")
        app.desktop.key("Return")
        eventually("refused in words") { app.output.contains("is not an http or https address") }
        XCTAssertEqual(app.metadata["xesam:url"]?.stringValue, url, "the stream plays on")
    }

    /// The pictures the AppStream metainfo lists, taken from the real window;
    /// meson_helpers/update-screenshots copies them into data/screenshots.
    func testMetainfoScreenshots() throws {
        let app = try ReelApp(["--repeat-each=2"] + (1...5).map { Paths.media("short-\($0).webm") } + [Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        app.revealControls()
        XCTAssertNotNil(app.screenshot("metainfo-main"))
        app.key("F9")
        eventually("the queue shown") { (app.screenshot()?.mean(x0: 0.74, y0: 0.6, x1: 0.98, y1: 0.9).r ?? 0) > 200 }
        app.revealControls()
        XCTAssertNotNil(app.screenshot("metainfo-queue"))
    }

    private func dialogShown(_ app: ReelApp) -> Bool {
        app.otherWindows.contains { app.desktop.title($0).contains("Open Location") }
    }
}
