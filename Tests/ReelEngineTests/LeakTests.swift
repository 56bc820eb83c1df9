import Foundation
import ReelCore
import ReelEngine
import XCTest

/// Engines come and go without leaving anything behind: GstPlay's thread (one per player) and
/// the pipeline's streaming threads end with the engine. (Media with one sound track only:
/// with several, GStreamer 1.22's own shutdown can deadlock in playbin's input-selector; the
/// engine then lets that teardown hang on a thread of its own — see GstPlayEngine.deinit.)
@MainActor
final class LeakTests: EngineTestCase {
    /// Threads of this process whose name starts with `prefix`.
    private func threads(named prefix: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return name.hasPrefix(prefix)
        }.count
    }

    /// Opt-in (REEL_LEAK_TESTS=1) because it still fails about one run in three: after the fix
    /// for GstPlay's queued bus messages (before it, every engine's GstPlay stayed), one of five
    /// is sometimes still not finalized. Open work (issue 9).
    func testFreedEnginesLeaveNoThreadsBehind() async throws {
        guard ProcessInfo.processInfo.environment["REEL_LEAK_TESTS"] == "1" else {
            throw XCTSkip("opt-in (REEL_LEAK_TESTS=1): fails about one run in three, open work")
        }
        let before = threads(named: "GstPlay")
        for name in ["short-1.webm", "talk.webm", "tone-30s.webm", "clip-h264.mp4", "short-2.webm"] {
            let harness = PlayerHarness()
            harness.open(name)
            harness.waitForPlaying()
        }
        // GstPlay's last events, queued on the main loop, hold the player until they are handled.
        waitUntil("every engine's GstPlay thread ended with it", timeout: 5) { threads(named: "GstPlay") <= before }
    }
}
