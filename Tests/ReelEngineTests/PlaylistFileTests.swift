// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelCore
@testable import ReelEngine
import ReelTestSupport
import XCTest

/// Playlist files as people have them, read and written through totem-pl-parser.
final class PlaylistFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-playlists-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("songs"), withIntermediateDirectories: true)
        for name in ["blip-01.webm", "blip-02.webm", "blip-03.webm"] {
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("songs/\(name)").path,
                                                       withDestinationPath: Paths.media(name))
        }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.absoluteString
    }

    private func song(_ n: Int) -> String { folder.appendingPathComponent("songs/blip-0\(n).webm").absoluteString }

    func testTheUsualFormatsGiveTheirEntriesAndTitles() throws {
        let playlists = [
            try write("list.m3u", "#EXTM3U\n#EXTINF:1,First Song\nsongs/blip-01.webm\n#EXTINF:1,Second Song\nsongs/blip-02.webm\n"),
            try write("list.pls", "[playlist]\nFile1=songs/blip-01.webm\nTitle1=First Song\nFile2=songs/blip-02.webm\nTitle2=Second Song\nNumberOfEntries=2\nVersion=2\n"),
            try write("list.xspf", """
                <?xml version="1.0" encoding="UTF-8"?>
                <playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList>
                <track><location>songs/blip-01.webm</location><title>First Song</title></track>
                <track><location>songs/blip-02.webm</location><title>Second Song</title></track>
                </trackList></playlist>
                """),
            try write("list.asx", """
                <asx version="3.0"><entry><title>First Song</title><ref href="songs/blip-01.webm"/></entry>
                <entry><title>Second Song</title><ref href="songs/blip-02.webm"/></entry></asx>
                """),
        ]
        for playlist in playlists {
            XCTAssertTrue(PlaylistFile.isPlaylist(playlist))
            let contents = try XCTUnwrap(PlaylistFile.contents(of: playlist), playlist)
            XCTAssertEqual(contents.entries, [.init(uri: song(1), title: "First Song"), .init(uri: song(2), title: "Second Song")], playlist)
            XCTAssertEqual(contents.missing, [])
        }
    }

    func testURLsStayNestedPlaylistsOpenMissingFilesAreNamed() throws {
        _ = try write("inner.m3u", "songs/blip-03.webm\nouter.m3u8\n")  // and back: read once
        let outer = try write("outer.m3u8", "songs/blip-01.webm\nhttp://radio.example.org:8000/stream\ninner.m3u\nsongs/gone.webm\n")
        let contents = try XCTUnwrap(PlaylistFile.contents(of: outer))
        XCTAssertEqual(contents.entries.map(\.uri), [song(1), "http://radio.example.org:8000/stream", song(3)])
        XCTAssertEqual(contents.missing, ["gone.webm"])
    }

    func testNothingPlayableAndNoPlaylistAtAll() throws {
        let empty = try XCTUnwrap(PlaylistFile.contents(of: try write("empty.m3u", "#EXTM3U\n")))
        XCTAssertEqual(empty.entries, [])
        let gone = try XCTUnwrap(PlaylistFile.contents(of: try write("gone.pls", "[playlist]\nFile1=nothing.webm\nNumberOfEntries=1\n")))
        XCTAssertEqual(gone.missing, ["nothing.webm"])
        // An HLS playlist lists a stream's segments: GStreamer plays it, it is no list of items.
        let hls = try write("stream.m3u8", "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nsegment0.ts\n#EXT-X-ENDLIST\n")
        XCTAssertNil(PlaylistFile.contents(of: hls))
        XCTAssertFalse(PlaylistFile.isPlaylist(Paths.mediaURI("blip-01.webm")))
        XCTAssertTrue(PlaylistFile.isPlaylist("http://example.org/listen.pls?sid=1"))
        XCTAssertFalse(PlaylistFile.isPlaylist("http://example.org/m3u/stream"))
    }

    /// Saved and opened again, the queue comes back the same: relative paths under the
    /// playlist's folder, URLs and titles kept, in both formats.
    func testAQueueSavedComesBackTheSame() throws {
        let entries: [PlaylistContents.Entry] = [.init(uri: song(1), title: "First Song"), .init(uri: song(2)),
                                                 .init(uri: "https://example.org/radio", title: "A Station"), .init(uri: song(3))]
        for (format, name) in [(PlaylistFile.Format.m3u8, "saved.m3u8"), (.xspf, "saved.xspf")] {
            let path = folder.appendingPathComponent(name).path
            try PlaylistFile.write(entries, to: path, format: format, title: "Queue")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            XCTAssertTrue(text.contains("songs/blip-01.webm"), text)
            XCTAssertFalse(text.contains(folder.path), "relative paths: \(text)")
            let back = try XCTUnwrap(PlaylistFile.contents(of: URL(fileURLWithPath: path).absoluteString))
            XCTAssertEqual(back.entries.map(\.uri), entries.map(\.uri), name)
            XCTAssertEqual(back.entries.map(\.title), entries.map(\.title), name)
        }
        XCTAssertThrowsError(try PlaylistFile.write(entries, to: "/nonexistent/folder/q.m3u8", format: .m3u8, title: "Queue"))
    }
}
