// SPDX-License-Identifier: GPL-3.0-or-later
import CGStreamer
import CGstAudio
import CShims
import XCTest

/// The guard on the sound server's clock (pulse_clock_guard.c), on a GstAudioClock whose
/// readings the test scripts: libpulse 16 once in a while reads centuries ahead and stays there.
final class ClockGuardTests: XCTestCase {
    /// What the scripted clock reads next, in nanoseconds.
    private final class Reading { var value: GstClockTime = 0 }

    private static let second: GstClockTime = 1_000_000_000

    func testAnAbsurdJumpIsRefusedUntilTheNextStream() throws {
        gst_init(nil, nil)
        let reading = Reading()
        let read: GstAudioClockGetTimeFunc = { _, data in
            Unmanaged<Reading>.fromOpaque(data!).takeUnretainedValue().value
        }
        let clock = try XCTUnwrap(gst_audio_clock_new("scripted", read, Unmanaged.passUnretained(reading).toOpaque(), nil))
        defer { gst_object_unref(gpointer(clock)) }
        reel_audio_clock_guard(clock, nil)
        let time = { Double(gst_clock_get_time(clock)) / Double(Self.second) }

        reading.value = Self.second
        XCTAssertEqual(time(), 1, accuracy: 0.001)
        reading.value = Self.second + Self.second / 50
        XCTAssertEqual(time(), 1.02, accuracy: 0.001, "a sane reading is followed as it is")

        // libpulse's jump: 500 years ahead, where it then stays.
        reading.value = 500 * 365 * 24 * 3600 * Self.second
        let refused = time()
        XCTAssertLessThan(refused, 1.5, "the jump is refused")
        XCTAssertGreaterThanOrEqual(refused, 1.02)
        let before = Date()
        Thread.sleep(forTimeInterval: 0.2)  // the wall-clock time the clock has to account for
        let elapsed = Date().timeIntervalSince(before)
        let atReset = time()
        XCTAssertEqual(atReset - refused, elapsed, accuracy: 0.05, "meanwhile the clock runs at the wall clock's pace")

        // A new stream (the sink resets its clock for it): its time starts from zero again, and
        // the clock follows it once more.
        gst_audio_clock_reset(UnsafeMutablePointer<GstAudioClock>(OpaquePointer(clock)), 0)
        reading.value = Self.second / 10
        XCTAssertEqual(time() - atReset, 0.1, accuracy: 0.01)
        reading.value = Self.second / 2
        XCTAssertEqual(time() - atReset, 0.5, accuracy: 0.01, "the new stream's time is followed")
    }
}
