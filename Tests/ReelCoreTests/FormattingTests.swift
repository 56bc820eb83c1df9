// SPDX-License-Identifier: GPL-3.0-or-later
import ReelCore
import XCTest

final class FormattingTests: XCTestCase {
    func testTimeFormat() {
        XCTAssertEqual(TimeFormat.string(nil), "--:--")
        XCTAssertEqual(TimeFormat.string(.nan), "--:--")
        XCTAssertEqual(TimeFormat.string(0), "0:00")
        XCTAssertEqual(TimeFormat.string(7.9), "0:07")
        XCTAssertEqual(TimeFormat.string(754), "12:34")
        XCTAssertEqual(TimeFormat.string(3723), "1:02:03")
        XCTAssertEqual(TimeFormat.remaining(position: 10, duration: 70), "-1:00")
        XCTAssertEqual(TimeFormat.remaining(position: 10, duration: nil), "--:--")
    }

    func testLocationsBecomeURIs() {
        XCTAssertEqual(MediaLocation.uri(for: "clip.mp4", relativeTo: "/home/u"), "file:///home/u/clip.mp4")
        XCTAssertEqual(MediaLocation.uri(for: "/a b/c.mkv", relativeTo: "/x"), "file:///a%20b/c.mkv")
        XCTAssertEqual(MediaLocation.uri(for: "https://example.org/v.webm", relativeTo: "/x"), "https://example.org/v.webm")
        XCTAssertTrue(MediaLocation.isSupported("HTTP://host/v"))
        XCTAssertFalse(MediaLocation.isSupported("smb://host/v"))
        XCTAssertFalse(MediaLocation.isSupported("not a uri"))
        XCTAssertNil(MediaLocation.scheme(of: "1http://x"))
    }

    func testFallbackTitles() {
        XCTAssertEqual(QueueItem(id: 1, uri: "file:///a/b/Lecture%2001.webm").fallbackTitle, "Lecture 01")
        XCTAssertEqual(QueueItem(id: 1, uri: "https://h/stream").fallbackTitle, "stream")
        XCTAssertEqual(QueueItem(id: 1, uri: "file:///a/.hidden").fallbackTitle, ".hidden")
    }

    func testSourcesAreTheFolderOrTheHost() {
        XCTAssertEqual(QueueItem(id: 1, uri: "file:///home/u/Japanese%20Lesson%2003/clip.mp4").source, "Japanese Lesson 03")
        XCTAssertEqual(QueueItem(id: 1, uri: "https://media.example.org/live/stream.m3u8").source, "media.example.org")
        XCTAssertNil(QueueItem(id: 1, uri: "file:///clip.mp4").source)
    }
}
