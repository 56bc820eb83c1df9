// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import ReelCore
import ReelGLib
import ReelModelTestSupport
import ReelMPRIS
import XCTest

/// The MPRIS server over a scripted model, on a bus of the test's own: what a desktop's media
/// controls read and what their commands do, without starting Reel.
@MainActor
final class MPRISServerTests: XCTestCase {
    private final class Host: MPRISHost {
        var raised = 0, quits = 0
        var isFullscreen = false
        func raise() { raised += 1 }
        func quit() { quits += 1 }
        func setFullscreen(_ fullscreen: Bool) { isFullscreen = fullscreen }
        func currentFramePNG() -> [UInt8]? { nil }
    }

    private var bus: PrivateBus!
    private var engine: ScriptedEngine!
    private var model: PlayerModel!
    private var host: Host!
    private var server: MPRISServer!
    private var client: MPRISClient!
    private var artwork: URL!

    override func setUp() async throws {
        bus = try PrivateBus()
        engine = ScriptedEngine()
        model = PlayerModel(engine: engine, scheduler: ManualScheduler())
        host = Host()
        artwork = FileManager.default.temporaryDirectory.appendingPathComponent("reel-mpris-tests-\(getpid())")
        server = try MPRISServer(connection: bus.connect(), model: model, host: host, desktopEntry: "org.reelplayer.Reel",
                                 mimeTypes: ["video/webm"], artwork: ArtworkCache(directory: artwork))
        eventually("the server owns its name") { server.ownedName == MPRISServer.busName }
        client = MPRISClient(connection: try bus.connect())
    }

    override func tearDown() async throws {
        client?.close()
        server = nil
        bus?.stop()
        if let artwork { try? FileManager.default.removeItem(at: artwork) }
    }

    /// Two items queued, the first playing 60 s of a file tagged "A Song".
    private func playTwoItems() {
        model.open(["file:///music/first.ogg", "file:///music/second.ogg"])
        engine.send(.duration(60), .mediaInfo(MediaInfo(title: "A Song", hasAudio: true)), .state(.paused), .state(.playing))
    }

    func testPropertiesFollowTheModel() async {
        XCTAssertEqual(client.get("PlaybackStatus"), "'Stopped'")
        XCTAssertEqual(client.get("Metadata"), "@a{sv} {}", "no metadata before anything plays")
        playTwoItems()
        XCTAssertEqual(client.get("PlaybackStatus"), "'Playing'")
        let metadata = client.get("Metadata")
        for expected in ["'xesam:title': <'A Song'>", "'mpris:length': <int64 60000000>",
                         "'xesam:url': <'file:///music/first.ogg'>", "'mpris:trackid': <objectpath '/org/reelplayer/Reel/Track/"] {
            XCTAssertTrue(metadata.contains(expected), "\(expected) in \(metadata)")
        }
        XCTAssertEqual(client.get("CanGoNext"), "true")
        XCTAssertEqual(client.get("CanSeek"), "true")
        XCTAssertEqual(client.get("Identity", interface: "org.mpris.MediaPlayer2"), "'Reel'")
        XCTAssertEqual(client.get("SupportedMimeTypes", interface: "org.mpris.MediaPlayer2"), "['video/webm']")
    }

    func testCommandsReachTheModelAndSeeksAreReported() async {
        playTwoItems()
        engine.clear()
        _ = client.call(MPRISClient.player, "PlayPause")
        XCTAssertEqual(engine.commands, [.pause])
        engine.send(.position(10))
        _ = client.call(MPRISClient.player, "Seek", "(int64 5000000,)")
        XCTAssertEqual(engine.commands.last, .seek(15, accurate: true))
        client.clearSignals()
        engine.send(.seekDone(15))
        eventually("Seeked") { client.signals.contains("org.mpris.MediaPlayer2.Player.Seeked (int64 15000000,)") }
        _ = client.call(MPRISClient.player, "Next")
        XCTAssertEqual(engine.commands.last(where: { if case .load = $0 { true } else { false } }), .load("file:///music/second.ogg"))
    }

    func testChangesCarryOnlyWhatChanged() async {
        playTwoItems()
        // A round trip: the signals the server sent before its answer have arrived.
        _ = client.get("PlaybackStatus")
        client.clearSignals()
        model.setRate(1.5)
        eventually("Rate changed") { !client.signals.isEmpty }
        _ = client.get("PlaybackStatus")
        XCTAssertEqual(client.signals, ["org.freedesktop.DBus.Properties.PropertiesChanged "
                                        + "('org.mpris.MediaPlayer2.Player', {'Rate': <1.5>}, @as [])"])
        client.clearSignals()
        engine.send(.position(20))
        XCTAssertEqual(client.get("Position"), "int64 20000000", "Position is read on demand")
        XCTAssertEqual(client.signals, [], "and never pushed")
    }

    func testSettableProperties() async {
        playTwoItems()
        XCTAssertNoThrow(try client.set("Rate", "2.0").get())
        XCTAssertEqual(model.rate, 2)
        XCTAssertNoThrow(try client.set("Volume", "0.5").get())
        XCTAssertEqual(engine.commands.last, .volume(0.5))
        XCTAssertNoThrow(try client.set("LoopStatus", "'Playlist'").get())
        XCTAssertEqual(model.queue.loopMode, .queue)
        XCTAssertNoThrow(try client.set("Fullscreen", "true", interface: "org.mpris.MediaPlayer2").get())
        XCTAssertTrue(host.isFullscreen)
        _ = client.call("org.mpris.MediaPlayer2", "Raise")
        XCTAssertEqual(host.raised, 1)
    }

    func testNonsenseGetsAnErrorInWordsAndChangesNothing() async {
        playTwoItems()
        engine.clear()
        XCTAssertThrowsError(try client.set("LoopStatus", "'Sometimes'").get())
        XCTAssertThrowsError(try client.call(MPRISClient.player, "OpenUri", "('nonsense:whatever',)").get()) { error in
            XCTAssertTrue("\(error)".contains("nonsense:whatever"), "\(error)")
        }
        XCTAssertThrowsError(try client.call(MPRISClient.player, "Dance").get())
        // A stale track id, a negative position and one past the end: ignored, as the spec says.
        let metadata = client.get("Metadata")
        let track = try? XCTUnwrap(metadata.components(separatedBy: "'mpris:trackid': <objectpath '").dropFirst().first?
            .components(separatedBy: "'").first)
        XCTAssertNotNil(track, metadata)
        for arguments in ["(objectpath '/org/reelplayer/Reel/Track/999', int64 1000000)",
                          "(objectpath '\(track ?? "")', int64 -1)", "(objectpath '\(track ?? "")', int64 61000000)"] {
            XCTAssertNoThrow(try client.call(MPRISClient.player, "SetPosition", arguments).get())
        }
        XCTAssertEqual(engine.commands, [], "nothing reached the engine")
        XCTAssertEqual(model.queue.loopMode, .none)
        XCTAssertEqual(client.get("PlaybackStatus"), "'Playing'", "and the server still answers")
    }

    func testTrackListSignals() async {
        playTwoItems()
        client.clearSignals()
        model.enqueue(["file:///music/third.ogg"])
        eventually("TrackAdded") { client.signals.contains { $0.hasPrefix("org.mpris.MediaPlayer2.TrackList.TrackAdded") } }
        let tracks = client.get("Tracks", interface: "org.mpris.MediaPlayer2.TrackList")
        XCTAssertEqual(tracks.components(separatedBy: "/org/reelplayer/Reel/Track/").count - 1, 3, tracks)
    }

    /// A library's worth: clients see the 10 tracks before the current one and the 40 after;
    /// a change outside that window tells them nothing, moving on tells them the new window once.
    func testALongQueueShowsAWindowRoundTheCurrentTrack() async {
        let uris = (1...1000).map { "file:///music/track\($0).ogg" }
        model.open(uris)
        func tracks() -> [Int] {
            client.get("Tracks", interface: "org.mpris.MediaPlayer2.TrackList")
                .components(separatedBy: "/org/reelplayer/Reel/Track/").dropFirst()
                .compactMap { Int($0.prefix { $0.isNumber }) }
        }
        let ids = model.queue.items.map(\.id)
        XCTAssertEqual(tracks(), Array(ids[0..<51]), "from the start: the first 51")
        client.clearSignals()
        model.playItem(id: ids[500])
        eventually("the window moved") { tracks() == Array(ids[490...540]) }
        XCTAssertEqual(client.signals.filter { $0.hasPrefix("org.mpris.MediaPlayer2.TrackList.TrackListReplaced") }.count, 1,
                       "one TrackListReplaced for the move")
        client.clearSignals()
        model.enqueue(["file:///music/beyond.ogg"])
        model.removeItem(id: ids[10])
        model.playItem(id: ids[500])
        _ = client.call("org.freedesktop.DBus.Peer", "Ping")
        XCTAssertFalse(client.signals.contains { $0.hasPrefix("org.mpris.MediaPlayer2.TrackList.") },
                       "changes outside the window are not told: \(client.signals)")
        _ = model.insert(["file:///music/inside.ogg"], after: ids[505])
        eventually("an item added inside the window is told, and the one it pushed out") {
            client.signals.contains { $0.hasPrefix("org.mpris.MediaPlayer2.TrackList.TrackAdded") }
                && client.signals.contains { $0.hasPrefix("org.mpris.MediaPlayer2.TrackList.TrackRemoved") }
        }
        XCTAssertFalse(client.signals.contains { $0.hasPrefix("org.mpris.MediaPlayer2.TrackList.TrackListReplaced") })
        let metadata = client.call("org.mpris.MediaPlayer2.TrackList", "GetTracksMetadata",
                                    "([objectpath '/org/reelplayer/Reel/Track/\(ids[999])'],)")
        XCTAssertTrue((try? metadata.get())?.contains("track1000.ogg") ?? false, "any track's metadata, in the window or not")
    }
}
