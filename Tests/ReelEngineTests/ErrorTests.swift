import Foundation
import ReelCore
import ReelEngine
import XCTest

/// Broken input ends in `failed` with words a person understands, and the engine keeps working.
@MainActor
final class ErrorTests: XCTestCase {
    private func failure(opening uri: String, file: StaticString = #filePath, line: UInt = #line) -> PlaybackError? {
        let player = PlayerHarness()
        player.model.open([uri])
        waitUntil("failure", file: file, line: line) {
            if case .failed = player.model.status { return true }
            return false
        }
        guard case .failed(let error) = player.model.status else { return nil }
        // The same engine then plays a good file.
        player.open("clip-vp9.webm")
        player.waitForPlaying(file: file, line: line)
        return error
    }

    func testMissingFile() async {
        let error = failure(opening: TestMedia.uri("does-not-exist.mp4"))
        XCTAssertEqual(error?.kind, .notFound)
        XCTAssertEqual(error?.message, "“does-not-exist.mp4” does not exist.")
    }

    func testEmptyFile() async {
        let error = failure(opening: TestMedia.uri("empty.mp4"))
        XCTAssertEqual(error?.kind, .notMedia)
        XCTAssertEqual(error?.message, "“empty.mp4” is empty.")
    }

    func testRandomBytesAndText() async {
        for name in ["random.mp4", "text.mkv"] {
            let error = failure(opening: TestMedia.uri(name))
            XCTAssertEqual(error?.kind, .notMedia, name)
            XCTAssertEqual(error?.message, "“\(name)” is not a video Reel can read.")
        }
    }

    func testTruncatedFile() async {
        let error = failure(opening: TestMedia.uri("truncated.mp4"))
        XCTAssertNotNil(error)
        XCTAssertTrue(error?.message.contains("truncated.mp4") ?? false, error?.message ?? "")
    }

    func testFolder() async {
        let error = failure(opening: TestMedia.directory.absoluteString)
        XCTAssertEqual(error?.kind, .notMedia)
    }
}

enum TestMediaNames {
    static let audioOnly = "audio-only.ogg"
}
