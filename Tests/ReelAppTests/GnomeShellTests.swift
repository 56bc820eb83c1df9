// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Reel on the desktop its users run: GNOME Shell on Wayland, whose own media controls are the
/// MPRIS client, whose window manager minimizes and switches workspaces, and which starts Reel
/// for a double-clicked file. Runs in `REEL_TEST_DESKTOP=gnome meson_helpers/test-session`.
final class GnomeShellTests: XCTestCase {
    private var gnome: GnomeShellDriver { .shared }
    private var prefix: String? { ProcessInfo.processInfo.environment["REEL_TEST_PREFIX"] }

    override func setUpWithError() throws {
        guard Desktop.current == .gnome else { throw XCTSkip("GNOME Shell's own surfaces: REEL_TEST_DESKTOP=gnome") }
    }

    /// The date menu a test opened is closed whatever happened: left open, it takes the clicks
    /// of the tests that follow (WindowTests' clicks on the control bar failed after it).
    override func tearDown() {
        if Desktop.current == .gnome { gnome.setDateMenuOpen(false) }
        super.tearDown()
    }

    /// Reel's player in the shell's media controls, as the shell shows it.
    private func reelPlayer() -> [String: Any]? {
        gnome.mediaPlayers().first { $0["busName"] as? String == ReelApp.busName }
    }

    func testTheShellsMediaControlsShowReelAndDriveIt() throws {
        let app = try ReelApp([Paths.media("tagged.mkv"), Paths.media("clip-vp9.webm")])
        app.waitForPlaying("Tagged Title")
        gnome.setDateMenuOpen(true)
        defer { gnome.setDateMenuOpen(false) }
        eventually("Reel in the shell's media controls, with its tags") {
            guard let player = self.reelPlayer() else { return false }
            return player["title"] as? String == "Tagged Title" && player["artists"] as? [String] == ["Artist One", "Artist Two"] &&
                player["status"] as? String == "Playing" && player["canGoNext"] as? Bool == true
        }
        let cover = app.metadata["mpris:artUrl"]?.stringValue
        XCTAssertNotNil(cover)
        XCTAssertEqual(reelPlayer()?["cover"] as? String, cover, "the shell shows the embedded cover")
        if prefix != nil {
            XCTAssertEqual(reelPlayer()?["app"] as? String, "org.reelplayer.Reel.desktop",
                           "the shell finds Reel's desktop entry: its name and icon, not a generic player's")
            XCTAssertEqual(reelPlayer()?["appName"] as? String, "Reel")
        }
        gnome.screenshotOfScreen("gnome-media-controls-tagged")

        gnome.clickMediaControl("_playPauseButton")
        eventually("the shell's pause button pauses Reel") { app.status == "Paused" }
        eventually("and the controls follow") { self.reelPlayer()?["status"] as? String == "Paused" }
        gnome.clickMediaControl("_playPauseButton")
        eventually("its play button plays") { app.status == "Playing" && self.reelPlayer()?["status"] as? String == "Playing" }

        gnome.clickMediaControl("_nextButton")
        app.waitForPlaying("clip-vp9")
        eventually("the controls show the next item; an untagged video names its folder, not “Unknown artist”") {
            guard let player = self.reelPlayer() else { return false }
            return player["title"] as? String == "clip-vp9" && player["artists"] as? [String] == [Paths.media.lastPathComponent] &&
                player["canGoNext"] as? Bool == false && player["canGoPrevious"] as? Bool == true
        }
        gnome.screenshotOfScreen("gnome-media-controls-untagged")
        gnome.clickMediaControl("_prevButton")
        app.waitForPlaying("Tagged Title")

        app.stop()
        eventually("Reel leaves the media controls when it quits") { self.reelPlayer() == nil }
    }

    /// A file with chapters alone in the queue: the shell's controls show the chapter playing
    /// before the title, and their next and previous buttons move by chapter.
    func testTheShellsMediaControlsMoveByChapter() throws {
        let app = try ReelApp([Paths.media("chapters.mkv")])
        app.waitForPlaying()
        gnome.setDateMenuOpen(true)
        defer { gnome.setDateMenuOpen(false) }
        eventually("the controls show the chapter before the title, and that one follows") {
            guard let player = self.reelPlayer() else { return false }
            return player["title"] as? String == "Opening — chapters" && player["canGoNext"] as? Bool == true
        }
        gnome.screenshotOfScreen("gnome-media-controls-chapter")
        gnome.clickMediaControl("_nextButton")
        eventually("their next button: the next chapter") { self.reelPlayer()?["title"] as? String == "Middle part — chapters" }
        XCTAssertEqual(app.position, 4, accuracy: 1)
        gnome.clickMediaControl("_prevButton")
        eventually("their previous button: the chapter before") { self.reelPlayer()?["title"] as? String == "Opening — chapters" }
    }

    /// The window minimized by the shell (as its title-bar button or Super+H do) or left on
    /// another workspace: the video branch is detached, the sound goes on without a gap, and
    /// coming back shows a new frame at once.
    func testMinimizedOrOnAnotherWorkspaceTheVideoDetachesAndTheSoundGoesOn() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        eventually("frames on screen") { app.framesShown > 10 }
        let recorder = try SoundRecorder()
        recorder.waitUntilRecorded(seconds: 0.5)
        for (hide, show, name) in [({ app.minimize() }, { app.restore() }, "minimized"),
                                   ({ self.gnome.switchWorkspace(to: 1) }, { self.gnome.switchWorkspace(to: 0) }, "on another workspace")] {
            hide()
            eventually("video detached while \(name)") { app.debugProperty("VideoAttached") == .bool(false) }
            let frames = app.framesReceived, position = app.position
            eventually("sound plays on while \(name)") { app.position > position + 1 }
            XCTAssertLessThanOrEqual(app.framesReceived, frames + 1, "no frames decoded while \(name)")
            let shown = app.framesShown, restored = Date()
            show()
            eventually("a new frame after \(name)", timeout: 3, interval: 0.01) { app.framesShown > shown }
            print("GNOME: back from \(name) → new frame: \(Int(Date().timeIntervalSince(restored) * 1000)) ms")
            eventually("video attached again") { app.debugProperty("VideoAttached") == .bool(true) }
        }
        _ = app.screenshot("gnome-restored")
        let recorded = recorder.duration
        recorder.waitUntilRecorded(seconds: recorded + 0.5)
        let silence = BackgroundTests.longestSilence(recorder.stop())
        print("GNOME: longest silence across minimize, workspace switch and back: \(silence) ms")
        XCTAssertLessThanOrEqual(silence, 50, "no audible gap")
        XCTAssertEqual(app.status, "Playing")
    }

    /// A visible window whose picture stands still (paused) is never taken for a hidden one.
    func testAPausedVisibleWindowKeepsItsVideo() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        let until = Date().addingTimeInterval(3)
        while Date() < until {
            XCTAssertEqual(app.debugProperty("VideoEnabled"), .bool(true), "a visible paused window keeps its video")
            Thread.sleep(forTimeInterval: 0.2)  // observation window: nothing may change during it
        }
        try app.player("Play")
        let shown = app.framesShown
        eventually("frames flow at once") { app.framesShown > shown + 5 }
    }

    /// Closed into the background, then Reel from the shell's media controls: the window comes
    /// back in front, focused (the shell activates Reel's desktop entry with an activation token).
    func testRaiseFromTheControlsBringsBackAWindowClosedIntoTheBackground() throws {
        guard prefix != nil else { throw XCTSkip("needs the install made by meson_helpers/run-tests (REEL_TEST_PREFIX)") }
        let config = try BackgroundTests.settingsDirectory(["close-action": "'keep-playing'"])
        let app = try ReelApp([Paths.media("tone-30s.webm")], environment: config)
        app.waitForPlaying()
        app.desktop.close(app.windowID)
        eventually("the window gone, the sound going on") {
            app.desktop.windows(of: app.process.processIdentifier).isEmpty && app.status == "Playing"
        }
        gnome.setDateMenuOpen(true)
        eventually("Reel still in the media controls") { self.reelPlayer() != nil }
        gnome.clickMediaControl("body")
        eventually("the window back, focused") {
            guard let window = app.desktop.windows(of: app.process.processIdentifier).first else { return false }
            return self.gnome.focusedWindow() == window
        }
        eventually("and drawing video") { app.debugProperty("VideoAttached") == .bool(true) }
        _ = app.screenshot("gnome-raised-after-close")
    }

    /// `gio open`, as a double-click in Files: the installed Reel, D-Bus activated, comes up in
    /// front; a second file goes to the same window.
    func testAFileOpenedFromTheDesktopComesUpInFront() throws {
        guard let prefix else { throw XCTSkip("needs the install made by meson_helpers/run-tests (REEL_TEST_PREFIX)") }
        XCTAssertEqual(shell("gio", ["mime", "video/mp4", "org.reelplayer.Reel.desktop"]).status, 0)
        XCTAssertEqual(shell("gio", ["mime", "video/webm", "org.reelplayer.Reel.desktop"]).status, 0)
        let bus = try DBusClient()
        func pids() -> [Int32] {
            shell("pgrep", ["-f", "^\(prefix)/bin/reel"]).output.split(whereSeparator: \.isNewline).compactMap { Int32($0) }
        }
        defer {
            _ = try? bus.call(ReelApp.busName, ReelApp.mprisPath, "org.mpris.MediaPlayer2", "Quit")
            eventually("the installed Reel quit") { pids().isEmpty }
        }
        XCTAssertEqual(shell("gio", ["open", Paths.media("clip-h264.mp4")]).status, 0)
        var window = ""
        eventually("Reel's window in front, focused, playing the file", timeout: 20) {
            guard let pid = pids().first, let first = Desktop.driver.windows(of: pid).first else { return false }
            window = first
            return self.gnome.focusedWindow() == first && Desktop.driver.title(first) == "clip-h264"
        }
        XCTAssertEqual(shell("gio", ["open", Paths.media("clip-vp9.webm")]).status, 0)
        eventually("the second file in the same window") { Desktop.driver.title(window) == "clip-vp9" }
        XCTAssertEqual(pids().count, 1, "one instance")
        gnome.screenshotOfScreen("gnome-opened-from-files")
    }
}
