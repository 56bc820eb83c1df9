import CGStreamer
import CShims

/// GStreamer's one-time set-up; every entry point (app, tests, tools) calls it first.
public enum GStreamer {
    nonisolated(unsafe) private static var initialized = false

    public static func initialize() {
        guard !initialized else { return }
        initialized = true
        gst_init(nil, nil)
    }

    public static var nanosecondsPerSecond: Double { Double(reel_gst_second()) }

    static func seconds(_ clockTime: UInt64) -> Double? {
        clockTime == UInt64(reel_gst_clock_time_none()) ? nil : Double(clockTime) / nanosecondsPerSecond
    }

    static func clockTime(_ seconds: Double) -> GstClockTime {
        GstClockTime(max(0, seconds) * nanosecondsPerSecond)
    }
}
