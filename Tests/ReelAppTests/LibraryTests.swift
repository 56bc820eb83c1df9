// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// A music library's worth, opened as a user opens it: a tree of folders, and a flat folder of
/// 10,000 files (links to one clip) beside one of 300. What cannot be noise is asserted (the
/// order, the recursion, the memory an item costs, the rows made); the times are logged, and
/// measured against mpv by `meson_helpers/bench --only library`.
final class LibraryTests: XCTestCase {
    private var folders: [URL] = []

    override func tearDown() {
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
        super.tearDown()
    }

    private func makeFolder(_ name: String, files: [String], linkingTo clip: String = Paths.media("mix-2-vorbis-44k-mono.ogg")) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reel-\(name)-\(UUID().uuidString)")
        folders.append(root)
        for file in files {
            let url = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: clip)
        }
        return root
    }

    private func queue(_ app: ReelApp) -> [String] { app.debugProperty("QueueURIs")?.strings ?? [] }

    /// `Music/Artist/Album/NN Track`: albums stay together, "2" before "10", hidden things left
    /// out, a link back up the tree survived, and what comes later fills in behind the first.
    func testANestedLibraryPlaysAlbumByAlbum() throws {
        let tracks = ["Artist B/Album 10/01 Last.ogg", "Artist B/Album 2/10 Ten.ogg", "Artist B/Album 2/2 Two.ogg",
                      "Artist a/Album/01 First.ogg", "Artist a/Album/.hidden.ogg", ".Trash/deleted.ogg", "loose.ogg"]
        let root = try makeFolder("tree", files: tracks)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("Artist B/Album 2/back up").path,
                                                   withDestinationPath: root.path)
        try Data().write(to: root.appendingPathComponent("Artist a/Album/cover.jpg"))
        let app = try ReelApp([root.path])
        app.waitForPlaying("01 First")
        let expected = ["Artist a/Album/01 First.ogg", "Artist B/Album 2/2 Two.ogg", "Artist B/Album 2/10 Ten.ogg",
                        "Artist B/Album 10/01 Last.ogg", "loose.ogg"]
        eventually("the whole tree queued: \(queue(app))") {
            queue(app).map { URL(string: $0)!.path.replacingOccurrences(of: root.path + "/", with: "") } == expected
        }
        eventually("the loop named once") { app.output.components(separatedBy: "leads back to a folder").count == 2 }
        XCTAssertEqual(app.status, "Playing", "a loop in the tree stops nothing")
    }

    /// Open Folder (Ctrl+Shift+O) queues a folder's tree after what plays, as the command line does.
    func testTheOpenFolderDialogQueuesATree() throws {
        let root = try makeFolder("dialog", files: ["Disc 2/01 b.ogg", "Disc 1/02 a.ogg", "Disc 10/01 c.ogg"])
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.waitForPlaying("tone-30s")
        app.chooseInOpenDialog(root.path, title: "Open Folder", keys: "ctrl+shift+o")
        app.waitForPlaying("02 a")
        eventually("the tree queued after the first item: \(queue(app))") {
            queue(app).map { URL(string: $0)!.lastPathComponent } == ["tone-30s.webm", "02%20a.ogg", "01%20b.ogg", "01%20c.ogg"]
                .map { $0.removingPercentEncoding! }
        }
    }

    /// A saved queue of 100,000 is read off the main thread: a file named on the command line
    /// plays as soon as without one; started without files, Reel puts the whole queue back,
    /// paused on the item that was playing.
    func testASavedQueueOfAHundredThousandComesBackWithoutHoldingUpStartUp() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("reel-state-\(UUID().uuidString)")
        folders.append(state)
        var uris = (1...100_000).map { "file:///library/clip%20\($0).ogg" }
        uris[70_000] = Paths.mediaURI("tone-30s.webm")
        let saved = try JSONSerialization.data(withJSONObject: ["uris": uris, "current": 70_000])
        func save() throws {
            try FileManager.default.createDirectory(at: state.appendingPathComponent("reel"), withIntermediateDirectories: true)
            try saved.write(to: state.appendingPathComponent("reel/queue.json"))
        }
        var firstPlays: [TimeInterval] = []
        for withSavedQueue in [false, true] {
            if withSavedQueue { try save() }
            let launched = Date()
            let app = try ReelApp([Paths.media("short-1.webm")], environment: ["XDG_STATE_HOME": state.path])
            app.waitForPlaying("short-1")
            firstPlays.append(Date().timeIntervalSince(launched))
            XCTAssertEqual(queue(app).count, 1, "files named at start replace the saved queue")
            app.stop()
        }
        try save()
        let launched = Date()
        let app = try ReelApp([], environment: ["XDG_STATE_HOME": state.path])
        eventually("the saved queue back, paused on its item", timeout: 20) {
            app.status == "Paused" && app.title == "tone-30s"
        }
        let restored = Date().timeIntervalSince(launched)
        XCTAssertEqual(queue(app).count, 100_000)
        XCTAssertEqual(try app.property("Tracks", interface: "org.mpris.MediaPlayer2.TrackList").strings?.count, 51)
        print("LibraryTests: a file played \(Int(firstPlays[0] * 1000)) ms after launch without a saved queue, "
              + "\(Int(firstPlays[1] * 1000)) ms with one of 100,000; started without files, the 100,000 were back in "
              + "\(Int(restored * 1000)) ms")
    }

    /// The first file of a folder of 10,000 plays about as soon as that of a folder of 300; the
    /// queue fills in behind; an item costs well under 2 KB; the panel makes rows for the screen
    /// alone and its search finds one item among them all; commands answer at once.
    func testTenThousandFilesCostLittleAndStartAtOnce() throws {
        var figures: [(count: Int, firstPlay: TimeInterval, rss: Double, rowsMade: UInt64)] = []
        for count in [300, 10_000] {
            let folder = try makeFolder("flat-\(count)", files: (1...count).map { "clip \($0).ogg" })
            let launched = Date()
            let app = try ReelApp([folder.path])
            app.waitForPlaying("clip 1", timeout: 30)
            let firstPlay = Date().timeIntervalSince(launched)
            eventually("all \(count) queued", timeout: 30) { queue(app).count == count }
            XCTAssertEqual(queue(app).suffix(3).map { URL(string: $0)!.lastPathComponent },
                           ["clip%20\(count - 2).ogg", "clip%20\(count - 1).ogg", "clip%20\(count).ogg"].map { $0.removingPercentEncoding! })
            // The panel shown, as a user keeps it: its rows are made for the screen, not the queue.
            app.key("F9")
            eventually("the panel's rows made") { !(app.debugProperty("QueueRowTitles")?.strings ?? []).isEmpty }
            let rowsMade = app.debugUInt64("QueueRowsMade")
            XCTAssertGreaterThan(rowsMade, 0, "the rows on screen are counted")
            // Memory once the queue is held and saved (the writer's buffers freed), the first clip playing.
            let rss = try waitForSettledMemory(app)
            figures.append((count, firstPlay, rss, rowsMade))

            var latencies: [Double] = []
            for method in ["Next", "Previous", "Next"] {
                let started = Date()
                try app.player(method)
                latencies.append(Date().timeIntervalSince(started) * 1000)
            }
            let tracks = try XCTUnwrap(app.property("Tracks", interface: "org.mpris.MediaPlayer2.TrackList").strings)
            XCTAssertEqual(tracks.count, min(count, 51), "the TrackList is a window round the current item")
            if count == 10_000 {
                app.key("ctrl+f")
                app.desktop.type("clip 9999")
                defer { _ = app.screenshot("library-search") }
                eventually("the search finds one item in 10,000: \(app.debugProperty("QueueRowTitles")?.strings?.prefix(3) ?? [])") {
                    app.debugProperty("QueueRowTitles")?.strings == ["clip 9999"]
                }
                let filterTime = app.debugProperty("QueueFilterMilliseconds")?.doubleValue ?? -1
                print("LibraryTests: the queue's search went through 10,000 items in \(String(format: "%.1f", filterTime)) ms")
            }
            print("LibraryTests: \(count) files: playing \(Int(firstPlay * 1000)) ms after launch; resident "
                  + "\(String(format: "%.1f", rss)) MB; Next/Previous/Next answered in "
                  + latencies.map { String(format: "%.1f", $0) }.joined(separator: "/") + " ms; \(rowsMade) rows made")
            app.stop()
        }
        let perItem = (figures[1].rss - figures[0].rss) * 1024 * 1024 / Double(figures[1].count - figures[0].count)
        print("LibraryTests: \(Int(perItem)) bytes of resident memory an item; first play at 10,000 is "
              + "\(String(format: "%+.0f", (figures[1].firstPlay - figures[0].firstPlay) * 1000)) ms from that at 300")
        XCTAssertLessThan(perItem, 2048, "an item queued costs under 2 KB")
        // GTK 4.8's list view keeps up to 200 rows round what is on screen, however long the list.
        XCTAssertLessThanOrEqual(figures[1].rowsMade, figures[0].rowsMade + 10, "as many rows for 10,000 items as for 300")
    }

    /// Reel's resident memory (MB) once two readings 0.5 s apart agree within 1 MB.
    private func waitForSettledMemory(_ app: ReelApp) throws -> Double {
        var last = -100.0, settled: Double?
        eventually("the memory settled", timeout: 20, interval: 0.5) {
            let now = residentMB(app.process.processIdentifier)
            defer { last = now }
            if abs(now - last) < 1 { settled = now }
            return settled != nil
        }
        return try XCTUnwrap(settled)
    }

    private func residentMB(_ pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = Double(line.split(separator: " ", omittingEmptySubsequences: true)[1]) else { return 0 }
        return kb / 1024
    }
}
