// SPDX-License-Identifier: GPL-3.0-or-later
@testable import ReelCore
import XCTest

final class SubtitleTimelineTests: XCTestCase {
    func testTheLinesDueAtAPositionOverlappingOnesTogether() {
        var timeline = SubtitleTimeline()
        timeline.add(SubtitleLine(text: "one", start: 1, end: 3))
        timeline.add(SubtitleLine(text: "two", isMarkup: true, start: 2, end: 4))
        XCTAssertNil(timeline.line(at: 0.5))
        XCTAssertEqual(timeline.line(at: 1.5), SubtitleLine(text: "one", start: 1, end: 3))
        XCTAssertEqual(timeline.line(at: 2.5), SubtitleLine(text: "one\ntwo", isMarkup: false, start: 1, end: 4))
        XCTAssertEqual(timeline.line(at: 3.5)?.text, "two")
        XCTAssertNil(timeline.line(at: 4))
        XCTAssertEqual(timeline.line(at: 0.96)?.text, "one", "a line shows 50 ms early rather than late")
    }

    func testAnUntimedLineShowsUntilTheNextComes() {
        var timeline = SubtitleTimeline()
        timeline.add(SubtitleLine(text: "first"))
        XCTAssertEqual(timeline.line(at: 100)?.text, "first")
        timeline.add(SubtitleLine(text: "second"))
        XCTAssertEqual(timeline.line(at: 100)?.text, "second")
        timeline.removeAll()
        XCTAssertNil(timeline.line(at: 100))
    }

    /// A seek into a line delivers it again, its start cut to where playback starts: shown once.
    func testALineCutShortBySeekingIntoItIsTheSameLine() {
        var timeline = SubtitleTimeline()
        timeline.add(SubtitleLine(text: "long line", start: 20, end: 40))
        timeline.add(SubtitleLine(text: "long line", start: 25, end: 40))
        XCTAssertEqual(timeline.line(at: 26)?.text, "long line")
        timeline.add(SubtitleLine(text: "long line", start: 40, end: 42))
        XCTAssertEqual(timeline.line(at: 41)?.text, "long line", "the same words later are another line")
    }

    func testLinesComingAgainAfterASeekAreKeptOnceAndTheOldestGoFirst() {
        var timeline = SubtitleTimeline()
        let line = SubtitleLine(text: "again", start: 5, end: 6)
        timeline.add(line)
        timeline.add(line)
        XCTAssertEqual(timeline.line(at: 5.5), line)
        for index in 0..<SubtitleTimeline.linesKept {
            timeline.add(SubtitleLine(text: "\(index)", start: Seconds(10 + index), end: Seconds(11 + index)))
        }
        XCTAssertNil(timeline.line(at: 5.5), "the oldest line made room")
        XCTAssertEqual(timeline.line(at: 10.5)?.text, "0")
    }
}
