// SPDX-License-Identifier: GPL-3.0-or-later
import CGStreamer
import CGstApp
import CShims
import ReelEngine
import ReelGLib
import XCTest

/// The frames the sink hands to the main thread: each decoded frame once. A sink going to
/// PLAYING renders the buffer it prerolled with, which is on screen already.
final class FrameHandOverTests: XCTestCase {
    private final class Received: @unchecked Sendable {
        let timestamps = Locked<[GstClockTime]>([])
    }

    func testThePrerolledFrameIsHandedOverOnce() throws {
        GStreamer.initialize()
        let pipeline = try XCTUnwrap(gst_parse_launch(
            "videotestsrc num-buffers=5 ! video/x-raw,width=64,height=48,framerate=30/1 ! appsink name=sink sync=false", nil))
        defer {
            gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(pipeline)
        }
        let sink = try XCTUnwrap(gst_bin_get_by_name(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self), "sink"))
        defer { gst_object_unref(sink) }
        let received = Received()
        reel_app_sink_set_sample_callback(UnsafeMutableRawPointer(sink).assumingMemoryBound(to: GstAppSink.self), { sample, data in
            let received = Unmanaged<Received>.fromOpaque(data!).takeUnretainedValue()
            let buffer = gst_sample_get_buffer(sample)!
            received.timestamps.withLock { $0.append(buffer.pointee.pts) }
            gst_sample_unref(sample)
        }, Unmanaged.passRetained(received).toOpaque(), { data in Unmanaged<Received>.fromOpaque(data!).release() })

        gst_element_set_state(pipeline, GST_STATE_PAUSED)
        XCTAssertEqual(gst_element_get_state(pipeline, nil, nil, 5_000_000_000), GST_STATE_CHANGE_SUCCESS)
        XCTAssertEqual(received.timestamps.withLock { $0.count }, 1, "the preroll is handed over at once")
        gst_element_set_state(pipeline, GST_STATE_PLAYING)
        let bus = gst_element_get_bus(pipeline)!
        defer { gst_object_unref(bus) }
        let message = gst_bus_timed_pop_filtered(bus, 5_000_000_000, GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue))
        XCTAssertEqual(message?.pointee.type, GST_MESSAGE_EOS, "played to the end")
        if let message { gst_message_unref(message) }
        let timestamps = received.timestamps.withLock { $0 }
        XCTAssertEqual(timestamps.count, 5, "five frames, five hand-overs: \(timestamps)")
        XCTAssertEqual(Set(timestamps).count, timestamps.count, "none twice: \(timestamps)")
    }
}
