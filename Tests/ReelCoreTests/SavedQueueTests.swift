// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelCore
import ReelModelTestSupport
import XCTest

@MainActor
final class SavedQueueTests: XCTestCase {
    private var directory: String!

    override func setUp() async throws {
        directory = NSTemporaryDirectory() + "reel-queue-\(UUID().uuidString)"
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private var file: StateFile { StateFile(path: directory + "/reel/queue.json") }
    private let clips = ["file:///clips/a.webm", "file:///clips/b.webm", "file:///clips/c.webm"]

    func testTheQueueAndItsCurrentItemComeBackNextRun() async {
        let engine = ScriptedEngine()
        let model = PlayerModel(engine: engine, scheduler: ManualScheduler())
        let saved = SavedQueue(file: file)
        model.observe { change in if change == .queue || change == .item { saved.save(model.queue) } }
        model.open(clips)
        model.next()
        saved.waitUntilWritten()

        let loaded = expectation(description: "the saved queue is read")
        var nextRun: SavedQueue.Contents?
        SavedQueue(file: file).whenLoaded { contents in
            nextRun = contents
            loaded.fulfill()
        }
        await fulfillment(of: [loaded], timeout: 10)
        XCTAssertEqual(nextRun, SavedQueue.Contents(uris: clips, current: 1))
        let engine2 = ScriptedEngine()
        let again = PlayerModel(engine: engine2, scheduler: ManualScheduler())
        again.restore(nextRun!.uris, current: nextRun!.current)
        XCTAssertEqual(again.queue.items.map(\.uri), clips)
        XCTAssertEqual(again.currentItem?.uri, clips[1])
        XCTAssertEqual(engine2.commands, [.load(clips[1]), .rate(1), .pause], "loaded, never played by itself")
        engine2.send(.duration(60), .state(.paused))
        XCTAssertEqual(again.status, .paused)
        again.play()
        XCTAssertEqual(engine2.commands.last, .play)
    }

    func testARestoredItemThatFailsMovesOnWithoutPlaying() async {
        let engine = ScriptedEngine()
        let scheduler = ManualScheduler()
        let model = PlayerModel(engine: engine, scheduler: scheduler)
        model.restore(clips, current: 0)
        engine.send(.error(PlaybackError(kind: .notFound, message: "gone")))
        engine.clear()
        scheduler.advance(by: PlayerModel.errorDwell)
        XCTAssertEqual(model.currentItem?.uri, clips[1], "the queue moves on")
        XCTAssertEqual(engine.commands, [.load(clips[1]), .rate(1), .pause], "but Reel does not start playing by itself")
    }

    func testRestoringNeverReplacesWhatIsAlreadyQueued() async {
        let engine = ScriptedEngine()
        let model = PlayerModel(engine: engine, scheduler: ManualScheduler())
        model.open(["file:///clips/opened.webm"])
        model.restore(clips, current: 0)
        XCTAssertEqual(model.queue.items.map(\.uri), ["file:///clips/opened.webm"])
    }

    func testADamagedFileIsSetAsideAndAnOutOfRangeCurrentItemIgnored() async throws {
        try FileManager.default.createDirectory(atPath: directory + "/reel", withIntermediateDirectories: true)
        try Data("{\"uris\": [\"file:///a".utf8).write(to: URL(fileURLWithPath: file.path))
        let damaged = SavedQueue.read(file)
        XCTAssertNil(damaged.contents)
        XCTAssertTrue(damaged.problem?.contains("set aside") ?? false, damaged.problem ?? "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "moved out of the way")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory + "/reel").filter { $0.contains("corrupt") }.count, 1)

        try Data(#"{"uris": ["file:///a.webm"], "current": 7}"#.utf8).write(to: URL(fileURLWithPath: file.path))
        XCTAssertEqual(SavedQueue.read(file).contents, SavedQueue.Contents(uris: ["file:///a.webm"], current: nil))
    }

    /// A library opened arrives in batches, each a change: they are written together, off the
    /// main thread, and what is on disk is the last of them.
    func testChangesInARowAreWrittenOnceAndTheLastWins() async throws {
        let model = PlayerModel(engine: ScriptedEngine(), scheduler: ManualScheduler())
        let saved = SavedQueue(file: file)
        let uris = (1...20_000).map { "file:///library/clip%20\($0).opus" }
        let started = Date()
        for batch in stride(from: 0, to: uris.count, by: 4096).map({ Array(uris[$0..<min($0 + 4096, uris.count)]) }) {
            model.enqueue(batch)
            saved.save(model.queue)
        }
        let onMainThread = Date().timeIntervalSince(started)
        print("SavedQueueTests: 5 saves of up to 20,000 items took \(Int(onMainThread * 1000)) ms on the main thread")
        saved.waitUntilWritten()
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        XCTAssertEqual(SavedQueue.read(file).contents, SavedQueue.Contents(uris: uris, current: 0))
        saved.save(model.queue)
        saved.waitUntilWritten()
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date, modified,
                       "an unchanged queue is not written again")
    }
}
