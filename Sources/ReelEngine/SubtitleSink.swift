// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGStreamer
import CShims
import Foundation
import ReelCore
import ReelGLib

/// playbin's text sink: subtitle lines come here with the media time they cover instead of
/// being burnt into the frames, and the model shows each while the position is inside it; the
/// window draws it over the video as text. So turning subtitles off touches nothing in the
/// pipeline (changing playbin's text flag while playing was seen to stall it for good), and
/// lines stay sharp at any window size.
///
/// The sink is asked not to sync to the clock (a synced sink blocks its thread while paused,
/// and with a sparse subtitle stream that held up the demuxer and deadlocked the preroll after
/// a seek), but playbin turns sync on for any custom text sink; what prevents the deadlock is
/// async=false. Lines then come as their time comes, which turning subtitles off and on
/// relies on (lines dropped while off are not sent again).
final class SubtitleSink: Sendable {
    let element: ObjectRef<UnsafeMutablePointer<GstElement>>

    /// `deliver` is called on the streaming thread with each line as it arrives (ahead of time).
    init(deliver: @escaping @Sendable (SubtitleLine) -> Void) {
        let sink = reel_text_sink_new("reel-text-sink")!
        element = ObjectRef(retaining: sink)
        let caps = reel_caps_from_string("text/x-raw,format=(string){pango-markup,utf8}")
        reel_object_set_pointer(sink, "caps", gpointer(caps))
        gst_caps_unref(caps)
        reel_object_set_bool(sink, "sync", 0)
        // Subtitles are sparse: waiting for a line before prerolling would hold up the video.
        reel_object_set_bool(sink, "async", 0)
        reel_object_set_bool(sink, "enable-last-sample", 0)
        reel_app_sink_set_sample_callback(gcast(sink), { sample, data in
            defer { gst_sample_unref(sample) }
            if let line = SubtitleSink.line(from: sample!) { ValueBox<@Sendable (SubtitleLine) -> Void>.value(data)(line) }
        }, ValueBox(deliver).retained(), CallbackBox.release)
    }

    /// The line's text (markup or plain, as the caps say) and the media time it covers.
    static func line(from sample: OpaquePointer) -> SubtitleLine? {
        guard let buffer = gst_sample_get_buffer(sample) else { return nil }
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, reel_gst_map_read()) != 0 else { return nil }
        let text = String(decoding: UnsafeBufferPointer(start: map.data, count: Int(map.size)), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        gst_buffer_unmap(buffer, &map)
        var isMarkup = false
        if let caps = gst_sample_get_caps(sample), gst_caps_get_size(caps) > 0,
           let format = gst_structure_get_string(gst_caps_get_structure(caps, 0), "format") {
            isMarkup = String(cString: format) == "pango-markup"
        }
        var start: Seconds?, end: Seconds?
        if let segment = gst_sample_get_segment(sample) {
            let pts = buffer.pointee.pts, duration = buffer.pointee.duration
            start = GStreamer.seconds(UInt64(gst_segment_to_stream_time(segment, GST_FORMAT_TIME, pts)))
            if GStreamer.seconds(UInt64(duration)) != nil {
                end = GStreamer.seconds(UInt64(gst_segment_to_stream_time(segment, GST_FORMAT_TIME, pts + duration)))
            }
        }
        return SubtitleLine(text: text, isMarkup: isMarkup, start: start, end: end)
    }
}
