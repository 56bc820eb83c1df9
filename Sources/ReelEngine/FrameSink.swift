import CGio
import CGtk
import CGStreamer
import CGstApp
import CGstVideo
import CShims
import ReelGLib
import Synchronization

/// Reel's video sink, what AVPlayerLayer is on iOS: an appsink whose decoded frames become
/// GdkTextures shown by a GdkPaintable (Debian 12 has no gtk4paintablesink).
///
/// The streaming thread never waits for the UI: it drops the newest sample into a one-slot
/// mailbox (newest wins) and, only when no hand-off is already pending, schedules one on the
/// main loop. The main thread wraps the mapped buffer in a GdkMemoryTexture without copying; the
/// texture keeps the sample alive until GTK lets go of it.
public final class FrameSink: Sendable {
    /// The element to give playbin as its video sink.
    public let element: ObjectRef<UnsafeMutablePointer<GstElement>>
    /// What a GtkPicture shows. Touch it on the main thread only.
    public let paintable: ObjectRef<OpaquePointer>

    private let mailbox = Mutex(Mailbox())

    private struct Mailbox {
        var sample: SampleRef?
        var handOffPending = false
        /// false while nothing can be drawn (window minimized, video disabled): drop at once.
        var accepting = true
        var framesReceived: UInt64 = 0
        var framesShown: UInt64 = 0
    }

    /// A sample crossing from the streaming thread to the main thread; whoever holds it unrefs it.
    private struct SampleRef: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// The caps GDK takes without converting: 4-byte BGRA/RGBA (alpha is always opaque from
    /// videoconvert, so the premultiplied formats, cairo's native ones, apply as they are).
    static let caps = "video/x-raw,format=(string){BGRA,RGBA,RGB,BGR}"

    public init() {
        let sink = gst_element_factory_make("appsink", "reel-frame-sink")!
        element = ObjectRef(retaining: sink)
        paintable = ObjectRef(taking: reel_video_paintable_new())
        let caps = reel_caps_from_string(Self.caps)
        reel_object_set_pointer(sink, "caps", gpointer(caps))
        gst_caps_unref(caps)
        // Render on time (sync), keep one buffer queued at most, and never block on a full queue.
        reel_object_set_bool(sink, "sync", 1)
        reel_object_set_uint(sink, "max-buffers", 1)
        reel_object_set_bool(sink, "drop", 1)
        reel_object_set_bool(sink, "enable-last-sample", 0)
        reel_object_set_bool(sink, "qos", 1)

        // The appsink holds its callback's target weakly: this object owns the appsink.
        let target = Unmanaged.passRetained(WeakTarget(self)).toOpaque()
        reel_app_sink_set_sample_callback(gcast(sink), { sample, data in
            let target = Unmanaged<WeakTarget>.fromOpaque(data!).takeUnretainedValue()
            guard let sink = target.sink else { gst_sample_unref(sample); return }
            sink.receive(SampleRef(pointer: sample!))
        }, target, { data in Unmanaged<WeakTarget>.fromOpaque(data!).release() })
    }

    private final class WeakTarget: Sendable {
        weak let sink: FrameSink?
        init(_ sink: FrameSink) { self.sink = sink }
    }

    deinit {
        // The streaming thread may still call in until the pipeline is gone; drop what waits.
        if let sample = mailbox.withLock({ $0.sample }) { gst_sample_unref(sample.pointer) }
    }

    /// Frames that reached the sink (decoded and converted) and frames put on screen, since start.
    public var frameCounts: (received: UInt64, shown: UInt64) {
        mailbox.withLock { ($0.framesReceived, $0.framesShown) }
    }

    /// Whether frames can be drawn now. While not, arriving frames are dropped at once.
    public func setAccepting(_ accepting: Bool) {
        let dropped = mailbox.withLock { box -> SampleRef? in
            box.accepting = accepting
            if accepting { return nil }
            defer { box.sample = nil }
            return box.sample
        }
        if let dropped { gst_sample_unref(dropped.pointer) }
    }

    /// Clears the picture (a new item is loading).
    @MainActor
    public func clear() {
        reel_video_paintable_set_texture(paintable.pointer, nil, 1, 1)
    }

    // Streaming thread.
    private func receive(_ sample: SampleRef) {
        let (replaced, schedule) = mailbox.withLock { box -> (SampleRef?, Bool) in
            box.framesReceived += 1
            guard box.accepting else { return (sample, false) }
            let old = box.sample
            box.sample = sample
            let schedule = !box.handOffPending
            box.handOffPending = true
            return (old, schedule)
        }
        if let replaced { gst_sample_unref(replaced.pointer) }
        if schedule {
            let me = Unmanaged.passRetained(self).toOpaque()
            g_idle_add_full(G_PRIORITY_DEFAULT, { data in
                Unmanaged<FrameSink>.fromOpaque(data!).takeUnretainedValue().showNewestFrame()
                return 0
            }, me, { data in Unmanaged<FrameSink>.fromOpaque(data!).release() })
        }
    }

    // Main thread.
    private func showNewestFrame() {
        guard let sample = mailbox.withLock({ box -> SampleRef? in
            box.handOffPending = false
            defer { box.sample = nil }
            return box.sample
        }) else { return }
        defer { gst_sample_unref(sample.pointer) }
        guard let texture = Self.texture(wrapping: sample.pointer) else { return }
        reel_video_paintable_set_texture(paintable.pointer, texture.texture, texture.parN, texture.parD)
        g_object_unref(texture.texture.raw)
        mailbox.withLock { $0.framesShown += 1 }
    }

    private static func texture(wrapping sample: OpaquePointer)
        -> (texture: OpaquePointer, parN: Int32, parD: Int32)? {
        guard let frame = reel_mapped_frame_new(sample) else { return nil }
        let format: GdkMemoryFormat
        switch reel_mapped_frame_format(frame) {
        case GST_VIDEO_FORMAT_BGRA: format = GDK_MEMORY_B8G8R8A8_PREMULTIPLIED
        case GST_VIDEO_FORMAT_RGBA: format = GDK_MEMORY_R8G8B8A8_PREMULTIPLIED
        case GST_VIDEO_FORMAT_RGB: format = GDK_MEMORY_R8G8B8
        case GST_VIDEO_FORMAT_BGR: format = GDK_MEMORY_B8G8R8
        default:
            reel_mapped_frame_free(UnsafeMutableRawPointer(frame))
            return nil
        }
        // The bytes point into the mapped buffer; freeing them unmaps it and drops the sample.
        let bytes = g_bytes_new_with_free_func(reel_mapped_frame_data(frame), reel_mapped_frame_size(frame),
                                               reel_mapped_frame_free, UnsafeMutableRawPointer(frame))
        let texture = gdk_memory_texture_new(reel_mapped_frame_width(frame), reel_mapped_frame_height(frame),
                                             format, bytes, gsize(reel_mapped_frame_stride(frame)))
        let parN = reel_mapped_frame_par_n(frame), parD = reel_mapped_frame_par_d(frame)
        g_bytes_unref(bytes)
        guard let texture else { return nil }
        return (texture, parN, parD)
    }
}
