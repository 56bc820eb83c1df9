// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelCore
import ReelModelTestSupport
import XCTest

@MainActor
final class ResumeTests: XCTestCase {
    private var directory: String!

    override func setUp() async throws {
        directory = NSTemporaryDirectory() + "reel-resume-\(UUID().uuidString)"
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private var file: StateFile { StateFile(path: directory + "/reel/positions.json") }

    private func makeModel() -> (PlayerModel, ScriptedEngine, ResumePositions) {
        let engine = ScriptedEngine()
        let positions = ResumePositions(file: file)
        return (PlayerModel(engine: engine, scheduler: ManualScheduler(), resumePositions: positions), engine, positions)
    }

    func testALongFileOpensWhereItWasLeft() async {
        let (model, engine, _) = makeModel()
        model.open(["file:///films/long.mkv"])
        engine.startPlaying(duration: 600)
        engine.send(.position(123.5))
        model.pause()

        let (again, engine2, _) = makeModel()  // a new run reads the file back
        var resumed: [Seconds] = []
        again.observe { if case .resumed(let at) = $0 { resumed.append(at) } }
        again.open(["file:///films/long.mkv"])
        XCTAssertEqual(engine2.commands, [.load("file:///films/long.mkv"), .seek(123.5, accurate: true), .rate(1), .play])
        XCTAssertEqual(resumed, [123.5])
        XCTAssertEqual(again.position, 123.5)

        engine2.startPlaying(duration: 600)
        engine2.send(.seekDone(123.5))
        again.startOver()
        XCTAssertEqual(engine2.commands.last, .seek(0, accurate: true))
        XCTAssertNil(ResumePositions(file: file).position(for: "file:///films/long.mkv"), "start over forgets")
    }

    func testShortAndFinishedFilesAreNotRemembered() async {
        let (model, engine, positions) = makeModel()
        model.open(["file:///clips/short.webm"])
        engine.startPlaying(duration: 120)
        engine.send(.position(60))
        model.pause()
        XCTAssertNil(positions.position(for: "file:///clips/short.webm"), "3 minutes or less: not worth it")

        model.open(["file:///films/long.mkv"])
        engine.startPlaying(duration: 600)
        engine.send(.position(300))
        model.pause()
        XCTAssertEqual(positions.position(for: "file:///films/long.mkv"), 300)
        model.play()
        engine.send(.endOfStream)
        XCTAssertNil(ResumePositions(file: file).position(for: "file:///films/long.mkv"), "finished files are forgotten")
    }

    func testTheFileKeysByHashAndNotByName() async throws {
        let (model, engine, _) = makeModel()
        model.open(["file:///private/secret-name.mkv"])
        engine.startPlaying(duration: 600)
        engine.send(.position(200))
        model.pause()
        let text = try XCTUnwrap(file.read()).map { Character(UnicodeScalar($0)) }
        XCTAssertFalse(String(text).contains("secret"), "the file does not list what was watched")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func testACorruptFileIsSetAsideAndNeverFatal() async throws {
        try FileManager.default.createDirectory(atPath: directory + "/reel", withIntermediateDirectories: true)
        try Data("{\"abc\": {\"posi".utf8).write(to: URL(fileURLWithPath: file.path))
        let positions = ResumePositions(file: file)
        XCTAssertNotNil(positions.loadProblem)
        XCTAssertNil(positions.position(for: "file:///x"))
        let moved = try FileManager.default.contentsOfDirectory(atPath: directory + "/reel").filter { $0.contains("corrupt") }
        XCTAssertEqual(moved.count, 1, "the damaged file is kept for inspection")
        positions.update(uri: "file:///x", position: 100, duration: 500)
        XCTAssertEqual(ResumePositions(file: file).position(for: "file:///x"), 100, "and a fresh one is written")
    }

    func testWritesReplaceTheFileWhole() async throws {
        let state = file
        try state.write(Data("first".utf8))
        try state.write(Data("second, longer".utf8))
        XCTAssertEqual(state.read().map { String(decoding: $0, as: UTF8.self) }, "second, longer")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory + "/reel").filter { $0.hasSuffix(".tmp") }
        XCTAssertEqual(leftovers, [], "no temporary file is left behind")
    }

    /// A file with two sound and two subtitle tracks, the second of each chosen.
    private func media(audio: Int = 0, subtitle: Int? = 0) -> MediaInfo {
        var info = MediaInfo(hasVideo: true, hasAudio: true)
        info.audioTracks = [MediaTrack(index: 0), MediaTrack(index: 1)]
        info.subtitleTracks = [MediaTrack(index: 0), MediaTrack(index: 1)]
        info.currentAudioTrack = audio
        info.currentSubtitleTrack = subtitle
        return info
    }

    func testAFileOpensAgainAsItWasLeft() async {
        let (model, engine, _) = makeModel()
        model.open(["file:///lessons/one.mkv", "file:///lessons/two.mkv"])
        engine.startPlaying(duration: 60)
        model.setRate(1.8)
        model.setSubtitleDelay(0.3)
        model.setLoopsLines(true)
        model.setABLoop(start: 5, end: 9)
        engine.send(.mediaInfo(media(audio: 1, subtitle: nil)))  // the second sound track, subtitles off
        model.next()
        XCTAssertEqual(model.rate, 1.8, "a file with nothing kept carries the choices over")

        let (again, engine2, _) = makeModel()  // a new run reads the file back
        again.open(["file:///lessons/one.mkv"])
        XCTAssertEqual(again.rate, 1.8)
        XCTAssertEqual(again.subtitleDelay, 0.3)
        XCTAssertTrue(again.loopsLines)
        XCTAssertTrue(engine2.commands.contains(.rate(1.8)), "the item starts at its speed")
        engine2.clear()
        engine2.send(.duration(60), .mediaInfo(media()))
        XCTAssertEqual(again.abLoop, ABLoop(start: 5, end: 9), "its loop again")
        XCTAssertTrue(engine2.commands.contains(.seek(5, accurate: true)), "from the loop's start")
        XCTAssertFalse(engine2.commands.contains(.audioTrack(1)), "no track switched while the seek is under way")
        engine2.send(.seekDone(5))
        XCTAssertTrue(engine2.commands.contains(.audioTrack(1)), "its sound track again")
        XCTAssertTrue(engine2.commands.contains(.subtitleTrack(nil)), "its subtitles off again")
    }

    func testAFileLeftAsItCameIsForgottenAndItsChoicesOutliveItsPosition() async {
        let (model, engine, positions) = makeModel()
        model.open(["file:///films/long.mkv"])
        engine.startPlaying(duration: 600)
        model.setRate(1.25)
        engine.send(.position(300))
        model.pause()
        XCTAssertEqual(positions.choices(for: "file:///films/long.mkv")?.rate, 1.25)
        engine.send(.endOfStream)
        XCTAssertNil(positions.position(for: "file:///films/long.mkv"), "played to its end: no position")
        XCTAssertEqual(ResumePositions(file: file).choices(for: "file:///films/long.mkv")?.rate, 1.25, "but its speed kept")
        model.setRate(1)
        model.saveResumePosition()
        XCTAssertNil(ResumePositions(file: file).choices(for: "file:///films/long.mkv"), "back as it came: nothing kept")
    }

    func testAPositionOnlyEntryIsWhatOlderRunsWroteAndStillReads() async throws {
        let positions = ResumePositions(file: file)
        positions.update(uri: "file:///films/old.mkv", position: 42, duration: 600)
        let text = try String(contentsOfFile: directory + "/reel/positions.json", encoding: .utf8)
        XCTAssertFalse(text.contains("choices"), "the shape older runs wrote: \(text)")
        XCTAssertEqual(ResumePositions(file: file).position(for: "file:///films/old.mkv"), 42)
        XCTAssertNil(ResumePositions(file: file).choices(for: "file:///films/old.mkv"))
    }

    /// Moving on to the next item keeps the position of the one left, under its own name.
    func testTheNextItemNeitherTakesNorLosesAPositionOfTheLast() async {
        let (model, engine, positions) = makeModel()
        model.open(["file:///films/one.mkv", "file:///films/two.mkv"])
        engine.startPlaying(duration: 600)
        engine.send(.position(300))
        model.next()
        XCTAssertEqual(positions.position(for: "file:///films/one.mkv"), 300, "the item left keeps its place")
        XCTAssertNil(positions.position(for: "file:///films/two.mkv"), "the next does not start at it")
    }
}
