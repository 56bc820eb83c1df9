// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest

/// The language learner's loop on real pipelines: ten half-second clips, each played three
/// times at 1.8×, round after round, for 300 transitions. Every transition must happen, in the
/// exact order, without the watchdog ever having to step in. Latencies are printed, not asserted.
@MainActor
final class QueueSoakTests: EngineTestCase {
    func testThreeHundredTransitionsAtOnePointEight() async {
        let harness = PlayerHarness()
        let model = harness.model
        let clips = (1...10).map { Paths.mediaURI(String(format: "blip-%02d.webm", $0)) }
        let transitionsWanted = Int(ProcessInfo.processInfo.environment["REEL_SOAK_TRANSITIONS"] ?? "") ?? 300
        model.setRate(1.8)
        model.setRepeatEach(3)
        model.setLoopMode(.queue)

        var played: [String] = []
        var endedAt: Date?
        var startedAt: Date?
        var playTimes: [Double] = []
        var latencies: [Double] = []
        var worst: (latency: Double, index: Int) = (0, 0)
        model.observe { [weak model] change in
            guard let model else { return }
            switch change {
            case .played(let item):
                played.append(item.uri)
                if let start = startedAt { playTimes.append(Date().timeIntervalSince(start)) }
                startedAt = nil
                endedAt = Date()
            case .status:
                // The next play (a repeat or the next clip) has begun.
                if model.status == .playing { startedAt = Date() }
                if let end = endedAt, model.status == .playing {
                    let latency = Date().timeIntervalSince(end)
                    latencies.append(latency)
                    if latency > worst.latency { worst = (latency, latencies.count) }
                    endedAt = nil
                }
            case .stallRecovery(let how, let position):
                print("soak: stall at transition \(latencies.count), \(model.currentItem?.uri ?? "-") at \(position) s: \(how)")
            default: break
            }
        }
        model.open(clips)
        let deadline = Double(transitionsWanted) * 1.5 + 30
        waitUntil("\(transitionsWanted) transitions", timeout: deadline) {
            latencies.count >= transitionsWanted || { if case .failed = model.status { return true }; return false }()
        }
        model.stop()

        let expected = (0..<played.count).map { clips[($0 / 3) % clips.count] }
        XCTAssertEqual(played, expected, "each clip three times, in queue order, round after round")
        XCTAssertGreaterThanOrEqual(latencies.count, transitionsWanted)
        XCTAssertEqual(model.stallRecoveries, 0, "playback never stalled")
        XCTAssertLessThan(worst.latency, PlayerModel.stallTimeout, "no transition hung")
        // A play that ends at once (seen when a restart raced GstPlay's own seek after the end)
        // is a skipped repeat, not a transition: each must last a good part of 0.5 s / 1.8.
        XCTAssertGreaterThan(playTimes.min() ?? 0, 0.15, "every play really played")

        let sorted = latencies.sorted()
        if !sorted.isEmpty {
            let ms = { (s: Double) in String(format: "%.0f ms", s * 1000) }
            print("queue soak: \(latencies.count) transitions at 1.8×, latency from the end of one play to the start " +
                  "of the next: median \(ms(sorted[sorted.count / 2])), 90th percentile \(ms(sorted[sorted.count * 9 / 10])), " +
                  "worst \(ms(worst.latency)) (transition \(worst.index))")
        }
    }
}
