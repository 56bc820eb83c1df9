// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGStreamer
import CShims
import ReelCore
import ReelGLib

/// Seek-bar previews of one item: small frames of the keyframe at or before a time, decoded by
/// a pipeline of their own (`preview_source.c`) that never touches the one playing, and kept:
/// every time between a keyframe and the latest time it answered is known to be that
/// keyframe's, and is answered at once from the cache.
@MainActor
public final class PreviewFrames {
    /// Called with each frame decoded: the time it was asked for and the frame (a GdkTexture).
    public var onFrame: ((_ requested: Seconds, _ texture: OpaquePointer) -> Void)?

    private struct Entry {
        let keyframe: Seconds
        var covers: Seconds
        let texture: ObjectRef<OpaquePointer>
    }

    private nonisolated(unsafe) let source: OpaquePointer
    private var cache: [Entry] = []
    /// About 6 MB of frames 160 pixels wide.
    private static let cacheSize = 100

    private struct Sample: @unchecked Sendable { let pointer: OpaquePointer? }

    /// `idle`: how long the pipeline stays open unused (it is reopened on demand).
    public init(uri: String, width: Int, idle: Seconds = 10) {
        // The source hands its frames, from its thread, to the main loop while the owner lives.
        let owner = WeakBox<PreviewFrames>()
        source = reel_preview_source_new(uri, gint(width), gint(idle * 1000), Self.deliver, owner.retained(), CallbackBox.release)
        owner.target = self
    }

    /// On the source's thread: not isolated to the main actor, whose check would fail there.
    private nonisolated static let deliver: ReelPreviewCallback = { sample, requested, data in
        let owner = WeakBox<PreviewFrames>.from(data)
        let frame = Sample(pointer: sample)
        runSoon {
            guard let sample = frame.pointer else { return }
            defer { gst_sample_unref(sample) }
            owner.target?.received(sample, requested: GStreamer.seconds(UInt64(requested)) ?? 0)
        }
    }

    deinit { reel_preview_source_close(source) }

    /// The frame for `time`, if the cache knows it (to the nanosecond the request travelled as).
    public func cached(at time: Seconds) -> OpaquePointer? {
        cache.first { $0.keyframe <= time + 1e-6 && time <= $0.covers + 1e-6 }?.texture.pointer
    }

    /// Opens the pipeline ahead of a request (opening costs 200-300 ms), if it is not open.
    public func getReady() { reel_preview_source_get_ready(source) }

    /// Whether the pipeline is open.
    public var isOpen: Bool { reel_preview_source_is_open(source) != 0 }

    /// Asks for the frame for `time`; `onFrame` gets it (a later request replaces an earlier one
    /// not yet started).
    public func request(at time: Seconds) {
        reel_preview_source_request(source, gint64(GStreamer.clockTime(time)))
    }

    private func received(_ sample: OpaquePointer, requested: Seconds) {
        guard let buffer = gst_sample_get_buffer(sample), let segment = gst_sample_get_segment(sample),
              let frame = FrameSink.texture(wrapping: sample) else { return }
        g_bytes_unref(frame.bytes)
        let texture = ObjectRef(taking: frame.texture)
        let keyframe = GStreamer.seconds(UInt64(gst_segment_to_stream_time(segment, GST_FORMAT_TIME, buffer.pointee.pts))) ?? requested
        if let index = cache.firstIndex(where: { $0.keyframe == keyframe }) {
            cache[index].covers = max(cache[index].covers, requested)
        } else {
            cache.append(Entry(keyframe: keyframe, covers: max(keyframe, requested), texture: texture))
            if cache.count > Self.cacheSize { cache.removeFirst() }
        }
        onFrame?(requested, texture.pointer)
    }
}
