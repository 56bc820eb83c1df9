// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelCore
import ReelModelTestSupport
import XCTest

/// A library's worth queued: finding an item, shuffling and moving through 100,000.
@MainActor
final class LargeQueueTests: XCTestCase {
    private let library = (1...100_000).map { MediaFolder.fileURI("/home/me/Music/Artist \($0 / 100)/Album/\($0 % 100) Sóng \($0).flac") }

    func testTheFilterFindsByFileNameOrTitleWhateverTheCaseOrEscaping() async {
        var queue = PlaybackQueue()
        let items = queue.append(["file:///m/Caf%C3%A9%20Del%20Mar.mp3", "https://radio.example/live/Stream.ogg", "file:///m/other.mp3",
                                  "file:///m/Caf%C3%A9s/plain.mp3"])
        let titles = [items[2].id: "Tagged Title"]
        func found(_ query: String) -> [Int] {
            guard let filter = QueueFilter(query) else { return [] }
            return items.indices.filter { filter.matches(items[$0], title: titles[items[$0].id]) }
        }
        XCTAssertEqual(found("café del"), [0], "spaces and accents as the name shows them, not as the URI escapes them")
        XCTAssertEqual(found("STREAM"), [1])
        XCTAssertEqual(found("tagged"), [2], "a title from the tags")
        XCTAssertEqual(found("cafés"), [], "the folder is not the name")
        XCTAssertEqual(found(".mp3"), [0, 2, 3])
        XCTAssertNil(QueueFilter("   "), "blanks filter nothing")
    }

    func testFilteringAHundredThousandItems() async {
        var queue = PlaybackQueue()
        queue.append(library)
        let filter = QueueFilter("sóng 99999")!
        let started = Date()
        let found = queue.items.filter { filter.matches($0, title: nil) }
        let elapsed = Date().timeIntervalSince(started)
        print("LargeQueueTests: the filter went through 100,000 items in \(Int(elapsed * 1000)) ms")
        XCTAssertEqual(found.map(\.uri), [library[99_998]])
    }

    func testShuffleDealsBatchesAddedLaterIntoTheRoundAndPlaysEachOnce() async {
        var queue = PlaybackQueue()
        queue.shuffle = true
        queue.append(Array(library[0..<10]))
        _ = queue.moveTo(index: queue.nextIndex!)
        for start in stride(from: 10, to: 2_000, by: 400) { queue.append(Array(library[start..<min(start + 400, 2_000)])) }
        var played = Set([queue.current!.id])
        while let next = queue.nextIndex {
            let item = queue.moveTo(index: next)!
            XCTAssertTrue(played.insert(item.id).inserted, "\(item.uri) came twice in one round")
        }
        XCTAssertEqual(played.count, 2_000, "every item of every batch comes once")
    }

    /// Files opened with shuffle on all play, from the first one on, whatever was playing.
    func testFilesOpenedWhileShufflingAllPlay() async {
        for alreadyPlaying in [false, true] {
            let model = PlayerModel(engine: ScriptedEngine(), scheduler: ManualScheduler())
            model.setShuffle(true)
            if alreadyPlaying { model.open(["file:///m/long.webm"]) }
            let opened = Array(library.prefix(10))
            model.open(opened)
            var played = [model.currentItem?.uri]
            while model.queue.nextIndex != nil {
                model.next()
                played.append(model.currentItem?.uri)
            }
            XCTAssertEqual(played.first, opened.first, "the first file opened plays first")
            XCTAssertEqual(Set(played.compactMap { $0 }).intersection(opened).count, 10,
                           "each of the 10 opened plays (already playing: \(alreadyPlaying)): \(played)")
            XCTAssertEqual(played.count, 10, "and none twice")
        }
    }

    /// Next, Previous and a jump land where they should at 100,000 as at 10; the times are
    /// logged (the bench measures them from outside, against mpv).
    func testCommandsAtAHundredThousandLandWhereTheyShould() async {
        func run(_ count: Int) -> TimeInterval {
            let model = PlayerModel(engine: ScriptedEngine(), scheduler: ManualScheduler())
            model.open(Array(library.prefix(count)))
            let middle = model.queue.items[count / 2]
            let started = Date()
            for _ in 0..<20 {
                model.next()
                XCTAssertEqual(model.currentItem?.uri, library[1])
                model.previous()
                XCTAssertEqual(model.currentItem?.uri, library[0])
                model.playItem(id: middle.id)
                XCTAssertEqual(model.currentItem, middle)
                model.playItem(id: model.queue.items[0].id)
            }
            return Date().timeIntervalSince(started) / 80
        }
        let small = run(10), large = run(100_000)
        print("LargeQueueTests: a command took \(String(format: "%.3f", small * 1000)) ms with 10 queued, "
              + "\(String(format: "%.3f", large * 1000)) ms with 100,000 (this build)")
    }
}
