// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Playlists as users bring them: opened on the command line, queued with --enqueue, over
/// MPRIS, with titles, relative paths and missing entries; and the queue saved as one.
final class PlaylistTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-playlist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("songs"), withIntermediateDirectories: true)
        for (name, source) in [("one", "short-1"), ("two", "short-2"), ("three", "short-3"), ("four", "short-4")] {
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("songs/\(name).webm").path,
                                                       withDestinationPath: Paths.media("\(source).webm"))
        }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func write(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func titles(_ app: ReelApp) -> [String] {
        guard let ids = try? app.property("Tracks", interface: "org.mpris.MediaPlayer2.TrackList").strings,
              let metadata = try? app.bus.call(ReelApp.busName, ReelApp.mprisPath, "org.mpris.MediaPlayer2.TrackList",
                                               "GetTracksMetadata", [.objectPaths(ids)]),
              case .array(_, let entries)? = metadata.first else { return [] }
        return entries.compactMap { $0.dictionary["xesam:title"]?.stringValue }
    }

    func testPlaylistsOpenAsTheirEntriesHoweverTheyCome() throws {
        let mix = try write("mix.m3u", "#EXTM3U\n#EXTINF:2,First Song\nsongs/one.webm\n#EXTINF:2,Second Song\nsongs/two.webm\nsongs/gone.webm\n")
        let app = try ReelApp([mix])
        app.waitForPlaying("First Song")
        eventually("the entries queued with their titles: \(titles(app))") { self.titles(app) == ["First Song", "Second Song"] }
        eventually("the missing entry named") { app.output.contains("1 entry of “mix.m3u” is not there and was left out: gone.webm.") }

        // Queued behind what plays, a PLS is one item until it comes to play.
        let pls = try write("radio.pls", "[playlist]\nFile1=songs/three.webm\nTitle1=Third Song\nFile2=songs/four.webm\nNumberOfEntries=2\n")
        XCTAssertEqual(shell(Paths.reel.path, ["--enqueue", pls]).status, 0)
        eventually("queued: \(titles(app))") { self.titles(app).count == 3 }
        XCTAssertEqual(app.title, "First Song", "enqueueing does not interrupt")
        _ = try app.player("Next")
        _ = try app.player("Next")
        app.waitForPlaying("Third Song")
        eventually("its entries in its place: \(titles(app))") { self.titles(app) == ["First Song", "Second Song", "Third Song", "four"] }

        // Over MPRIS, as the desktop opens one.
        let xspf = try write("list.xspf", """
            <?xml version="1.0" encoding="UTF-8"?>
            <playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList>
            <track><location>songs/four.webm</location><title>From XSPF</title></track></trackList></playlist>
            """)
        _ = try app.player("OpenUri", [.string(URL(fileURLWithPath: xspf).absoluteString)])
        app.waitForPlaying("From XSPF")
    }

    func testAPlaylistWithNothingToPlaySaysSo() throws {
        let empty = try write("gone.m3u", "#EXTM3U\nsongs/gone.webm\nsongs/lost.webm\n")
        let app = try ReelApp([empty])
        eventually("the error page: \(app.messageShown)") {
            app.status == "Stopped" && app.messageShown.contains("This playlist has nothing Reel can play")
                && app.messageShown.contains("gone.webm, lost.webm")
        }
        _ = app.screenshot("playlist-nothing-to-play")
    }

    /// Saved with Ctrl+S, the queue is a playlist that opens as the same queue: relative paths,
    /// titles kept.
    func testTheQueueSavedOpensAsTheSameQueue() throws {
        let mix = try write("mix.m3u", "#EXTM3U\n#EXTINF:2,First Song\nsongs/one.webm\nsongs/two.webm\n")
        let app = try ReelApp([mix, folder.appendingPathComponent("songs/three.webm").path])
        app.waitForPlaying("First Song")
        eventually("queued: \(titles(app))") { self.titles(app).count == 3 }
        let queued = titles(app)
        let saved = folder.appendingPathComponent("saved.m3u8").path
        app.chooseInOpenDialog(saved, title: "Save Queue", keys: "ctrl+s")
        eventually("the playlist written") { FileManager.default.fileExists(atPath: saved) }
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        XCTAssertTrue(text.contains("First Song") && text.contains("songs/one.webm"), text)
        XCTAssertFalse(text.contains(folder.path), "paths relative to the playlist: \(text)")
        app.stop()

        let again = try ReelApp([saved])
        again.waitForPlaying("First Song")
        eventually("the same queue: \(titles(again))") { self.titles(again) == queued }
    }
}
