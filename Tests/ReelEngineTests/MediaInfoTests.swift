// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest

@MainActor
final class MediaInfoTests: EngineTestCase {
    func testContainerTagsAndCoverAreRead() async {
        let player = PlayerHarness()
        player.open("tagged.mkv")
        waitUntil("tags and cover") { player.model.media?.title != nil && player.model.media?.coverArt != nil }
        let media = player.model.media!
        XCTAssertEqual(media.title, "Tagged Title")
        XCTAssertEqual(player.model.title, "Tagged Title")
        XCTAssertEqual(media.album, "Test Album")
        XCTAssertEqual(media.artists, ["Artist One", "Artist Two"])
        XCTAssertTrue(media.hasVideo)
        XCTAssertEqual(media.videoFormat, VideoFormat(width: 320, height: 240, frameRate: 30))
        let cover = media.coverArt!
        XCTAssertTrue(cover.mimeType.hasPrefix("image/"))
        XCTAssertGreaterThan(cover.bytes.count, 100)
    }

    func testAudioOnlyFileIsDetectedWithItsCover() async {
        let player = PlayerHarness()
        player.open(TestMediaNames.audioOnly)
        waitUntil("media info") { player.model.media?.coverArt != nil }
        let media = player.model.media!
        XCTAssertTrue(media.isAudioOnly)
        XCTAssertEqual(media.title, "Audio Only Title")
        XCTAssertEqual(media.artists, ["Artist One", "Artist Two"], "an artist tag with two values is two artists")
        XCTAssertEqual(media.album, "Test Album")
        XCTAssertNil(media.videoFormat)
    }

    func testUntaggedFileIsTitledByItsName() async {
        let player = PlayerHarness()
        player.open("clip-vp9.webm")
        player.waitForPlaying()
        XCTAssertEqual(player.model.title, "clip-vp9")
    }
}
