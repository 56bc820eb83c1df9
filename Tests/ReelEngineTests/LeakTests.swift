// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest

/// Engines come and go without leaving anything behind: GstPlay's thread (one per player) and
/// the pipeline's streaming threads end with the engine.
@MainActor
final class LeakTests: EngineTestCase {
    private func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    private func threads(named prefix: String) -> Int { threadNames().filter { $0.hasPrefix(prefix) }.count }
    private func threads(containing text: String) -> Int { threadNames().filter { $0.contains(text) }.count }

    /// Every engine's GstPlay thread and pipeline threads (GStreamer names those "element:pad")
    /// end with it. One GstPlay in five used to stay: a streaming thread held the last reference
    /// and deadlocked joining GstPlay's thread (see reel_release_player_in_background).
    func testFreedEnginesLeaveNoThreadsBehind() async throws {
        let players = threads(named: "GstPlay"), streaming = threads(containing: ":")
        for name in ["short-1.webm", "talk.webm", "tone-30s.webm", "clip-h264.mp4", "subtitled.mkv", "short-2.webm"] {
            let harness = PlayerHarness()
            harness.open(name)
            harness.waitForPlaying()
        }
        let ended = waitUntil("every engine's threads ended with it", timeout: 5) {
            threads(named: "GstPlay") <= players && threads(containing: ":") <= streaming
        }
        if !ended { print("threads left: \(threadNames().sorted())") }
    }
}
