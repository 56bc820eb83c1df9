import Foundation
import ReelTestSupport
import XCTest

/// The language learner's tools in the real app: the A-B loop, from the command line and from
/// Shift+L, each jump back a Seeked the desktop's media controls see. (Moving by subtitle line
/// is tested in the model only: in the app, 1 run in 4 moved as if the subtitle file's lines
/// were unknown; see the note.)
final class LearnerTests: XCTestCase {
    /// The Seeked positions received so far (reading what the bus has for us first).
    private func seeked(_ app: ReelApp) -> [Double] {
        app.bus.pump(for: 0.05)
        return app.bus.signals.filter { $0.member == "Seeked" }.compactMap { $0.arguments.first?.int64Value }.map { Double($0) / 1e6 }
    }

    func testTheLoopFromTheCommandLinePlaysTheStretchOverAndOver() throws {
        let app = try ReelApp(["--ab-loop=3-4.5", Paths.media("tone-30s.webm")])
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        app.waitForPlaying()
        eventually("three jumps back to A", timeout: 15) { self.seeked(app).filter { abs($0 - 3) < 0.3 }.count >= 3 }
        // Never past B by more than a position update or two.
        for _ in 0..<20 {
            let position = app.position
            XCTAssertTrue((2.9...4.9).contains(position), "position \(position) outside the stretch")
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertEqual(app.status, "Playing")
    }

    func testShiftLMarksTheStretchThenClearsIt() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        app.bus.addMatch("type='signal',sender='\(ReelApp.busName)',path='\(ReelApp.mprisPath)'")
        app.waitForPlaying()
        eventually("past 1 s") { app.position > 1 }
        app.key("shift+l")
        eventually("the toast says where the loop starts") { app.messageShown.contains("Loop from") }
        let start = app.position
        eventually("a second later") { app.position > start + 1 }
        app.bus.clearSignals()
        app.key("shift+l")
        eventually("a jump back to A", timeout: 5) { self.seeked(app).contains { abs($0 - start) < 0.5 } }
        app.key("shift+l")
        eventually("the toast says it is cleared") { app.messageShown.contains("Loop cleared") }
        let cleared = app.position
        eventually("playback goes on past the old end", timeout: 5) { app.position > cleared + 2.5 }
    }
}
