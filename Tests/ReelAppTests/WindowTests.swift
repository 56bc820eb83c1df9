// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// The real window, driven from outside and looked at through screenshots.
final class WindowTests: XCTestCase {
    func testVersionAndHelpAnswerWithoutAWindow() {
        let version = shell(Paths.reel.path, ["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.output.trimmingCharacters(in: .whitespacesAndNewlines), "Reel \(Paths.version)")
        let help = shell(Paths.reel.path, ["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.output.contains("FILE"), help.output)
    }

    /// GTK starts without loading its own media module, and GStreamer's GL library and libGL
    /// with it: Reel draws its own frames (`GTKMediaModules`).
    func testGTKsMediaModuleIsNotLoaded() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        // Read to the end: /proc's files have no size, and String(contentsOfFile:) stops at a page.
        let maps = String(decoding: try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/\(app.process.processIdentifier)/maps"))
            .readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(maps.contains("libgtk-4.so"), "the maps read whole")
        for library in ["libmedia-gstreamer.so", "libgstgl-1.0.so"] {
            XCTAssertFalse(maps.contains(library), "\(library) is loaded")
        }
    }

    /// On X11, GTK's cairo renderer sends each repaint to the X server through cairo's shared
    /// memory; fullscreen, each repaint used to make (and drop) a 64 MB segment of its own.
    /// Reel keeps one pool for a whole screen (`x11_upload_pool.c`): the segments it made stay the same.
    func testFullscreenRepaintsReuseOneSharedMemoryPool() throws {
        guard Desktop.current == .x11 else { throw XCTSkip("MIT-SHM uploads are X11's (GTK's cairo renderer)") }
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        app.key("f")
        eventually("fullscreen") { app.isFullscreen && app.desktop.isSettled(app.windowID) }
        let pid = app.process.processIdentifier
        // The segments Reel created (the creator's pid is the fifth column), as the kernel lists them.
        func segments() -> Set<Substring> {
            let table = (try? String(contentsOfFile: "/proc/sysvipc/shm", encoding: .utf8)) ?? ""
            return Set(table.split(separator: "\n").dropFirst().compactMap { row in
                let columns = row.split(separator: " ")
                return columns.count > 4 && columns[4] == "\(pid)" ? columns[1] : nil
            })
        }
        var seen = Set<Substring>()
        let from = app.framesShown
        eventually("30 frames drawn fullscreen", timeout: 20, interval: 0.01) {
            seen.formUnion(segments())
            return app.framesShown >= from + 30
        }
        XCTAssertFalse(seen.isEmpty, "repaints go through shared memory")
        XCTAssertLessThanOrEqual(seen.count, 2, "segments made while 30 frames were drawn: \(seen.sorted())")
    }

    func testDemoClipShowsMovingPicture() throws {
        let app = try ReelApp([Paths.packageRoot.appendingPathComponent("data/demo.webm").path])
        app.waitForPlaying()
        let shown = app.framesShown
        eventually("a few frames on screen before comparing") { app.framesShown > shown + 3 }
        let first = try XCTUnwrap(app.screenshot("demo-playing-1"))
        var second: Image?
        eventually("the picture changes while playing") {
            second = app.screenshot()
            return second.map { first.difference($0) > 0.01 } ?? false
        }
        _ = app.screenshot("demo-playing-2")
        XCTAssertGreaterThan(first.litFraction, 0.3, "the video area is not black")
    }

    /// The count of frames never drawn, which the benchmark reads for dropped frames: with the
    /// whole process stopped for 0.4 s, a video without sound (on the system clock) comes back
    /// late, and the frames of those 0.4 s (12 at 30 fps), and any dropped catching up under load,
    /// are never drawn.
    func testFramesNeverDrawnAreCounted() throws {
        let app = try ReelApp([Paths.media("frames.mp4")])
        app.waitForPlaying("frames")
        let shown = app.framesShown
        eventually("frames on screen") { app.framesShown > shown + 5 }
        // How many a clip drops in steady playback is the benchmark's figure (frames dropped); here it is printed.
        let before = app.framesSkipped
        print("frames never drawn before the stop: \(before)")
        kill(app.process.processIdentifier, SIGSTOP)
        Thread.sleep(forTimeInterval: 0.4)  // the stimulus: how long the process stands still
        kill(app.process.processIdentifier, SIGCONT)
        eventually("the frames of the stop counted") { app.framesSkipped >= before + 8 }
        let after = app.framesShown
        eventually("frames flow again") { app.framesShown > after + 10 }
        XCTAssertLessThan(app.framesSkipped, before + 45, "the frames of the stop and of catching up, not more")
    }

    func testPausedPictureStandsStill() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        // No frame drawn across one 0.2 s interval (the first look only takes the count).
        var shown: UInt64?
        eventually("the last frame drawn", interval: 0.2) {
            let now = app.framesShown
            defer { shown = now }
            return now == shown
        }
        let first = try XCTUnwrap(app.screenshot("paused-first"))
        let position = app.position
        // An observation window: while paused, nothing on screen may change during it.
        Thread.sleep(forTimeInterval: 1)
        let second = try XCTUnwrap(app.screenshot("paused"))
        XCTAssertLessThan(first.difference(second), 0.002,
                          "two captures 1 s apart match while paused; they differ at \(first.differingArea(second))")
        XCTAssertEqual(app.position, position, "the position stands still too")
        XCTAssertGreaterThan(second.litFraction, 0.3, "the last frame stays on screen")
    }

    /// A red 4:3 clip: red in the middle, black bars at the sides of a wide window and above and
    /// below the picture in a tall one.
    func testColoursAndLetterboxingAtTwoSizes() throws {
        let app = try ReelApp([Paths.media("short-1.webm")])
        app.waitForPlaying()
        try app.player("Pause")
        eventually("paused") { app.status == "Paused" }

        app.resize(width: 1000, height: 500)
        var wide: Image?
        eventually("pillarboxed red picture") {
            wide = app.screenshot()
            guard let image = wide else { return false }
            let red = image.mean(x0: 0.45, y0: 0.2, x1: 0.55, y1: 0.3)
            let side = image.mean(x0: 0.01, y0: 0.3, x1: 0.1, y1: 0.6)
            return red.r > 180 && red.g < 80 && red.b < 80 && side.r + side.g + side.b < 30
        }
        _ = app.screenshot("letterbox-wide")

        app.resize(width: 500, height: 900)
        eventually("letterboxed red picture") {
            guard let image = app.screenshot() else { return false }
            let red = image.mean(x0: 0.3, y0: 0.45, x1: 0.4, y1: 0.5)
            let above = image.mean(x0: 0.2, y0: 0.12, x1: 0.8, y1: 0.2)
            let sides = image.mean(x0: 0.02, y0: 0.45, x1: 0.08, y1: 0.5)
            return red.r > 180 && red.g < 80 && above.r + above.g + above.b < 30 && sides.r > 180
        }
        _ = app.screenshot("letterbox-tall")
    }

    func testMarkupInTitlesShowsLiterally() throws {
        let app = try ReelApp([Paths.media("markup-title.mkv")])
        app.waitForPlaying("<b>A & B</b>")
        XCTAssertEqual(app.windowTitle, "<b>A & B</b>", "the window title is the literal text")
        _ = app.screenshot("literal-title")
    }

    func testUnreadableFileShowsAnErrorAndTheNextFilePlays() throws {
        let app = try ReelApp([Paths.media("random.mp4")])
        eventually("stopped after the error") { app.status == "Stopped" && app.title == "random" }
        eventually("the error is shown where the picture would be") {
            guard let image = app.screenshot() else { return false }
            // A status page (light text on the black video area) says what went wrong.
            let centre = image.mean(x0: 0.2, y0: 0.25, x1: 0.8, y1: 0.65)
            return centre.r > 8 && centre.r < 120
        }
        _ = app.screenshot("error-toast")
        XCTAssertTrue(app.output.contains("random.mp4"), app.output)
        try app.player("OpenUri", [.string(Paths.mediaURI("short-3.webm"))])
        app.waitForPlaying("short-3")
    }

    func testPlayAfterTheEndStartsAgainFromZero() throws {
        let app = try ReelApp([Paths.media("short-4.webm")])
        app.waitForPlaying()
        eventually("the end") { app.status == "Stopped" }
        let ended = try XCTUnwrap(app.screenshot("ended"))
        XCTAssertGreaterThan(ended.litFraction, 0.3, "the last frame stays on screen")
        app.activate("play-pause")
        eventually("playing from the start") { app.status == "Playing" && app.position < 1.5 }
    }

    /// One state at the end: the last frame, with the time at the end (not the first frame under it).
    func testTheEndShowsTheLastFrameAndTheTimeAtTheEnd() throws {
        let app = try ReelApp([Paths.media("clip-h264.mp4")])  // scrolling bars with a clock: no two frames alike
        app.waitForPlaying()
        app.key("space")
        eventually("paused") { app.status == "Paused" }
        app.key("Home")
        eventually("at the start") { app.position < 0.05 }
        var first: Image?
        eventually("the first frame on screen") {
            let previous = first
            first = app.screenshot()
            return previous.map { first?.difference($0) ?? 1 } ?? 1 < 0.001
        }
        app.key("space")
        eventually("the end", timeout: 15) { app.status == "Stopped" }
        let duration = Double(try XCTUnwrap(app.metadata["mpris:length"]?.int64Value)) / 1_000_000
        XCTAssertEqual(app.position, duration, accuracy: 0.1, "the time stays at the end")
        let frames = app.framesReceived
        var ended: Image?
        eventually("the picture settled") {
            let previous = ended
            ended = app.screenshot("ended-last-frame")
            return previous.map { ended?.difference($0) ?? 1 } ?? 1 < 0.001
        }
        // The clip's clock, top left of the picture (the control bar comes and goes below).
        func clock(_ image: Image?) throws -> Image { try XCTUnwrap(image).cropped(x0: 0.15, y0: 0.15, x1: 0.4, y1: 0.3) }
        XCTAssertGreaterThan(try clock(ended).difference(try clock(first)), 0.02, "the last frame, not the first, at the end")
        XCTAssertEqual(app.framesReceived, frames, "no frame decoded after the end")
        XCTAssertEqual(app.position, duration, accuracy: 0.1, "the time still at the end")
        app.activate("play-pause")
        eventually("playing from the start") { app.status == "Playing" && app.position < 1.5 }
    }

    /// The skip buttons' tooltips and the shortcuts window name the interval set in Preferences,
    /// and follow it. The shortcuts window is built when first asked for, not at start-up.
    func testSkipTooltipsAndShortcutsNameTheConfiguredInterval() throws {
        let config = try BackgroundTests.settingsDirectory(["skip-interval": "30"])
        let app = try ReelApp([Paths.media("tone-30s.webm")], environment: config)
        app.waitForPlaying()
        let tooltips = { app.debugProperty("ControlTooltips")?.dictionary ?? [:] }
        eventually("30 s in the tooltips: \(tooltips())") {
            tooltips()["skip-backward"]?.stringValue == "Back 30 Seconds" && tooltips()["skip-forward"]?.stringValue == "Forward 30 Seconds"
        }
        let shortcuts = { app.debugProperty("ShortcutTitles")?.strings ?? [] }
        XCTAssertEqual(shortcuts(), [], "no shortcuts window before it is asked for")
        app.key("ctrl+question")
        eventually("30 s in the shortcuts window: \(shortcuts())") {
            shortcuts().contains("Back 30 seconds") && shortcuts().contains("Forward 30 seconds")
        }
        // Changed while Reel runs (as Preferences does, through the settings backend).
        let keyfile = URL(fileURLWithPath: try XCTUnwrap(config["XDG_CONFIG_HOME"])).appendingPathComponent("glib-2.0/settings/keyfile")
        try "[org/reelplayer/Reel]\nskip-interval=1\n".write(to: keyfile, atomically: true, encoding: .utf8)
        eventually("1 s in the tooltips: \(tooltips())") {
            tooltips()["skip-backward"]?.stringValue == "Back 1 Second" && tooltips()["skip-forward"]?.stringValue == "Forward 1 Second"
        }
        eventually("1 s in the shortcuts window: \(shortcuts())") {
            shortcuts().contains("Back 1 second") && shortcuts().contains("Forward 1 second")
        }
    }

    /// The window opens at the size it was left at, as GNOME apps do (window-width/height).
    func testTheWindowOpensAtTheSizeItWasLeftAt() throws {
        let config = try BackgroundTests.settingsDirectory([:])
        var left: WindowGeometry?
        do {
            let app = try ReelApp([Paths.media("tone-30s.webm")], environment: config)
            app.waitForPlaying()
            let first = try XCTUnwrap(app.desktop.geometry(app.windowID))
            app.resize(width: 720, height: 480)
            left = app.desktop.geometry(app.windowID)
            XCTAssertNotEqual(first.width, left?.width, "the window was resized from its default")
            app.stop()
        }
        let again = try ReelApp([Paths.media("tone-30s.webm")], environment: config)
        again.waitForPlaying()
        let size = { again.desktop.geometry(again.windowID).map { ($0.width, $0.height) } }
        eventually("opened at \(left.map { "\($0.width)×\($0.height)" } ?? "?"), not \(String(describing: size()))") {
            size().map { $0 == (left?.width, left?.height) } ?? false
        }
    }

    func testButtonsKeysAndTroughMoveThePosition() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        app.resize(width: 960, height: 600)
        let before = app.position
        app.key("Right")
        eventually("Right skips 10 s") { app.position >= before + 9 }
        app.key("Left")
        eventually("Left skips back") { app.position < before + 5 }
        app.key("space")
        eventually("Space pauses") { app.status == "Paused" }
        app.key("space")
        eventually("Space plays") { app.status == "Playing" }
        app.key("End")
        eventually("End ends the item") { app.status == "Stopped" }
        app.key("Home")
        eventually("Home goes to the start") { app.position < 1 }
    }

    func testElapsedTimeAdvancesOnScreen() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        let first = try XCTUnwrap(app.screenshot())
        let start = app.position
        // The elapsed label sits left of the slider in the control bar at the bottom.
        let bar = { (image: Image) in image.mean(x0: 0.2, y0: 0.9, x1: 0.5, y1: 0.98) }
        let a = bar(first)
        eventually("the elapsed label and slider change as time goes on") {
            guard let b = app.screenshot().map(bar) else { return false }
            return a.r + a.g + a.b != b.r + b.g + b.b
        }
        _ = app.screenshot("elapsed")
        XCTAssertGreaterThan(app.position, start, "the label moved because time did")
    }

    func testSoundReachesTheSpeakers() throws {
        let recorder = try SoundRecorder()
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        eventually("two seconds played") { app.position > 2.2 }
        let levels = SoundRecorder.levels(recorder.stop())
        XCTAssertGreaterThan(levels.filter { $0 > 1000 }.count, 150, "1.5 s of the 440 Hz tone reached the null sink")
        // The desktop's sound settings list the stream as Reel's, a video player's.
        let inputs = shell("pactl", ["list", "sink-inputs"]).output
        XCTAssertTrue(inputs.contains("media.role = \"video\""), inputs)
        XCTAssertTrue(inputs.contains("application.name = \"Reel\""), inputs)
        XCTAssertTrue(inputs.contains("application.icon_name = \"org.reelplayer.Reel\""), inputs)
        try app.player("Pause")
    }

    /// Mouse clicks on the control bar of a 960×600 window: play/pause, skip forward, the trough.
    func testClickingPlaySkipAndTheTrough() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        app.resize(width: 960, height: 600)
        _ = app.screenshot("controls")
        app.revealControls()
        let controls = app.controlBounds
        let play = try XCTUnwrap(controls["play-pause"]), forward = try XCTUnwrap(controls["skip-forward"])
        app.desktop.click(app.windowID, x: play.midX, y: play.midY)
        eventually("the play/pause button pauses") { app.status == "Paused" }
        let paused = app.position
        app.desktop.click(app.windowID, x: forward.midX, y: forward.midY)
        eventually("the skip button moves 10 s on") { abs(app.position - (paused + 10)) < 0.5 }
        // The middle of the slider is the middle of the clip.
        let slider = try sliderGeometry(app)
        app.desktop.click(app.windowID, x: Int(slider.x(at: 15)), y: slider.y)
        eventually("a click on the trough jumps there (clicked at \(Int(slider.x(at: 15))), \(slider.y); \(slider))") {
            abs(app.position - 15) < 2
        }
        if abs(app.position - 15) >= 2 { _ = app.screenshot("trough-click-missed") }
        XCTAssertEqual(app.status, "Paused", "seeking keeps the play/pause state")
        app.desktop.click(app.windowID, x: play.midX, y: play.midY)
        eventually("the play/pause button plays") { app.status == "Playing" }
    }

    /// Where the slider's knob sits for a time: the knob as the window lays it out (the
    /// diagnostics' ControlBounds) at two known positions while paused, each checked on screen
    /// (the knob is drawn, white, where the layout says).
    private struct SliderGeometry {
        let x0: Double, x1: Double, t0: Double, t1: Double, y: Int
        func x(at seconds: Double) -> Double { x0 + (seconds - t0) / (t1 - t0) * (x1 - x0) }
        func seconds(at x: Double) -> Double { t0 + (x - x0) / (x1 - x0) * (t1 - t0) }
    }

    private func sliderGeometry(_ app: ReelApp, file: StaticString = #filePath, line: UInt = #line) throws -> SliderGeometry {
        let wasAt = app.position, wasPlaying = app.status == "Playing"
        if wasPlaying { try app.player("Pause") }
        let track = try XCTUnwrap(app.metadata["mpris:trackid"]?.stringValue)
        var marks: [Double] = [], y = 0
        for t in [5.0, 25.0] {
            try app.player("SetPosition", [.objectPath(track), .int64(Int64(t * 1e6))])
            eventually("at \(t) s", file: file, line: line) { abs(app.position - t) < 0.3 }
            app.revealControls()
            var knob: WindowRect?
            // Settled: the same bounds twice in a row (on GNOME the first read after a seek could
            // still be the knob of the time before), and drawn there.
            eventually("the knob drawn where the layout puts it at \(t) s", interval: 0.15, file: file, line: line) {
                guard let bounds = app.controlBounds["knob"], let shot = app.screenshot() else { return false }
                defer { knob = bounds }
                let p = shot.pixel(bounds.midX, bounds.midY)
                return bounds == knob && abs(app.position - t) < 0.3 && p.r > 235 && p.g > 235 && p.b > 235
            }
            marks.append(Double(knob?.x ?? 0) + Double(knob?.width ?? 0) / 2)
            y = knob?.midY ?? 0
        }
        try app.player("SetPosition", [.objectPath(track), .int64(Int64(wasAt * 1e6))])
        eventually("back where it was", file: file, line: line) { abs(app.position - wasAt) < 0.3 }
        if wasPlaying { try app.player("Play") }
        app.revealControls()
        return SliderGeometry(x0: marks[0], x1: marks[1], t0: 5, t1: 25, y: y)
    }

    func testControlsHideWhileWatchingAndComeBackOnMotion() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        app.resize(width: 960, height: 600)
        eventually("controls hide after 3 s without motion", timeout: 8) { !app.controlsShown }
        XCTAssertEqual(app.status, "Playing")
        _ = app.screenshot("controls-hidden")
        app.revealControls()  // fails the test unless pointer motion brings the bar back
        _ = app.screenshot("controls-shown")
    }

    func testAudioOnlyMediaShowTheirCover() throws {
        let app = try ReelApp([Paths.media("audio-only.ogg")])
        app.waitForPlaying("Audio Only Title")
        eventually("the cover fills the middle of the window") {
            guard let image = app.screenshot() else { return false }
            // The cover is a colourful pinwheel; the video area is otherwise black.
            return image.mean(x0: 0.4, y0: 0.3, x1: 0.6, y1: 0.6).r > 40
        }
        _ = app.screenshot("audio-only")
    }

    func testEmptyWindowOffersToOpenAFile() throws {
        let app = try ReelApp([])
        // The status page is light (the window background), not the black video area.
        eventually("the empty state drawn") { (app.screenshot()?.mean(x0: 0.1, y0: 0.3, x1: 0.9, y1: 0.7).r ?? 0) > 150 }
        _ = app.screenshot("empty-state")
        app.key("ctrl+o")
        eventually("Ctrl+O opens the Open dialog") { !app.openDialogID.isEmpty }
        _ = app.screenshot("open-dialog")
    }

    /// The keys change what is heard, not only the Volume property: the level on the sink's
    /// monitor drops by the volume's ratio (linear: 0.9 is −0.92 dB), M silences and M again
    /// brings the sound back at the volume it had.
    func testVolumeAndMuteKeysAndScrollingOverTheSlider() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        let recorder = try SoundRecorder()
        app.waitForPlaying()
        app.resize(width: 960, height: 600)
        let volume = { (try? app.property("Volume"))?.doubleValue ?? -1 }
        XCTAssertEqual(volume(), 1, "full volume to start from")
        let full = recorder.levelOnceChanged()
        XCTAssertGreaterThan(full, 1000, "the tone is heard")
        app.key("Down", "Down")
        eventually("Down lowers the volume") { abs(volume() - 0.9) < 0.001 }
        let lowered = SoundRecorder.decibels(recorder.levelOnceChanged(), relativeTo: full)
        app.key("Up")
        eventually("Up raises it") { abs(volume() - 0.95) < 0.001 }
        let raised = SoundRecorder.decibels(recorder.levelOnceChanged(), relativeTo: full)
        app.key("m")
        eventually("M mutes") { volume() == 0 }
        let muted = recorder.levelOnceChanged()
        app.key("m")
        eventually("M unmutes") { abs(volume() - 0.95) < 0.001 }
        let unmuted = SoundRecorder.decibels(recorder.levelOnceChanged(), relativeTo: full)
        _ = recorder.stop()
        print(String(format: "volume keys heard: 0.9 → %+.2f dB, 0.95 → %+.2f dB, muted RMS %.0f, unmuted %+.2f dB",
                     lowered, raised, muted, unmuted))
        XCTAssertEqual(lowered, 20 * log10(0.9), accuracy: 0.3, "Down Down: the sound is 0.92 dB quieter")
        XCTAssertEqual(raised, 20 * log10(0.95), accuracy: 0.3, "Up: 0.46 dB under full")
        XCTAssertLessThan(muted, 30, "M: silence")
        XCTAssertEqual(unmuted, 20 * log10(0.95), accuracy: 0.3, "M again: the sound back at 0.95")
        // Scrolling over the slider steps by the skip interval (10 s): down goes back.
        try app.player("SetPosition", [.objectPath(app.metadata["mpris:trackid"]?.stringValue ?? ""), .int64(15_000_000)])
        eventually("at 15 s") { abs(app.position - 15) < 1 }
        app.revealControls()
        let slider = try XCTUnwrap(app.controlBounds["slider"])
        app.desktop.pointerMove(app.windowID, x: slider.midX, y: slider.midY)
        app.desktop.scroll(down: true)
        eventually("scrolling down steps back 10 s") { app.position < 9 }
    }

    /// Files dragged from another application (a file manager, here a small GTK drag source).
    func testDroppedFilesPlay() throws {
        let app = try ReelApp([])
        let source = try Fixture("drag-source.py", [Paths.mediaURI("short-2.webm"), Paths.mediaURI("short-3.webm")])
        app.dropFiles(from: "Reel drag source")
        app.waitForPlaying("short-2")
        let tracks = try app.property("Tracks", interface: "org.mpris.MediaPlayer2.TrackList").strings ?? []
        XCTAssertEqual(tracks.count, 2, "both dropped files are queued")
        withExtendedLifetime(source) {}  // the drag source stays up until the drop is checked
    }

    /// Dragging the slider scrubs (the picture follows while the button is down) and lands
    /// accurately where it is let go, keeping the paused state.
    func testDraggingTheSliderScrubsAndLandsWhereReleased() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',member='Seeked'")
        app.waitForPlaying()
        app.resize(width: 960, height: 600)
        try app.player("Pause")
        try app.player("SetPosition", [.objectPath(app.metadata["mpris:trackid"]?.stringValue ?? ""), .int64(3_000_000)])
        XCTAssertNotNil(app.bus.waitForSignal { $0.member == "Seeked" }, "the seek to 3 s finished")
        eventually("paused at 3 s") { app.status == "Paused" && abs(app.position - 3) < 0.5 }
        let id = app.windowID
        app.revealControls()
        let slider = try sliderGeometry(app)
        app.bus.clearSignals()  // the measuring seeks' signals
        let start = Int(slider.x(at: 3).rounded()), end = Int(slider.x(at: 23).rounded())
        app.desktop.pointerMove(id, x: start, y: slider.y)
        app.desktop.pointerButton(1, pressed: true)
        var positionsWhileDragging: [Double] = []
        for x in stride(from: start, through: end, by: 25) {
            app.desktop.pointerMove(id, x: x, y: slider.y)
            Thread.sleep(forTimeInterval: 0.12)  // input pacing: a hand's drag, not a jump
            positionsWhileDragging.append(app.position)
        }
        app.desktop.pointerButton(1, pressed: false)
        let expected = slider.seconds(at: Double(stride(from: start, through: end, by: 25).map { $0 }.last ?? end))
        XCTAssertGreaterThan(positionsWhileDragging.max() ?? 0, 10, "the position follows the drag: \(positionsWhileDragging)")
        // The release's seek (a late Seeked of the measuring seeks back to 3 s may come first).
        let seeked = app.bus.waitForSignal { $0.member == "Seeked" && ($0.arguments.first?.int64Value ?? 0) > 10_000_000 }
        XCTAssertEqual(Double(seeked?.arguments.first?.int64Value ?? 0) / 1e6, expected, accuracy: 1.0)
        eventually("settled where released") { abs(app.position - expected) < 1.0 }
        XCTAssertEqual(app.status, "Paused", "a seek keeps the paused state")
    }
}
