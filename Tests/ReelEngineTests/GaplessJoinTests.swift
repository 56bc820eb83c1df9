// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelCore
@testable import ReelEngine
import ReelTestSupport
import XCTest

/// Gapless playback through the real pipeline: an album's tracks join without a load between
/// them (the sound itself is measured in ReelAppTests.GaplessPlaybackTests); a track in another
/// format loads the usual way.
@MainActor
final class GaplessJoinTests: EngineTestCase {
    func testAnAlbumsTracksJoin() async {
        let player = PlayerHarness()
        player.model.open((1...3).map { Paths.mediaURI("live-album/part-\($0).flac") })
        player.waitForPlaying()
        var statuses: [PlaybackStatus] = [], titles: [String] = []
        let observation = player.model.observe { change in
            if change == .status { statuses.append(player.model.status) }
            if change == .media, let title = player.model.media?.title, titles.last != title { titles.append(title) }
        }
        defer { observation.cancel() }
        waitUntil("the last track ended", timeout: 15) { player.model.status == .ended }
        XCTAssertEqual(titles, ["Part 2", "Part 3"], "each track's own tags, read ahead")
        XCTAssertEqual(statuses, [.ended], "playing throughout: no track loaded, nothing in between")
        XCTAssertEqual(player.model.currentItem?.uri, Paths.mediaURI("live-album/part-3.flac"))
        XCTAssertEqual(player.model.duration ?? 0, 3, accuracy: 0.05)
        XCTAssertEqual(player.model.media?.album, "Live Album")
        XCTAssertEqual(player.changes.filter { if case .played = $0 { true } else { false } }.count, 3)
    }

    func testATrackInAnotherFormatLoadsTheUsualWay() async {
        let player = PlayerHarness()
        // 44.1 kHz, then 48 kHz: the sinks would be rebuilt, a break anyway.
        player.model.open([Paths.mediaURI("live-album/part-3.flac"), Paths.mediaURI("sine-1k-12dbfs.flac")])
        player.waitForPlaying()
        var statuses: [PlaybackStatus] = []
        let observation = player.model.observe { if $0 == .status { statuses.append(player.model.status) } }
        defer { observation.cancel() }
        waitUntil("the second item plays", timeout: 10) {
            player.model.currentItem?.uri.hasSuffix("sine-1k-12dbfs.flac") == true && player.model.status == .playing
        }
        XCTAssertTrue(statuses.contains(.loading), "loaded, not joined: \(statuses)")
    }
}
