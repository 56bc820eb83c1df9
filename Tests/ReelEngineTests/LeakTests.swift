import Foundation
import ReelCore
import ReelEngine
import XCTest

/// Engines come and go without leaving anything behind: GstPlay's thread (one per player) and
/// the pipeline's streaming threads end with the engine.
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

    func testFreedEnginesLeaveNoThreadsBehind() async {
        let before = threads(named: "GstPlay")
        for name in ["short-1.webm", "subtitled.mkv", "talk.webm", "tone-30s.webm", "clip-h264.mp4"] {
            let harness = PlayerHarness()
            harness.open(name)
            harness.waitForPlaying()
        }
        // GstPlay's last events, queued on the main loop, hold the player until they are handled.
        waitUntil("every engine's GstPlay thread ended with it", timeout: 5) { threads(named: "GstPlay") == before }
    }
}
