// SPDX-License-Identifier: GPL-3.0-or-later
import CGStreamer
import CShims
import ReelGLib

/// The engine's sound output: PulseAudio's sink named as Reel, and the device it plays on.
enum AudioOutput {
    /// PulseAudio moves a stream to another device when the one in use disappears; pulsesink
    /// then reports a new `current-device`. The notification comes on PulseAudio's thread.
    static func watchDevice(_ sink: UnsafeMutablePointer<GstElement>, lost: @escaping @Sendable () -> Void) {
        guard reel_object_has_property(sink, "current-device") != 0 else { return }
        let lastDevice = Locked<String>("")
        connectSignal(UnsafeMutableRawPointer(sink), "notify::current-device") { args in
            guard let element = args.pointer(0),
                  let device = takeString(reel_object_get_string(element, "current-device")), !device.isEmpty else { return }
            let previous = lastDevice.withLock { last in defer { last = device }; return last }
            guard !previous.isEmpty, previous != device else { return }
            lost()
        }
    }

    /// PulseAudio with stream properties, so the desktop's sound settings show "Reel" as a video
    /// player; any other audio sink when PulseAudio is absent.
    static func makeSink(applicationID: String, applicationName: String) -> UnsafeMutablePointer<GstElement>? {
        let fallback = { gst_element_factory_make("autoaudiosink", "reel-audio-sink") }
        // Without a PulseAudio server playbin would fail to play anything, so let autoaudiosink
        // find whatever output there is instead.
        guard reel_pulse_keep_main_loop() != 0, let sink = gst_element_factory_make("pulsesink", "reel-audio-sink") else {
            return fallback()
        }
        reel_pulse_clock_guard(sink)
        reel_pulse_limit_tags(sink)
        let quoted = { (s: String) in "\"" + s.replacingOccurrences(of: "\"", with: "") + "\"" }
        let props = "props,media.role=video,application.name=\(quoted(applicationName))," +
            "application.id=\(quoted(applicationID)),application.icon_name=\(quoted(applicationID))"
        if let structure = reel_structure_from_string(props) {
            reel_object_set_pointer(sink, "stream-properties", gpointer(structure))
            gst_structure_free(structure)
        }
        return sink
    }
}
