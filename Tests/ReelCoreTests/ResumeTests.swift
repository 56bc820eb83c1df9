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
}
