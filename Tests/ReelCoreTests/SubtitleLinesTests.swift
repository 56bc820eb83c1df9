// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelCore
import ReelModelTestSupport
import XCTest

/// Subtitle files read whole (SubRip, WebVTT), and moving by line over them.
@MainActor
final class SubtitleLinesTests: XCTestCase {
    func testSubRipAndWebVTTAreRead() async {
        let srt = "1\r\n00:00:01,500 --> 00:00:03,000\r\n<i>Hello</i>\r\nthere\r\n\r\n2\r\n01:00:00,000 --> 01:00:02,250\r\nLater\r\n"
        XCTAssertEqual(SubtitleCues.parse(srt), [
            SubtitleLine(text: "<i>Hello</i>\nthere", isMarkup: true, start: 1.5, end: 3),
            SubtitleLine(text: "Later", isMarkup: true, start: 3600, end: 3602.25),
        ])
        let vtt = "WEBVTT\n\nNOTE a comment\n\nintro\n00:05.000 --> 00:07.000 align:start position:10%\nFirst\n\n00:02.000 --> 00:04.000\nEarlier\n"
        XCTAssertEqual(SubtitleCues.parse(vtt).map(\.text), ["Earlier", "First"], "in time order")
        XCTAssertEqual(SubtitleCues.parse(vtt).first?.start, 2)
    }

    func testNonsenseGivesNoLinesAndNoCrash() async {
        for text in ["", "garbage", "1\n00:00:05,000 --> 00:00:01,000\nbackwards\n", "00:xx:01,000 --> 00:00:02,000\nbad\n",
                     "00:00:01,000 --> \nno end\n", "-00:00:01,000 --> 00:00:02,000\nnegative\n", "00:00:01.000 --> 00:00:02.000\n\n"] {
            XCTAssertEqual(SubtitleCues.parse(text), [], text)
        }
        XCTAssertEqual(SubtitleCues.read(uri: "file:///no/such/film.srt"), [])
        XCTAssertEqual(SubtitleCues.read(uri: "https://example.com/film.srt"), [], "only local files are read")
    }

    func testCtrlLeftAndRightMoveByLine() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-lines-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "1\n00:00:02,000 --> 00:00:04,000\nOne\n\n2\n00:00:04,000 --> 00:00:06,000\nTwo\n\n3\n00:00:10,000 --> 00:00:12,000\nThree\n"
            .write(to: folder.appendingPathComponent("talk.srt"), atomically: true, encoding: .utf8)
        let engine = ScriptedEngine()
        let model = PlayerModel(engine: engine, scheduler: ManualScheduler())
        model.open([folder.appendingPathComponent("talk.webm").absoluteString])
        engine.startPlaying(duration: 60)
        func at(_ position: Seconds) {
            engine.send(.position(position))
            XCTAssertEqual(model.position, position)
        }
        func seekTarget(after move: () -> Void) -> Seconds? {
            engine.clear()
            move()
            guard case .seek(let to, _)? = engine.commands.last else { return nil }
            engine.send(.seekDone(to))
            return to
        }
        at(1)
        XCTAssertEqual(seekTarget(after: model.nextLine), 2, "before the first line: to its start")
        at(4.5)
        XCTAssertEqual(seekTarget(after: model.nextLine), 10)
        at(11.5)
        XCTAssertNil(seekTarget(after: model.nextLine), "nothing after the last line")
        XCTAssertEqual(seekTarget(after: model.previousLine), 10, "more than 1 s into a line: its start")
        XCTAssertEqual(seekTarget(after: model.previousLine), 4, "at its start: the line before")
        at(4.5)
        XCTAssertEqual(seekTarget(after: model.previousLine), 2, "under 1 s into it: the line before")
    }

    func testWithoutAFileTheLinesSeenSoFarAreUsed() async {
        let engine = ScriptedEngine()
        let model = PlayerModel(engine: engine, scheduler: ManualScheduler())
        model.open(["file:///v/film.mkv"])
        engine.startPlaying(duration: 60)
        engine.send(.subtitle(SubtitleLine(text: "A", start: 3, end: 5)), .subtitle(SubtitleLine(text: "B", start: 7, end: 9)))
        engine.send(.position(8.5))
        engine.clear()
        model.previousLine()
        XCTAssertEqual(engine.commands.last, .seek(7, accurate: true))
        engine.send(.seekDone(7))
        model.previousLine()
        XCTAssertEqual(engine.commands.last, .seek(3, accurate: true))
    }

    func testTheDelayMovesWhatIsShownAndWhereLinesStart() async {
        let engine = ScriptedEngine()
        let model = PlayerModel(engine: engine, scheduler: ManualScheduler())
        var changes: [PlayerModel.Change] = []
        model.observe { changes.append($0) }
        model.open(["file:///v/film.mkv"])
        engine.startPlaying(duration: 60)
        engine.send(.subtitle(SubtitleLine(text: "A", start: 3, end: 5)), .subtitle(SubtitleLine(text: "B", start: 7, end: 9)))
        engine.send(.position(3.2))
        XCTAssertEqual(model.subtitle?.text, "A")
        model.setSubtitleDelay(0.5)
        XCTAssertNil(model.subtitle, "A now starts at 3.5")
        XCTAssertTrue(changes.contains(.subtitleDelay))
        engine.send(.position(5.4))
        XCTAssertEqual(model.subtitle?.text, "A", "and ends at 5.5")
        engine.clear()
        model.nextLine()
        XCTAssertEqual(engine.commands.last, .seek(7.5, accurate: true), "lines start at their delayed times")
        model.setSubtitleDelay(-100)
        XCTAssertEqual(model.subtitleDelay, -60, "clamped")
        model.setSubtitleDelay(.nan)
        XCTAssertEqual(model.subtitleDelay, -60)
        model.setSubtitleDelay(0.1 + 0.2)
        XCTAssertEqual(model.subtitleDelay, 0.3, "kept to the millisecond")
    }
}
