// SPDX-License-Identifier: GPL-3.0-or-later
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

    /// The plugins nearly every item needs (playbin and Reel's own sinks, the usual containers,
    /// gst-libav's decoders), loaded ahead of the first item.
    static let commonPlugins = [
        "coreelements", "typefindfunctions", "playback", "app", "videoconvertscale", "videofilter",
        "deinterlace", "audioconvert", "audioresample", "audiofx", "volume", "pulseaudio",
        "isomp4", "matroska", "audioparsers", "videoparsersbad", "libav",
    ]

    /// Starts GStreamer on a thread of its own at launch, while GTK starts on the main thread;
    /// `initialize()` then waits for it. Costs a process that turns out not to play (another
    /// Reel is running) only that thread's work.
    public static func startInBackground() {
        var names = commonPlugins.map { strdup($0) } + [nil]
        defer { names.forEach { free($0) } }
        names.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                reel_gst_start_in_background($0)
            }
        }
    }

    public static var nanosecondsPerSecond: Double { Double(reel_gst_second()) }

    static func seconds(_ clockTime: UInt64) -> Double? {
        clockTime == UInt64(reel_gst_clock_time_none()) ? nil : Double(clockTime) / nanosecondsPerSecond
    }

    static func clockTime(_ seconds: Double) -> GstClockTime {
        GstClockTime(max(0, seconds) * nanosecondsPerSecond)
    }
}
