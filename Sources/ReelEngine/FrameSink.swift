// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGtk
import CGStreamer
import CGstApp
import CGstVideo
import CShims
import ReelCore
import ReelGLib

/// Reel's video sink, what AVPlayerLayer is on iOS: an appsink whose decoded frames become
/// GdkTextures shown by a GdkPaintable (Debian 12 has no gtk4paintablesink).
///
/// The streaming thread never waits for the UI: it drops the newest sample into a one-slot
/// mailbox (newest wins) and, only when no hand-off is already pending, schedules one on the
/// main loop. The main thread wraps the mapped buffer in a GdkMemoryTexture without copying; the
/// texture keeps the sample alive until GTK lets go of it.
///
/// Frames are made the size they are drawn at: the paintable reports the size in device pixels
/// it draws the video at, and the sink's converter (videoscale, then videoconvert, in the
/// streaming thread) scales each frame to it in the decoder's format and converts it to BGRA.
/// Uploading a 1080p frame to show it in a 960-pixel window costs four times the copying and,
/// with a software GL renderer, four times the texture sampling on every repaint. Late frames
/// are dropped before conversion (the appsink's QoS events reach the converter). Frames are
/// never made larger than the video: GTK scales up.
public final class FrameSink: Sendable {
    /// The element to give playbin as its video sink.
    public let element: ObjectRef<UnsafeMutablePointer<GstElement>>
    /// What a GtkPicture shows. Touch it on the main thread only.
    public let paintable: ObjectRef<OpaquePointer>
    private let appSink: ObjectRef<UnsafeMutablePointer<GstElement>>

    private let mailbox = Locked(Mailbox())
    private let sizing = Locked(Sizing())

    /// The size frames are made at. Main thread.
    private struct Sizing {
        /// The size's caps now (the scaler's output; the format is the appsink's).
        var applied = "video/x-raw"
        /// The size the video is drawn at, waiting to settle, and the timer that applies it.
        var pending: (width: Int32, height: Int32)?
        var timer: guint = 0
        /// The size last applied, and whether frames are stretched to it (an aspect ratio chosen).
        var last: (width: Int32, height: Int32)?
        var stretched = false
        /// No size was applied since the picture was cleared: the next applies at once, so that
        /// an item's first frame is already made at the size it is shown.
        var fresh = true
    }

    /// A resize drag redraws at a new size every frame; the converter follows once it settles.
    static let resizeSettleTime: UInt32 = 100  // ms

    private struct Mailbox {
        var sample: SampleRef?
        var handOffPending = false
        /// false while nothing can be drawn (window minimized, video disabled): drop at once.
        var accepting = true
    }

    /// A sample crossing from the streaming thread to the main thread; whoever holds it unrefs it.
    private struct SampleRef: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// BGRA: cairo's native format, and one GL uploads as it is (alpha is always opaque from the
    /// converter, so the premultiplied format applies as it is).
    static let caps = "video/x-raw,format=(string)BGRA"

    public init() {
        var appSinkPointer: UnsafeMutablePointer<GstElement>?
        let bin = reel_frame_sink_bin_new("reel-frame-sink", &appSinkPointer)!
        let sink = appSinkPointer!
        element = ObjectRef(retaining: bin)
        appSink = ObjectRef(retaining: sink)
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
        reel_app_sink_set_sample_callback(gcast(sink), { sample, data in
            guard let sink = WeakBox<FrameSink>.target(data) else { gst_sample_unref(sample); return }
            sink.receive(SampleRef(pointer: sample!))
        }, WeakBox(self).retained(), CallbackBox.release)

        reel_video_paintable_set_draw_size_callback(paintable.pointer, { width, height, data in
            guard let sink = WeakBox<FrameSink>.target(data) else { return }
            MainActor.assumeIsolated { sink.drawSizeChanged(width: width, height: height) }
        }, WeakBox(self).retained(), CallbackBox.release)
    }

    deinit {
        // The streaming thread may still call in until the pipeline is gone; drop what waits.
        if let sample = mailbox.withLock({ $0.sample }) { gst_sample_unref(sample.pointer) }
        let timer = sizing.withLock { $0.timer }
        if timer != 0 { g_source_remove(timer) }
    }

    /// Whether frames can be drawn now. While not, arriving frames are dropped at once, and the
    /// picture keeps only the newest frame it has, to show on return.
    @MainActor
    public func setAccepting(_ accepting: Bool) {
        let dropped = mailbox.withLock { box -> SampleRef? in
            box.accepting = accepting
            if accepting { return nil }
            defer { box.sample = nil }
            return box.sample
        }
        if let dropped { gst_sample_unref(dropped.pointer) }
        if !accepting { reel_video_paintable_show_newest(paintable.pointer) }
    }

    /// The video is now drawn `width`×`height` device pixels big (or, before its first frame,
    /// has that much room): make frames that size, once the size has settled.
    @MainActor
    private func drawSizeChanged(width: Int32, height: Int32) {
        let (now, schedule) = sizing.withLock { sizing -> (Bool, Bool) in
            sizing.pending = (width, height)
            defer { sizing.fresh = false }
            return (sizing.fresh, !sizing.fresh && sizing.timer == 0)
        }
        if now { applyDrawSize() }
        guard schedule else { return }
        let timer = addTimeout(milliseconds: Self.resizeSettleTime) { [weak self] in
            self?.sizing.withLock { $0.timer = 0 }
            self?.applyDrawSize()
            return false
        }
        sizing.withLock { $0.timer = timer }
    }

    /// The most room the picture will have (its window's size), before it is first drawn: the
    /// first frames are then not made larger, only to be made again at the drawn size.
    @MainActor
    public func expectRoom(width: Int32, height: Int32) {
        drawSizeChanged(width: width, height: height)
    }

    /// Frames as large as fit in `width`×`height` with square pixels, keeping the video's display
    /// aspect ratio, and never larger than the video (the converter does not scale up to a range).
    /// With an aspect ratio chosen (`stretchedFrom`: the video's height), the frames are that box's
    /// shape, no taller than the video: the scaler stretches them, not the drawing.
    static func caps(within width: Int32, _ height: Int32, stretchedFrom videoHeight: Int32? = nil) -> String {
        guard let videoHeight, videoHeight > 0, height > 0 else {
            return "video/x-raw,pixel-aspect-ratio=(fraction)1/1,width=(int)[1,\(width)],height=(int)[1,\(height)]"
        }
        let scale = min(1, Double(videoHeight) / Double(height))
        let (w, h) = (max(1, Int32(Double(width) * scale)), max(1, Int32(Double(height) * scale)))
        return "video/x-raw,pixel-aspect-ratio=(fraction)1/1,width=(int)\(w),height=(int)\(h)"
    }

    @MainActor
    private func applyDrawSize() {
        let videoHeight = videoSize?.height
        let caps = sizing.withLock { sizing -> String? in
            guard let size = sizing.pending else { return nil }
            sizing.pending = nil
            sizing.last = size
            let caps = Self.caps(within: size.width, size.height, stretchedFrom: sizing.stretched ? videoHeight : nil)
            guard caps != sizing.applied else { return nil }
            sizing.applied = caps
            return caps
        }
        if let caps { reel_frame_sink_set_caps(element.pointer, caps) }
    }

    /// Shows the picture as the user set it: the turn and aspect where it is drawn (at once,
    /// paused or not, at no cost to the frame path), colours and deinterlacing as frames are made.
    @MainActor
    public func show(_ picture: Picture) {
        reel_video_paintable_set_user_orientation(paintable.pointer, Self.orientationMethod(picture))
        reel_video_paintable_set_aspect(paintable.pointer, picture.aspect.ratio ?? 0)
        let restretch = sizing.withLock { sizing -> Bool in
            guard sizing.stretched != (picture.aspect != .automatic) else { return false }
            sizing.stretched.toggle()
            sizing.pending = sizing.pending ?? sizing.last
            return true
        }
        if restretch { applyDrawSize() }
        let colour = picture.colour
        reel_frame_sink_set_balance(element.pointer, colour.brightness, colour.contrast, colour.saturation, colour.hue)
        let mode: ReelDeinterlaceMode = switch picture.deinterlacing {
        case .automatic: REEL_DEINTERLACE_AUTO
        case .off: REEL_DEINTERLACE_OFF
        case .forced: REEL_DEINTERLACE_FORCE
        }
        reel_frame_sink_set_deinterlace(element.pointer, mode)
    }

    /// The user's turn as GStreamer's orientation method: quarter turns clockwise, then mirrored.
    public static func orientationMethod(_ picture: Picture) -> Int32 {
        let turned: [GstVideoOrientationMethod] = [GST_VIDEO_ORIENTATION_IDENTITY, GST_VIDEO_ORIENTATION_90R,
                                                   GST_VIDEO_ORIENTATION_180, GST_VIDEO_ORIENTATION_90L]
        let mirrored: [GstVideoOrientationMethod] = [GST_VIDEO_ORIENTATION_HORIZ, GST_VIDEO_ORIENTATION_UL_LR,
                                                     GST_VIDEO_ORIENTATION_VERT, GST_VIDEO_ORIENTATION_UR_LL]
        return Int32((picture.mirrored ? mirrored : turned)[picture.quarterTurns & 3].rawValue)
    }

    /// How the frame shown is turned, the stream's tag and the user's turn together.
    @MainActor
    public var orientation: Int32 { reel_video_paintable_get_orientation(paintable.pointer) }

    /// Whether a deinterlacer is in the frame path now (interlaced caps, or forced).
    public var isDeinterlacing: Bool { reel_frame_sink_is_deinterlacing(element.pointer) != 0 }

    /// Frames of the playing video never drawn, however they were lost (late in the decoder or
    /// the sink, or replaced in the mailbox before the window drew them), told by the timestamps
    /// of the frames drawn: for the benchmark and tests, exact where counting at the ends is not.
    @MainActor
    public var framesSkipped: UInt64 { UInt64(reel_video_paintable_get_frames_skipped(paintable.pointer)) }

    /// Shows a frame that did not come through the sink (`FrameGrabber`'s) at once, at the
    /// video's size.
    @MainActor
    public func showStill(_ texture: OpaquePointer) {
        let size = videoSize  // unknown: 0 × 0, the texture's own size
        reel_video_paintable_set_frame(paintable.pointer, texture, nil, 0, size?.width ?? 0, size?.height ?? 0)
        reel_video_paintable_show_newest(paintable.pointer)
    }

    /// The video's size, as the sink's input says (frames may be made smaller); nil before the
    /// first caps.
    private var videoSize: (width: Int32, height: Int32)? {
        var width: Int32 = 0, height: Int32 = 0
        return reel_frame_sink_input_size(element.pointer, &width, &height) != 0 ? (width, height) : nil
    }

    /// Clears the picture (a new item is loading). The frame size stays: it is the room the
    /// picture has, and the next item's frames are made within it.
    @MainActor
    public func clear() {
        // A frame of the last item still waiting to be handed over is not shown over the clean picture.
        let stale = mailbox.withLock { box -> SampleRef? in
            defer { box.sample = nil }
            return box.sample
        }
        if let stale { gst_sample_unref(stale.pointer) }
        reel_video_paintable_set_texture(paintable.pointer, nil, 1, 1)
        sizing.withLock { $0.fresh = true }
    }

    // Streaming thread.
    private func receive(_ sample: SampleRef) {
        let (replaced, schedule) = mailbox.withLock { box -> (SampleRef?, Bool) in
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
        guard let frame = Self.texture(wrapping: sample.pointer) else { return }
        // The picture's size is the video's, whatever size the frame was made at.
        let (width, height) = videoSize ?? (
            Int32((Double(gdk_texture_get_width(frame.texture)) * Double(frame.parN) / Double(max(frame.parD, 1))).rounded()),
            gdk_texture_get_height(frame.texture))
        reel_video_paintable_set_frame_sample(paintable.pointer, sample.pointer)
        reel_video_paintable_set_frame(paintable.pointer, frame.texture, frame.isBGRA ? frame.bytes : nil, frame.stride,
                                       width, height)
        g_object_unref(frame.texture.raw)
        g_bytes_unref(frame.bytes)
    }

    /// A texture over the sample's mapped pixels, and those pixels (the caller unrefs both).
    static func texture(wrapping sample: OpaquePointer)
        -> (texture: OpaquePointer, bytes: OpaquePointer, stride: Int32, isBGRA: Bool, parN: Int32, parD: Int32)? {
        guard let frame = reel_mapped_frame_new(sample) else { return nil }
        let format: GdkMemoryFormat
        let pixelFormat = reel_mapped_frame_format(frame)
        switch pixelFormat {
        // Opaque, so straight and premultiplied alpha are the same; GTK 4.8 converts the
        // straight format to cairo's twice as fast when it downloads a texture.
        case GST_VIDEO_FORMAT_BGRA: format = GDK_MEMORY_B8G8R8A8
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
        let stride = reel_mapped_frame_stride(frame)
        guard let texture, let bytes else {
            g_bytes_unref(bytes)
            return nil
        }
        return (texture, bytes, stride, pixelFormat == GST_VIDEO_FORMAT_BGRA, parN, parD)
    }
}
