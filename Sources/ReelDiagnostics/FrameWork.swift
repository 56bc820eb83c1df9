// SPDX-License-Identifier: GPL-3.0-or-later
import CGtk
import ReelGLib

/// How long the window's frames take to lay out and paint (from the frame clock's before-paint
/// to its after-paint), since `reset`: a frame over 16.7 ms is one a 60 Hz screen shows late,
/// e.g. while the queue panel's list scrolls.
@MainActor
final class FrameWork {
    let clock: OpaquePointer
    private(set) var frames: UInt64 = 0
    private(set) var slowFrames: UInt64 = 0
    private(set) var longest: Double = 0
    private var started: gint64?

    init(clock: OpaquePointer) {
        self.clock = clock
        connectMainSignal(UnsafeMutableRawPointer(clock), "before-paint") { [weak self] _ in self?.started = g_get_monotonic_time() }
        connectMainSignal(UnsafeMutableRawPointer(clock), "after-paint") { [weak self] _ in self?.frameEnded() }
    }

    func reset() {
        frames = 0
        slowFrames = 0
        longest = 0
    }

    private func frameEnded() {
        guard let started else { return }
        let milliseconds = Double(g_get_monotonic_time() - started) / 1000
        frames += 1
        if milliseconds > 1000.0 / 60 { slowFrames += 1 }
        longest = max(longest, milliseconds)
    }
}
