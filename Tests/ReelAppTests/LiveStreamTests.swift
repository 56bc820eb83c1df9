// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Internet radio as stations send it: Debian's Icecast 2 on a loopback port, fed by GStreamer's
/// shout2send (Fixtures/radio-station.py), opened from the station's PLS as directories give them.
final class LiveStreamTests: XCTestCase {
    func testARadioStationPlaysLiveAndComesBackWhenItsServerDoes() throws {
        let station = try Fixture("radio-station.py", ["Reel Radio"], waitForFirstLine: true)
        station.send("title Nina - First Song")
        let pls = FileManager.default.temporaryDirectory.appendingPathComponent("reel-station-\(UUID().uuidString).pls")
        try "[playlist]\nFile1=\(station.firstLine)\nTitle1=Reel Radio from its playlist\nNumberOfEntries=1\nVersion=2\n"
            .write(to: pls, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: pls) }
        let recorder = try SoundRecorder()
        let app = try ReelApp([pls.path])
        app.waitForPlaying("Nina - First Song", timeout: 20)

        // The station's own name (icy-name) is the album and the window's subtitle.
        XCTAssertEqual(app.metadata["xesam:album"]?.stringValue, "Reel Radio")
        XCTAssertEqual(app.metadata["xesam:artist"]?.strings, ["Reel Radio"], "not the server's address")
        XCTAssertEqual(app.debugProperty("HeaderSubtitle")?.stringValue, "Reel Radio")
        XCTAssertNil(app.metadata["mpris:length"], "no length")
        // Among the recent items under the station's name, not the song's.
        let recent = app.stateDirectory.appendingPathComponent("reel/recent.json")
        eventually("in the recent items") { (try? String(contentsOf: recent, encoding: .utf8))?.contains("\"Reel Radio\"") == true }
        try checkShownAsLive(app, "live-stream")
        // Sound flows.
        XCTAssertGreaterThan(recorder.levelOnceChanged(over: 0.5), 300, "the tone reaches the output")

        // A new song: its title within moments of the station announcing it.
        let announced = Date()
        station.send("title Nina - Second Song")
        app.waitForPlaying("Nina - Second Song", timeout: 10)
        // The title changes with the song's sound: the stream's buffer (about 5 s here) is between.
        print(String(format: "live stream: the new title after %.1f s", Date().timeIntervalSince(announced)))
        if Desktop.current == .gnome {
            // As GNOME Shell's own media controls read it: the song, and the station as its artist.
            let gnome = GnomeShellDriver.shared
            gnome.setDateMenuOpen(true)
            eventually("the shell's media controls show the song and the station") {
                let player = gnome.mediaPlayers().first { $0["busName"] as? String == ReelApp.busName }
                return player?["title"] as? String == "Nina - Second Song" && player?["artists"] as? [String] == ["Reel Radio"]
            }
            gnome.screenshotOfScreen("gnome-media-controls-radio")
            gnome.setDateMenuOpen(false)
        }

        // Paused and played again, it is back at the live edge: connected anew, from 0.
        _ = try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        let pausedAt = app.position
        _ = try app.player("Play")
        eventually("playing from the live edge") { app.status == "Playing" && app.position < pausedAt + 0.5 && app.position > 0.1 }

        // The server goes away: Reel says so and reconnects by itself once it is back.
        station.send("stop")
        eventually("Reel says it is reconnecting") {
            app.debugProperty("BufferingText")?.stringValue == "The stream was cut off. Connecting again…"
        }
        station.send("start")
        // Connected anew: its time starts again from 0 (the pauses between attempts grow to 8 s here).
        eventually("playing again", timeout: 40) { app.status == "Playing" && app.position > 0.5 && app.title == "Nina - Second Song" }
        XCTAssertTrue(app.output.contains("recovering by connecting again"), "the log says what happened")
        let recovered = recorder.duration
        eventually("the tone again after the reconnection") {
            recorder.duration > recovered + 0.5 && SoundRecorder.rms(recorder.samples(from: recorder.duration - 0.5)) > 300
        }
        print(String(format: "live stream: position %.1f s, level %.0f", app.position, SoundRecorder.rms(recorder.samples(from: recovered))))
    }

    /// A live HLS stream (segments made as they are heard, the playlist never finished) plays
    /// as live: sound, a Live badge and no slider, no seeking, 1× only, and back at the live
    /// edge after a pause.
    func testHLSLivePlaysLive() throws {
        let live = try Fixture("hls-server.py", ["--live"], waitForFirstLine: true)
        let recorder = try SoundRecorder()
        let app = try ReelApp([live.firstLine])
        app.waitForPlaying("stream", timeout: 20)
        eventually("known as live: no seeking") { (try? app.property("CanSeek").boolValue) == false }
        XCTAssertNil(app.metadata["mpris:length"], "no length")
        try checkShownAsLive(app, "live-hls")
        eventually("it plays on past the segments listed at first", timeout: 15) { app.position > 6.5 }
        XCTAssertGreaterThan(recorder.levelOnceChanged(over: 0.5), 300, "the tone reaches the output")

        _ = try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        let pausedAt = app.position
        _ = try app.player("Play")
        eventually("playing from the live edge, connected anew") { app.status == "Playing" && app.position < pausedAt }
    }

    /// No seeking and no speed but 1×, over MPRIS and in the window: a Live badge, no slider.
    private func checkShownAsLive(_ app: ReelApp, _ screenshot: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try app.property("CanSeek").boolValue, false, file: file, line: line)
        try app.setProperty("Rate", .variantDouble(1.5))
        XCTAssertEqual(try app.property("Rate").doubleValue, 1, file: file, line: line)
        XCTAssertEqual(try app.property("MaximumRate").doubleValue, 1, file: file, line: line)
        app.revealControls()
        let shown = Set(app.controlBounds.keys)
        XCTAssertTrue(shown.isDisjoint(with: ["slider", "skip-backward", "skip-forward", "rate", "total"]), "shown: \(shown.sorted())",
                      file: file, line: line)
        XCTAssertTrue(shown.contains("elapsed"), "the Live badge", file: file, line: line)
        _ = app.screenshot(screenshot)
    }

    /// HTTP Live Streaming from a loopback server, segments made by hlssink2: its .m3u8 is a
    /// stream, not a playlist of items, and a finished one is a file like any other (its
    /// length, seeking).
    func testHLSOnDemandPlaysAndSeeks() throws {
        let onDemand = try Fixture("hls-server.py", [], waitForFirstLine: true)
        let app = try ReelApp([onDemand.firstLine])
        app.waitForPlaying("stream", timeout: 20)
        eventually("its length: \(app.metadata["mpris:length"]?.int64Value ?? 0)") {
            abs(Double(app.metadata["mpris:length"]?.int64Value ?? 0) / 1e6 - 12) < 0.5
        }
        XCTAssertEqual(try app.property("CanSeek").boolValue, true)
        try app.player("SetPosition", [.objectPath(app.metadata["mpris:trackid"]?.stringValue ?? ""), .int64(8_000_000)])
        eventually("sought to 8 s") { app.position >= 8 && app.status == "Playing" }

    }
}
