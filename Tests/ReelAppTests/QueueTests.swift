// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Queues, repeats, gaps, speed and resume on the real app, observed from outside over MPRIS.
final class QueueTests: XCTestCase {
    private var clips: [String] { (1...5).map { Paths.media("short-\($0).webm") } }

    /// A language course: five 2-second sentences, each heard twice at 1.8× with a second's pause
    /// after every hearing: 1,1,2,2,…,5,5 in 10 × 2/1.8 + 9 × 1 ≈ 20.1 s.
    func testTheLanguageLearnersLoop() throws {
        // Listening from before Reel starts, so the very first play is seen too.
        let bus = try DBusClient()
        bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        let app = try ReelApp(["--repeat-each=2", "--gap=1", "--rate=1.8"] + clips)
        var plays: [String] = []
        var currentTrack = ""
        var currentTitle = ""
        var gaps = 0
        var started: Date?
        var ended: Date?
        var handled = 0
        let deadline = Date().addingTimeInterval(60)
        while ended == nil && Date() < deadline {
            bus.pump(for: 0.05)
            for signal in bus.signals.dropFirst(handled) {
                handled += 1
                if signal.member == "Seeked", let micro = signal.arguments.first?.int64Value, micro < 100_000,
                   !currentTrack.isEmpty {
                    plays.append(currentTitle)  // the same item from its start: a repeat
                }
                guard signal.member == "PropertiesChanged", signal.arguments.count > 1 else { continue }
                let changed = signal.arguments[1].dictionary
                if let metadata = changed["Metadata"]?.dictionary, let track = metadata["mpris:trackid"]?.stringValue,
                   track != currentTrack {
                    currentTrack = track
                    currentTitle = metadata["xesam:title"]?.stringValue ?? "?"
                    plays.append(currentTitle)
                }
                if changed["CanPause"]?.boolValue == false { gaps += 1 }
                switch changed["PlaybackStatus"]?.stringValue {
                case "Playing": if started == nil { started = signal.time }
                case "Stopped": if started != nil { ended = signal.time }
                default: break
                }
            }
        }
        XCTAssertEqual(plays, ["short-1", "short-1", "short-2", "short-2", "short-3", "short-3", "short-4", "short-4",
                               "short-5", "short-5"])
        XCTAssertEqual(gaps, 9, "a gap after every play but the last, with the transport disabled")
        let total = try XCTUnwrap(ended).timeIntervalSince(try XCTUnwrap(started))
        let expected = 10 * 2 / 1.8 + 9 * 1.0
        print("language learner's loop: \(String(format: "%.2f", total)) s for an expected \(String(format: "%.2f", expected)) s")
        XCTAssertEqual(total, expected, accuracy: expected * 0.1, "the whole course takes its expected time")
        XCTAssertEqual(try app.property("Rate").doubleValue, 1.8)
    }

    /// F9 shows the panel; a click on a row plays it, its button removes it.
    func testTheQueuePanel() throws {
        let app = try ReelApp(clips.map { $0 } + [Paths.media("tone-30s.webm")])
        app.waitForPlaying("short-1")
        try app.player("Pause")
        func panelShown() -> Bool {
            guard let shot = app.screenshot() else { return false }
            let panel = shot.mean(x0: 0.74, y0: 0.6, x1: 0.98, y1: 0.9)  // below the rows: the panel's background
            return panel.r > 200 && panel.g > 200 && panel.b > 200
        }
        XCTAssertFalse(panelShown(), "hidden at first")
        app.key("F9")
        eventually("the panel shown") { panelShown() }
        XCTAssertNotNil(app.screenshot("queue-panel"))
        // Rows are 38 px apart from y = 187 in the 960×600 window (Adwaita's navigation-sidebar,
        // below the side panel's Queue/Transcript switcher and the queue's search field).
        app.click(x: 0.77, y: 301.0 / 600)
        app.waitForPlaying("short-4")
        let tracks = { (try? app.property("Tracks", interface: "org.mpris.MediaPlayer2.TrackList"))?.strings?.count ?? 0 }
        XCTAssertEqual(tracks(), 6)
        app.click(x: 924.0 / 960, y: 187.0 / 600)  // short-1's remove button
        eventually("short-1 removed") { tracks() == 5 }
        XCTAssertEqual(app.title, "short-4", "removing another item does not interrupt")
        app.key("F9")
        eventually("the panel hidden") { !panelShown() }
    }

    /// A row reads its item's file name until the item's tags are read, then their title, and
    /// keeps it after the item has played.
    func testQueueRowsFollowTheirItemsTags() throws {
        let app = try ReelApp([Paths.media("clip-vp9.webm"), Paths.media("tagged.mkv"), Paths.media("tone-30s.webm")])
        app.waitForPlaying("clip-vp9")
        let rows = { (app.debugProperty("QueueRowTitles")?.strings) ?? [] }
        eventually("the rows by file name") { rows() == ["clip-vp9", "tagged", "tone-30s"] }
        try app.player("Next")
        app.waitForPlaying("Tagged Title")
        eventually("the row follows the tags: \(rows())") { rows() == ["clip-vp9", "Tagged Title", "tone-30s"] }
        try app.player("Next")
        app.waitForPlaying("tone-30s")
        XCTAssertEqual(rows(), ["clip-vp9", "Tagged Title", "tone-30s"], "the title stays once the item has played")
    }

    /// Dragging a row onto another moves it there, as the TrackList then reports.
    func testDraggingARowReordersTheQueue() throws {
        let app = try ReelApp(clips)
        app.waitForPlaying("short-1")
        try app.player("Pause")
        app.key("F9")
        eventually("the panel shown") { (app.screenshot()?.mean(x0: 0.74, y0: 0.6, x1: 0.98, y1: 0.9).r ?? 0) > 200 }
        func titles() -> [String] {
            guard let ids = (try? app.property("Tracks", interface: "org.mpris.MediaPlayer2.TrackList"))?.strings,
                  let reply = try? app.bus.call(ReelApp.busName, ReelApp.mprisPath, "org.mpris.MediaPlayer2.TrackList",
                                                "GetTracksMetadata", [.objectPaths(ids)]),
                  case .array(_, let entries)? = reply.first else { return [] }
            return entries.compactMap { $0.dictionary["xesam:title"]?.stringValue }
        }
        let id = app.windowID
        // short-5's row (y = 339) onto short-2's (y = 225), moving in steps as a hand does.
        app.desktop.pointerMove(id, x: 735, y: 339)
        app.desktop.pointerButton(1, pressed: true)
        for y in stride(from: 329, through: 229, by: -10) {
            app.desktop.pointerMove(id, x: 740, y: y)
        }
        app.desktop.pointerButton(1, pressed: false)
        eventually("short-5 moved before short-2") { titles() == ["short-1", "short-5", "short-2", "short-3", "short-4"] }
        XCTAssertEqual(app.title, "short-1", "moving items does not change what plays")
    }

    func testNonsenseOptionsAreRefusedInWords() {
        for (arguments, mention) in [(["--rate=10"], "--rate"), (["--rate=nan"], "--rate"), (["--gap=-1"], "--gap"),
                                     (["--repeat-each=0"], "--repeat-each"), (["--repeat-each=lots"], "lots")] {
            let result = shell(Paths.reel.path, arguments + [Paths.media("short-1.webm")])
            XCTAssertNotEqual(result.status, 0, "\(arguments) must fail")
            XCTAssertTrue(result.output.contains(mention), "\(arguments): the message names the problem: \(result.output)")
        }
    }

    func testEnqueueAddsToTheRunningInstanceAndAFileOpensThere() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying()
        let enqueue = shell(Paths.reel.path, ["--enqueue", Paths.media("short-2.webm"), Paths.media("short-3.webm")])
        XCTAssertEqual(enqueue.status, 0, enqueue.output)
        eventually("three tracks") { ((try? app.property("Tracks", interface: "org.mpris.MediaPlayer2.TrackList"))?.strings?.count ?? 0) == 3 }
        XCTAssertEqual(app.title, "tone-30s", "enqueueing does not interrupt")
        XCTAssertEqual(app.status, "Playing")

        let open = shell(Paths.reel.path, [Paths.media("short-4.webm")])
        XCTAssertEqual(open.status, 0, open.output)
        app.waitForPlaying("short-4")
        XCTAssertTrue(app.process.isRunning)
    }

    func testAFolderQueuesItsMediaInNaturalOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, source) in [("Lesson 10.webm", "short-3"), ("lesson 2.webm", "short-2"), ("Lesson 1.webm", "short-1")] {
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(name).path,
                                                       withDestinationPath: Paths.media("\(source).webm"))
        }
        try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        // A folder inside: its media follow where its name sorts (after the root's files here).
        let part = folder.appendingPathComponent("Part 2")
        try FileManager.default.createDirectory(at: part, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: part.appendingPathComponent("Lesson 11.webm").path,
                                                   withDestinationPath: Paths.media("short-4.webm"))

        let app = try ReelApp([folder.path])
        app.waitForPlaying("Lesson 1")
        let ids = try XCTUnwrap(app.property("Tracks", interface: "org.mpris.MediaPlayer2.TrackList").strings)
        let metadata = try app.bus.call(ReelApp.busName, ReelApp.mprisPath, "org.mpris.MediaPlayer2.TrackList",
                                        "GetTracksMetadata", [.objectPaths(ids)])
        guard case .array(_, let entries)? = metadata.first else { return XCTFail("no metadata") }
        XCTAssertEqual(entries.compactMap { $0.dictionary["xesam:title"]?.stringValue }, ["Lesson 1", "lesson 2", "Lesson 10", "Lesson 11"])

        // A folder with nothing to play says so and changes nothing.
        XCTAssertEqual(shell(Paths.reel.path, [empty.path]).status, 0)
        eventually("Reel says the folder is empty") { app.output.contains("contains no videos or audio files") }
        XCTAssertEqual(try app.property("Tracks", interface: "org.mpris.MediaPlayer2.TrackList").strings?.count, 4)
        XCTAssertEqual(app.status, "Playing")
    }

    func testSpeedIsKeptAcrossPauseNextAndRestart() throws {
        let config = try BackgroundTests.settingsDirectory([:])
        do {
            let app = try ReelApp(["--rate=1.5"] + clips, environment: config)
            app.waitForPlaying()
            try app.player("Pause")
            eventually("paused") { app.status == "Paused" }
            try app.player("Play")
            try app.player("Next")
            app.waitForPlaying("short-2")
            XCTAssertEqual(try app.property("Rate").doubleValue, 1.5)
            app.key("bracketright")
            eventually("a step faster") { (try? app.property("Rate").doubleValue) == 1.55 }
            app.stop()
        }
        let again = try ReelApp([Paths.media("short-1.webm")], environment: config)
        again.waitForPlaying()
        XCTAssertEqual(try again.property("Rate").doubleValue, 1.55, "the speed is remembered across runs")
    }

    func testALongFileResumesWhereItWasLeftAndCanStartOver() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("reel-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let environment = ["XDG_STATE_HOME": state.path]
        do {
            let app = try ReelApp([Paths.media("long-4min.webm")], environment: environment)
            app.waitForPlaying()
            let track = try XCTUnwrap(app.metadata["mpris:trackid"]?.stringValue)
            try app.player("SetPosition", [.objectPath(track), .int64(100_000_000)])
            eventually("at 100 s") { app.position >= 100 }
            app.stop()  // quitting keeps the position
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: state.appendingPathComponent("reel").path)
        XCTAssertEqual(files.filter { $0 != "crash" }.sorted(), ["positions.json", "queue.json", "recent.json"], "the state files, no leftovers")

        let again = try ReelApp([Paths.media("long-4min.webm")], environment: environment)
        again.waitForPlaying()
        eventually("resumed near 100 s") { again.position >= 99 && again.position < 110 }
        XCTAssertNotNil(again.screenshot("resume-toast"))
        again.activate("start-over")
        eventually("started over") { again.position < 5 }
    }

    /// The queue survives the end of a run, even a kill -9: started again without files, Reel
    /// shows the same queue, paused on the item it was playing. Files named at start replace it.
    func testTheQueueComesBackWhereItWasLeft() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("reel-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let environment = ["XDG_STATE_HOME": state.path]
        let clips = (1...3).map { Paths.media("short-\($0).webm") }
        do {
            let app = try ReelApp(clips, environment: environment)
            app.waitForPlaying("short-1")
            try app.player("Next")
            app.waitForPlaying("short-2")
            // Changes are written a quarter of a second after they come (together with any that
            // follow): killed sooner, the run loses that much, by design.
            let saved = state.appendingPathComponent("reel/queue.json")
            eventually("the queue written with short-2 playing") {
                let json = (try? Data(contentsOf: saved)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
                return json?["current"] as? Int == 1
            }
            kill(app.process.processIdentifier, SIGKILL)
            app.process.waitUntilExit()
        }
        let tracks = { (app: ReelApp) in
            (try? app.property("Tracks", interface: "org.mpris.MediaPlayer2.TrackList"))?.strings?.count ?? -1
        }
        do {
            let app = try ReelApp([], environment: environment)
            eventually("the queue back, paused on short-2") { app.status == "Paused" && app.title == "short-2" }
            XCTAssertEqual(tracks(app), 3)
            _ = app.screenshot("queue-restored")
            try app.player("Play")
            app.waitForPlaying("short-2")
            app.stop()
        }
        do {
            let app = try ReelApp([Paths.media("short-4.webm")], environment: environment)
            app.waitForPlaying("short-4")
            XCTAssertEqual(tracks(app), 1, "files named at start replace the saved queue")
            app.stop()
        }
        // A damaged file is set aside with a warning; Reel starts empty and works.
        let saved = state.appendingPathComponent("reel/queue.json")
        try Data("{\"uris\": [\"file:///trunc".utf8).write(to: saved)
        let app = try ReelApp([], environment: environment)
        eventually("the warning") { app.output.contains("could not be read and was set aside") }
        XCTAssertEqual(tracks(app), 0)
        try app.player("OpenUri", [.string(Paths.mediaURI("short-1.webm"))])
        app.waitForPlaying("short-1")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: saved.deletingLastPathComponent().path)
        XCTAssertEqual(leftovers.filter { $0.hasPrefix("queue.json.corrupt-") }.count, 1, "\(leftovers)")
    }

    /// Shuffle changes what plays: after the item playing when it was turned on, the rest play
    /// in another order than the queue's, each once, and then playback stops (loop off). The
    /// order is read twice: from MPRIS's Metadata and from what is heard (blip n is a half
    /// second of 300 + 40·n Hz). The queue's own order is one of 3.6 million shuffles of ten.
    func testShufflePlaysEveryItemOnceInAnotherOrder() throws {
        let blips = (1...10).map { String(format: "blip-%02d", $0) }
        let app = try ReelApp([Paths.media("tone-30s.webm")] + blips.map { Paths.media("\($0).webm") })
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        app.waitForPlaying("tone-30s")
        try app.setProperty("Shuffle", .variantBool(true))
        XCTAssertEqual(try app.property("Shuffle").boolValue, true)
        let recorder = try SoundRecorder()
        app.bus.clearSignals()
        try app.player("Next")
        // Each title as MPRIS announced it (Metadata is sent again when the length is known).
        func played() -> [String] {
            let titles = app.bus.signals.filter { $0.member == "PropertiesChanged" }
                .compactMap { $0.arguments[1].dictionary["Metadata"]?.dictionary["xesam:title"]?.stringValue }
            return titles.enumerated().filter { $0.offset == 0 || titles[$0.offset - 1] != $0.element }.map(\.element)
        }
        // Stopped with every blip announced is the last one's end (an item about to load is "Playing").
        eventually("the ten blips played, then playback stopped", timeout: 30) {
            app.status == "Stopped" && Set(played()).isSuperset(of: blips)
        }
        recorder.waitUntilRecorded(seconds: recorder.duration + 0.3)  // the sound device's buffer (200 ms) and a margin
        let heard = Self.blipsHeard(recorder.stop()).map { blips.indices.contains($0 - 1) ? blips[$0 - 1] : "blip \($0)" }
        let order = played()
        print("shuffled: played \(order), heard \(heard)")
        XCTAssertEqual(order.sorted(), blips, "each item played once")
        XCTAssertNotEqual(order, blips, "in another order than the queue's")
        XCTAssertEqual(heard, order, "what was heard is what MPRIS announced")
    }

    /// The blips heard, in order, by number: 200 ms windows every 50 ms, each at one blip's
    /// pitch (within 8 Hz) or none; a run of five windows or more at one pitch is one play (a
    /// blip fills six or seven; a short gap, a dropout, does not end a run). A window with a
    /// gap in it counts as none: its zero crossings read a pitch between those of the sound
    /// round it. Windows across two blips make runs of three at most (recordings checked).
    private static func blipsHeard(_ samples: [Int16]) -> [Int] {
        let window = SoundRecorder.sampleRate / 5, step = SoundRecorder.sampleRate / 20
        let labels: [Int?] = stride(from: 0, to: samples.count - window, by: step).map { start in
            let part = samples[start..<(start + window)]
            let quarters = stride(from: start, to: start + window, by: window / 4).map { samples[$0..<($0 + window / 4)] }
            guard quarters.allSatisfy({ SoundRecorder.rms($0) > 500 }) else { return nil }
            let frequency = RateChangeTests.frequency(part)
            let n = Int(((frequency - 300) / 40).rounded())
            return (1...10).contains(n) && abs(frequency - Double(300 + 40 * n)) < 8 ? n : nil
        }
        var heard: [Int] = [], run: (label: Int, length: Int, gap: Int)?
        for label in labels + [Int?](repeating: nil, count: 5) {
            if let label, label == run?.label { run?.length += 1; run?.gap = 0; continue }
            if label == nil, let gap = run?.gap, gap < 4 { run?.gap += 1; continue }
            if let run, run.length >= 5 { heard.append(run.label) }
            run = label.map { ($0, 1, 0) }
        }
        return heard
    }
}
