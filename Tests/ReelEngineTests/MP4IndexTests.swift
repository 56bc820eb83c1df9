// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
@testable import ReelEngine
import XCTest

/// The check for an MP4 cut off before its index, on files made of bare boxes.
final class MP4IndexTests: XCTestCase {
    private func box(_ type: String, size: UInt32? = nil, body: Int = 8) -> Data {
        var data = Data()
        withUnsafeBytes(of: (size ?? UInt32(8 + body)).bigEndian) { data.append(contentsOf: $0) }
        data.append(contentsOf: Array(type.utf8))
        data.append(Data(count: body))
        return data
    }

    private func isMissing(_ parts: Data...) throws -> Bool {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reel-mp4index-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        try parts.reduce(Data(), +).write(to: url)
        return MP4Index.isMissing(path: url.path)
    }

    func testAnIndexAnywhereIsFound() throws {
        XCTAssertFalse(try isMissing(box("ftyp"), box("moov"), box("mdat", body: 100)))
        XCTAssertFalse(try isMissing(box("ftyp"), box("free"), box("mdat", body: 100), box("moov")))
    }

    func testAFileCutBeforeItsIndexHasNone() throws {
        XCTAssertTrue(try isMissing(box("ftyp"), box("mdat", body: 100)), "the boxes end without one")
        XCTAssertTrue(try isMissing(box("ftyp"), box("mdat", size: 5000, body: 100)), "the data runs past the end")
        XCTAssertTrue(try isMissing(box("ftyp"), box("mdat", size: 0, body: 100)), "the data runs to the end")
        // A 64-bit size (1, then the size after the type) past the end.
        var large = box("mdat", size: 1, body: 0)
        withUnsafeBytes(of: UInt64(1 << 33).bigEndian) { large.append(contentsOf: $0) }
        XCTAssertTrue(try isMissing(box("ftyp"), large))
    }

    func testOtherFilesAreLeftToGStreamer() throws {
        XCTAssertFalse(try isMissing(box("mdat", body: 100)), "not ISO-BMFF: no ftyp first")
        XCTAssertFalse(try isMissing(Data("WEBVTT\n\n00:00.000 --> 00:01.000\nhi\n".utf8)))
        XCTAssertFalse(try isMissing(box("ftyp"), box("mdat", size: 3)), "a size shorter than a header: not boxes")
        XCTAssertFalse(MP4Index.isMissing(path: "/dev/null"), "not a regular file")
        XCTAssertFalse(MP4Index.isMissing(path: "/does/not/exist.mp4"))
    }
}
