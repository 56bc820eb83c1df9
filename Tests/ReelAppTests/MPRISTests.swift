// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// The MPRIS 2.2 server of the real app, checked with an independent libdbus client and playerctl.
final class MPRISTests: XCTestCase {
    static let root = "org.mpris.MediaPlayer2"
    static let trackList = "org.mpris.MediaPlayer2.TrackList"

    private func start(_ files: [String] = ["tone-30s.webm", "clip-vp9.webm"]) throws -> ReelApp {
        let app = try ReelApp(files.map(Paths.media))
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        app.waitForPlaying()
        return app
    }

    /// Pumps until the item titled `title` has sent its last Metadata change of a start: the one
    /// with its picture (`mpris:artUrl`, a frame when the file has no cover, about a second in).
    private func waitForTheLastChangeOfAStart(_ app: ReelApp, _ title: String,
                                              file: StaticString = #filePath, line: UInt = #line) {
        let done = app.bus.pump(until: { signals in
            signals.contains { signal in
                guard signal.member == "PropertiesChanged", signal.arguments.count > 1,
                      let metadata = signal.arguments[1].dictionary["Metadata"]?.dictionary else { return false }
                return metadata["xesam:title"]?.stringValue == title && metadata["mpris:artUrl"] != nil
            }
        }, timeout: 10)
        XCTAssertTrue(done, "\(title): no Metadata change with its picture within 10 s", file: file, line: line)
    }

    private func seekedPositions(_ app: ReelApp) -> [Double] {
        app.bus.signals.filter { $0.member == "Seeked" }.compactMap { $0.arguments.first?.int64Value }.map { Double($0) / 1e6 }
    }

    private func waitForSeeked(_ app: ReelApp, near expected: Double, tolerance: Double = 0.3,
                               file: StaticString = #filePath, line: UInt = #line) {
        let signal = app.bus.waitForSignal(timeout: 5) { $0.member == "Seeked" }
        guard let signal, case .int64(let micro) = signal.arguments.first else {
            XCTFail("no Seeked signal", file: file, line: line)
            return
        }
        XCTAssertEqual(signal.arguments.map(\.signature), ["x"], file: file, line: line)
        XCTAssertEqual(Double(micro) / 1e6, expected, accuracy: tolerance, file: file, line: line)
    }

    func testPropertiesHaveTheSpecsExactTypes() throws {
        let app = try ReelApp([Paths.media("tagged.mkv"), Paths.media("clip-vp9.webm")])
        app.waitForPlaying("Tagged Title")
        let player = try XCTUnwrap(app.getAll().first).dictionary
        let expected: [String: String] = [
            "PlaybackStatus": "s", "LoopStatus": "s", "Rate": "d", "Shuffle": "b", "Metadata": "a{sv}",
            "Volume": "d", "Position": "x", "MinimumRate": "d", "MaximumRate": "d", "CanGoNext": "b",
            "CanGoPrevious": "b", "CanPlay": "b", "CanPause": "b", "CanSeek": "b", "CanControl": "b",
        ]
        XCTAssertEqual(Set(player.keys), Set(expected.keys))
        for (name, signature) in expected { XCTAssertEqual(player[name]?.signature, signature, name) }
        XCTAssertEqual(player["MinimumRate"]?.doubleValue, 0.25)
        XCTAssertEqual(player["MaximumRate"]?.doubleValue, 4)
        XCTAssertEqual(player["CanControl"]?.boolValue, true)
        XCTAssertEqual(player["CanPlay"]?.boolValue, true)
        XCTAssertEqual(player["CanPause"]?.boolValue, true)
        XCTAssertEqual(player["CanGoNext"]?.boolValue, true)

        let root = try XCTUnwrap(app.getAll(Self.root).first).dictionary
        let rootTypes: [String: String] = [
            "CanQuit": "b", "CanRaise": "b", "CanSetFullscreen": "b", "Fullscreen": "b", "HasTrackList": "b",
            "Identity": "s", "DesktopEntry": "s", "SupportedUriSchemes": "as", "SupportedMimeTypes": "as",
        ]
        XCTAssertEqual(Set(root.keys), Set(rootTypes.keys))
        for (name, signature) in rootTypes { XCTAssertEqual(root[name]?.signature, signature, name) }
        XCTAssertEqual(root["Identity"]?.stringValue, "Reel")
        XCTAssertEqual(root["DesktopEntry"]?.stringValue, "org.reelplayer.Reel")
        XCTAssertEqual(Set(root["SupportedUriSchemes"]?.strings ?? []), ["file", "http", "https"])
        XCTAssertTrue(root["SupportedMimeTypes"]?.strings?.contains("video/mp4") ?? false)

        let metadata = app.metadata
        XCTAssertEqual(metadata["mpris:trackid"]?.signature, "o")
        let trackID = try XCTUnwrap(metadata["mpris:trackid"]?.stringValue)
        XCTAssertTrue(trackID.hasPrefix("/org/reelplayer/Reel/"), trackID)
        XCTAssertEqual(metadata["mpris:length"], .int64(5_000_000))
        XCTAssertEqual(metadata["xesam:title"], .string("Tagged Title"))
        XCTAssertEqual(metadata["xesam:album"], .string("Test Album"))
        XCTAssertEqual(metadata["xesam:artist"]?.signature, "as")
        XCTAssertEqual(metadata["xesam:artist"]?.strings, ["Artist One", "Artist Two"])
        XCTAssertEqual(metadata["xesam:url"], .string(Paths.mediaURI("tagged.mkv")))
        let art = try XCTUnwrap(URL(string: metadata["mpris:artUrl"]?.stringValue ?? ""))
        XCTAssertTrue(art.isFileURL)
        let attributes = try FileManager.default.attributesOfItem(atPath: art.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: art.deletingLastPathComponent().path)
        XCTAssertEqual((folder[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        XCTAssertEqual(try Data(contentsOf: art), try Data(contentsOf: URL(fileURLWithPath: Paths.media("cover.jpg"))),
                       "the embedded cover, as it was in the file")
    }

    func testVideoWithoutCoverGetsAFrameAsItsPicture() throws {
        let app = try start(["clip-vp9.webm"])
        eventually("an artUrl") { app.metadata["mpris:artUrl"] != nil }
        let art = try XCTUnwrap(URL(string: app.metadata["mpris:artUrl"]?.stringValue ?? ""))
        let data = try Data(contentsOf: art)
        XCTAssertEqual(Array(data.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG of the frame")
        // No artist tag: the folder it is in stands for one (media controls say "Unknown artist" otherwise).
        XCTAssertEqual(app.metadata["xesam:artist"]?.strings, [Paths.media.lastPathComponent])
    }

    func testSeekedFollowsEverySeekWhateverStartedIt() throws {
        let app = try start()
        app.bus.clearSignals()
        try app.player("Seek", [.int64(5_000_000)])
        waitForSeeked(app, near: app.position, tolerance: 0.5)
        try app.player("SetPosition", [.objectPath(app.metadata["mpris:trackid"]?.stringValue ?? ""), .int64(12_000_000)])
        waitForSeeked(app, near: 12)
        app.activate("skip-forward")  // what the skip button does
        waitForSeeked(app, near: 22, tolerance: 0.6)
        app.key("Left")
        waitForSeeked(app, near: 12, tolerance: 0.8)
        app.activate("seek", "3.0")  // what the slider does on release
        waitForSeeked(app, near: 3)
    }

    func testNoSeekedOnTrackChangeOrStart() throws {
        let app = try start()
        app.bus.clearSignals()
        try app.player("Next")
        app.waitForPlaying("clip-vp9")
        try app.player("Pause")
        try app.player("Play")
        app.bus.pump(for: 1.5)  // an observation window: no Seeked may come over it
        XCTAssertEqual(seekedPositions(app), [])
    }

    func testSteadyPlaybackSendsNoPropertiesChanged() throws {
        let app = try start()
        waitForTheLastChangeOfAStart(app, "tone-30s")
        app.bus.clearSignals()
        app.bus.pump(for: 5)  // an observation window: nothing may change over it
        let changes = app.bus.signals.filter { $0.member == "PropertiesChanged" }
        XCTAssertEqual(changes.count, 0, "nothing changes while a file plays: \(changes.map(\.arguments))")
        XCTAssertGreaterThan(app.position, 5)
    }

    func testChangesCarryValuesOnlyWhatChangedAndNeverPosition() throws {
        let app = try start()
        app.bus.clearSignals()
        try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        try app.player("Next")
        app.waitForPlaying("clip-vp9")
        waitForTheLastChangeOfAStart(app, "clip-vp9")
        let changes = app.bus.signals.filter { $0.member == "PropertiesChanged" }
        XCTAssertFalse(changes.isEmpty)
        for change in changes {
            XCTAssertEqual(change.arguments.map(\.signature), ["s", "a{sv}", "as"])
            XCTAssertEqual(change.arguments.last?.strings, [], "no invalidated properties")
            let changed = change.arguments[1].dictionary
            XCTAssertNil(changed["Position"], "Position is never pushed")
            XCTAssertFalse(changed.isEmpty)
        }
        let metadataChanges = changes.compactMap { $0.arguments[1].dictionary["Metadata"]?.dictionary }
        XCTAssertTrue(metadataChanges.contains { $0["mpris:length"] != nil && $0["xesam:title"]?.stringValue == "clip-vp9" },
                      "the length is added once known")
        XCTAssertLessThanOrEqual(metadataChanges.count, 4, "Metadata is sent once per change: \(metadataChanges)")
        let statuses = changes.compactMap { $0.arguments[1].dictionary["PlaybackStatus"]?.stringValue }
        XCTAssertEqual(statuses.first, "Paused")
        XCTAssertEqual(statuses.last, "Playing")
    }

    func testSeekAndSetPositionSemantics() throws {
        let app = try start(["tone-30s.webm"])
        let track = try XCTUnwrap(app.metadata["mpris:trackid"]?.stringValue)
        app.bus.clearSignals()
        try app.player("Seek", [.int64(-60_000_000)])
        waitForSeeked(app, near: 0, tolerance: 0.05)

        for ignored: [DBusArgument] in [[.objectPath("/org/reelplayer/Reel/Track/999"), .int64(20_000_000)],
                                        [.objectPath(track), .int64(-1)],
                                        [.objectPath(track), .int64(31_000_000)]] {
            try app.player("SetPosition", ignored)
        }
        app.bus.pump(for: 1)  // an observation window: no Seeked may come over it
        XCTAssertEqual(seekedPositions(app), [], "stale track ids and out-of-range positions are ignored")
        XCTAssertLessThan(app.position, 5)

        try app.player("Seek", [.int64(60_000_000)])
        eventually("past the end ends the item") { app.status == "Stopped" }
    }

    func testSeekPastTheEndGoesToTheNextItem() throws {
        let app = try start()
        try app.player("Seek", [.int64(60_000_000)])
        app.waitForPlaying("clip-vp9")
    }

    func testRateVolumeLoopAndShuffle() throws {
        let app = try start()
        // The volume is heard on the sink's monitor, not only read back: MPRIS's is linear
        // (0.4 is −7.96 dB), and 0 is silence.
        let recorder = try SoundRecorder()
        let full = recorder.levelOnceChanged()
        try app.setProperty("Volume", .variantDouble(-1))
        XCTAssertEqual(try app.property("Volume").doubleValue, 0, "a negative volume is 0")
        let silent = recorder.levelOnceChanged()
        try app.setProperty("Volume", .variantDouble(0.4))
        XCTAssertEqual(try app.property("Volume").doubleValue ?? 0, 0.4, accuracy: 0.001)
        let lowered = SoundRecorder.decibels(recorder.levelOnceChanged(), relativeTo: full)
        XCTAssertThrowsError(try app.setProperty("Volume", .variantDouble(.infinity)))
        _ = recorder.stop()
        print(String(format: "MPRIS volume heard: full RMS %.0f, at 0 RMS %.0f, at 0.4 %+.2f dB", full, silent, lowered))
        XCTAssertGreaterThan(full, 1000, "the tone is heard")
        XCTAssertLessThan(silent, 30, "volume 0: silence")
        XCTAssertEqual(lowered, 20 * log10(0.4), accuracy: 0.5, "volume 0.4: the sound is 7.96 dB quieter")

        try app.setProperty("Rate", .variantDouble(1.5))
        eventually("rate 1.5") { (try? app.property("Rate"))?.doubleValue == 1.5 }
        try app.player("Pause")
        try app.player("Play")
        XCTAssertEqual(try app.property("Rate").doubleValue, 1.5, "the rate survives pause and play")
        XCTAssertThrowsError(try app.setProperty("Rate", .variantDouble(10)))
        XCTAssertThrowsError(try app.setProperty("Rate", .variantDouble(.nan)))
        XCTAssertThrowsError(try app.setProperty("Rate", .variantString("fast")))
        XCTAssertEqual(try app.property("Rate").doubleValue, 1.5, "refused values change nothing")
        try app.setProperty("Rate", .variantDouble(0))
        eventually("rate 0 pauses") { app.status == "Paused" }
        XCTAssertEqual(try app.property("Rate").doubleValue, 1.5)

        for status in ["Track", "Playlist", "None"] {
            try app.setProperty("LoopStatus", .variantString(status))
            XCTAssertEqual(try app.property("LoopStatus").stringValue, status)
        }
        XCTAssertThrowsError(try app.setProperty("LoopStatus", .variantString("Sometimes")))
        try app.setProperty("Shuffle", .variantBool(true))
        XCTAssertEqual(try app.property("Shuffle").boolValue, true)
        XCTAssertThrowsError(try app.setProperty("Shuffle", .variantInt32(1)), "wrong types are refused")
        XCTAssertEqual(try app.property("CanControl").boolValue, true)
    }

    func testNonsenseCallsGetErrorsAndThePlayerKeepsWorking() throws {
        let app = try start()
        XCTAssertThrowsError(try app.player("OpenUri", [.string("smb://server/film.mkv")]))
        XCTAssertThrowsError(try app.player("OpenUri", [.string("not a uri")]))
        XCTAssertThrowsError(try app.player("Seek", [.string("ten")]))
        XCTAssertThrowsError(try app.player("SetPosition", [.int64(5)]))
        XCTAssertThrowsError(try app.player("Explode"))
        XCTAssertThrowsError(try app.setProperty("PlaybackStatus", .variantString("Playing")))
        for _ in 0..<300 { _ = try? app.player("PlayPause") }
        eventually("still answering") { app.status == "Playing" || app.status == "Paused" }
        XCTAssertEqual(app.title, "tone-30s")
    }

    func testRaiseBringsBackAMinimizedWindow() throws {
        let app = try start()
        app.minimize()
        _ = try app.bus.call(ReelApp.busName, ReelApp.mprisPath, Self.root, "Raise")
        switch Desktop.current {
        case .x11:
            eventually("raised") { !app.isMinimized }
        case .gnome:
            // GNOME's focus-stealing rules: a raise the user did not start (no input event, no
            // activation token from the shell) does not unminimize; the window asks for
            // attention ("Reel is ready"). From the shell's media controls it does (GnomeShellTests).
            eventually("raised, or asking for attention") {
                !app.isMinimized || GnomeShellDriver.shared.eval("global.get_window_actors().map(a => a.meta_window)" +
                    ".find(w => w.get_stable_sequence() === \(app.windowID)).demands_attention") as? Bool == true
            }
        }
    }

    func testTrackList() throws {
        let app = try start()
        let tracks = try app.property("Tracks", interface: Self.trackList)
        XCTAssertEqual(tracks.unwrapped.signature, "ao")
        let ids = try XCTUnwrap(tracks.strings)
        XCTAssertEqual(ids.count, 2)
        let metadata = try app.bus.call(ReelApp.busName, ReelApp.mprisPath, Self.trackList, "GetTracksMetadata", [.objectPaths(ids)])
        XCTAssertEqual(metadata.first?.signature, "aa{sv}")
        app.bus.clearSignals()
        _ = try app.bus.call(ReelApp.busName, ReelApp.mprisPath, Self.trackList, "AddTrack",
                             [.string(Paths.mediaURI("short-1.webm")), .objectPath(ids[0]), .bool(false)])
        let added = app.bus.waitForSignal { $0.member == "TrackAdded" }
        XCTAssertEqual(added?.arguments.last, .objectPath(ids[0]))
        let afterAdd = try XCTUnwrap(app.property("Tracks", interface: Self.trackList).strings)
        XCTAssertEqual(afterAdd.count, 3)
        XCTAssertEqual(afterAdd[0], ids[0])
        XCTAssertEqual(afterAdd[2], ids[1])
        _ = try app.bus.call(ReelApp.busName, ReelApp.mprisPath, Self.trackList, "GoTo", [.objectPath(afterAdd[1])])
        app.waitForPlaying("short-1")
        _ = try app.bus.call(ReelApp.busName, ReelApp.mprisPath, Self.trackList, "RemoveTrack", [.objectPath(ids[0])])
        XCTAssertNotNil(app.bus.waitForSignal { $0.member == "TrackRemoved" })
        XCTAssertThrowsError(try app.bus.call(ReelApp.busName, ReelApp.mprisPath, Self.trackList, "GoTo",
                                              [.objectPath("/org/reelplayer/Reel/Track/404")]))
    }

    func testPlayerctlDrivesAWholeSession() throws {
        let app = try start()
        func ctl(_ arguments: String...) -> String {
            shell("playerctl", ["-p", "Reel"] + arguments).output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertEqual(ctl("status"), "Playing")
        _ = ctl("pause")
        eventually("paused") { ctl("status") == "Paused" }
        _ = ctl("play")
        eventually("playing") { ctl("status") == "Playing" }
        _ = ctl("play-pause")
        eventually("play-pause pauses") { ctl("status") == "Paused" }
        _ = ctl("play-pause")
        _ = ctl("position", "10")
        eventually("at 10 s") { abs((Double(ctl("position")) ?? 0) - 10) < 1 }
        _ = ctl("position", "5+")
        eventually("at 15 s") { abs((Double(ctl("position")) ?? 0) - 15) < 1 }
        _ = ctl("position", "5-")
        eventually("at 10 s again") { abs((Double(ctl("position")) ?? 0) - 10) < 1.2 }
        XCTAssertEqual(ctl("metadata", "title"), "tone-30s")
        _ = ctl("volume", "0.3")
        XCTAssertEqual(Double(ctl("volume")) ?? 0, 0.3, accuracy: 0.01)
        _ = ctl("loop", "Playlist")
        XCTAssertEqual(ctl("loop"), "Playlist")
        _ = ctl("shuffle", "On")
        XCTAssertEqual(ctl("shuffle"), "On")
        _ = ctl("shuffle", "Off")

        // --follow prints the position again after a seek.
        let follow = Process()
        follow.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        follow.arguments = ["playerctl", "-p", "Reel", "--follow", "position"]
        let pipe = Pipe()
        follow.standardOutput = pipe
        let followed = SharedText()
        pipe.fileHandleForReading.readabilityHandler = { followed.append($0.availableData) }
        try follow.run()
        defer { pipe.fileHandleForReading.readabilityHandler = nil; follow.terminate() }
        eventually("playerctl following") { !followed.value.isEmpty }
        _ = ctl("position", "20")
        eventually("the position after the seek followed") {
            followed.value.split(whereSeparator: \.isNewline).contains { (Double($0) ?? 0) >= 19.5 && (Double($0) ?? 0) < 21 }
        }

        _ = ctl("next")
        eventually("next item") { ctl("metadata", "title") == "clip-vp9" }
        _ = ctl("previous")
        eventually("previous item") { ctl("metadata", "title") == "tone-30s" }
        try app.setProperty("Rate", .variantDouble(1.25))
        _ = ctl("stop")
        eventually("stopped") { ctl("status") == "Stopped" }
        _ = ctl("play")
        eventually("playing again") { ctl("status") == "Playing" }
        XCTAssertEqual(try app.property("Rate").doubleValue, 1.25)
        _ = shell("playerctl", ["-p", "Reel", "quit"])  // playerctl ≥ 2.4 has no quit; MPRIS Quit does it
        _ = try? app.bus.call(ReelApp.busName, ReelApp.mprisPath, Self.root, "Quit")
        eventually("quit") { !app.process.isRunning }
    }

    func testASecondPlayerGetsAnInstanceName() throws {
        // Someone else holds the well-known name, as another Reel would.
        let other = try DBusClient()
        let reply = try other.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                                   [.string(ReelApp.busName), .uint32(4)])
        XCTAssertEqual(reply.first, .uint32(1), "the test took the name")
        let process = Process()
        process.executableURL = Paths.reel
        process.arguments = [Paths.media("clip-vp9.webm")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        let instance = "\(ReelApp.busName).instance\(process.processIdentifier)"
        eventually("org.mpris.MediaPlayer2.Reel.instance<pid>") {
            let owned = try other.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                                       [.string(instance)])
            return owned.first?.boolValue == true
        }
        _ = try other.call(instance, ReelApp.mprisPath, Self.root, "Quit")
        eventually("quit") { !process.isRunning }
    }

    func testFullscreenFollowsTheProperty() throws {
        let app = try start()
        try app.setProperty("Fullscreen", .variantBool(true), interface: Self.root)
        eventually("fullscreen") { app.isFullscreen }
        eventually("reported") { (try? app.property("Fullscreen", interface: Self.root))?.boolValue == true }
        try app.setProperty("Fullscreen", .variantBool(false), interface: Self.root)
        eventually("windowed") { !app.isFullscreen }
    }
}
