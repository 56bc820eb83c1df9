// SPDX-License-Identifier: GPL-3.0-or-later
import CGtk
import CShims
import ReelCore
import ReelGLib

/// The frame of a file at a position, at the video's own size, from a pipeline of its own
/// (`frame_grab.c`): what a screenshot saves, paused or minimized alike.
public enum FrameGrabber {
    private final class Request: @unchecked Sendable {
        let completion: @MainActor (OpaquePointer?) -> Void
        init(_ completion: @escaping @MainActor (OpaquePointer?) -> Void) { self.completion = completion }
    }

    private struct Sample: @unchecked Sendable { let pointer: OpaquePointer? }

    /// Hands `completion` the frame as a GdkTexture (the caller unrefs it), or nil when the
    /// media has no picture there.
    /// `orientation`: the user's turn (GStreamer's method) after the stream's tag's; nil for the
    /// frame as stored (a still the window's paintable turns itself).
    public static func grab(uri: String, at position: Seconds, orientation: Int32? = nil,
                            completion: @escaping @MainActor (OpaquePointer?) -> Void) {
        let request = Unmanaged.passRetained(Request(completion)).toOpaque()
        reel_grab_frame(uri, gint64(GStreamer.clockTime(position)), orientation ?? -1, { sample, data in
            let request = Unmanaged<Request>.fromOpaque(data!).takeRetainedValue()
            let grabbed = Sample(pointer: sample)
            runSoon {
                guard let sample = grabbed.pointer else { return request.completion(nil) }
                let frame = FrameSink.texture(wrapping: sample)
                gst_sample_unref(sample)
                if let frame { g_bytes_unref(frame.bytes) }
                request.completion(frame?.texture)
            }
        }, request)
    }
}
