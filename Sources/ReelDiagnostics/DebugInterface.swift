// SPDX-License-Identifier: GPL-3.0-or-later
internal import CDiagnostics
import CGio
import CGtk
import ReelEngine
import ReelGLib

/// A read-only window into the frame path and the window for tests and diagnosis (see
/// `Diagnostics`). With GStreamer's
/// leaks tracer running (GST_TRACERS=leaks), `StartCountingGstObjects` and `GstObjectsChange`
/// tell how many GStreamer objects were made and not freed in between; with
/// meson_helpers/gobject-counter.c preloaded, `GObjectsAlive` tells how many GObjects live.
@MainActor
final class DebugInterface: DBusObjectHandler {
    static let path = "/org/reelplayer/Reel/Debug"
    static let interface = "org.reelplayer.Reel.Debug"
    private let engine: GstPlayEngine
    private let window: @MainActor () -> DiagnosableWindow?
    private let frames: FrameCounter
    private let memoryReleases = Locked<UInt64>(0)
    /// Times the buffering indicator has appeared since `StartCountingBufferingShows` (a
    /// flash too short for a poll to see counts too).
    private var bufferingShows: UInt64 = 0
    private var watchedBufferingIndicator: DiagnosedWidget?
    private var frameWork: FrameWork?
    private var object: DBusObject?

    static let xml = """
    <node><interface name="org.reelplayer.Reel.Debug">
      <property name="FramesReceived" type="t" access="read"/>
      <property name="FramesShown" type="t" access="read"/>
      <property name="FramesSkipped" type="t" access="read"/>
      <property name="VideoEnabled" type="b" access="read"/>
      <property name="VideoAttached" type="b" access="read"/>
      <property name="VideoFramesDecoded" type="t" access="read"/>
      <property name="Deinterlacing" type="b" access="read"/>
      <property name="PictureOrientation" type="x" access="read"/>
      <property name="PictureSize" type="(xx)" access="read"/>
      <property name="MemoryReleases" type="t" access="read"/>
      <property name="ControlsShown" type="b" access="read"/>
      <property name="MessageShown" type="s" access="read"/>
      <property name="ToastShown" type="s" access="read"/>
      <property name="BufferingShown" type="b" access="read"/>
      <property name="BufferingText" type="s" access="read"/>
      <property name="BufferingShows" type="t" access="read"/>
      <property name="ControlBounds" type="a{sv}" access="read"/>
      <property name="MenuOpen" type="b" access="read"/>
      <property name="FocusVisible" type="b" access="read"/>
      <property name="TextDPI" type="x" access="read"/>
      <property name="Animations" type="b" access="read"/>
      <property name="HighContrast" type="b" access="read"/>
      <property name="EllipsizedLabels" type="as" access="read"/>
      <property name="QueueShown" type="b" access="read"/>
      <property name="ControlTooltips" type="a{sv}" access="read"/>
      <property name="QueueRowTitles" type="as" access="read"/>
      <property name="QueueRowsMade" type="t" access="read"/>
      <property name="QueueFilterMilliseconds" type="d" access="read"/>
      <property name="QueueURIs" type="as" access="read"/>
      <property name="ShortcutTitles" type="as" access="read"/>
      <property name="ShortcutKeys" type="as" access="read"/>
      <property name="TranscriptShown" type="b" access="read"/>
      <property name="TranscriptLines" type="as" access="read"/>
      <property name="TranscriptHighlight" type="s" access="read"/>
      <property name="SecondSubtitle" type="s" access="read"/>
      <property name="HeaderSubtitle" type="s" access="read"/>
      <property name="PreviewShown" type="b" access="read"/>
      <property name="PreviewText" type="s" access="read"/>
      <property name="PreviewFrame" type="b" access="read"/>
      <property name="PreviewTimes" type="(ddx)" access="read"/>
      <method name="StartCountingGstObjects"/>
      <method name="GstObjectsChange"><arg name="change" type="x" direction="out"/></method>
      <method name="GObjectsAlive"><arg name="count" type="x" direction="out"/></method>
      <method name="StartCountingBufferingShows"/>
      <method name="StartCountingFrameWork"/>
      <property name="FrameWork" type="(ttd)" access="read"/>
      <method name="CrashForTesting"/>
    </interface></node>
    """

    init(connection: OpaquePointer, engine: GstPlayEngine, window: @escaping @MainActor () -> DiagnosableWindow?) {
        self.engine = engine
        self.window = window
        frames = FrameCounter(engine.frameSink)
        engine.onMemoryReleased = { [memoryReleases] in memoryReleases.withLock { $0 += 1 } }
        object = try? DBusObject(connection: connection, path: Self.path, introspectionXML: Self.xml, handler: self)
    }

    func call(interface: String, method: String, parameters: OpaquePointer) throws(DBusError) -> [Variant] {
        switch method {
        case "StartCountingGstObjects":
            guard reel_gst_object_count_start() != 0 else { throw .notSupported("GStreamer's leaks tracer is not running (GST_TRACERS=leaks)") }
            return []
        case "GstObjectsChange":
            let change = reel_gst_object_count_change()
            guard change != Int64.min else { throw .notSupported("GStreamer's leaks tracer is not running (GST_TRACERS=leaks)") }
            return [.int64(Int64(change))]
        case "GObjectsAlive":
            let count = Int64(reel_gobject_live_count())
            guard count != Int64.min else { throw .notSupported("GObjects are not counted (preload meson_helpers/gobject-counter.c)") }
            return [.int64(count)]
        case "StartCountingBufferingShows":
            guard let indicator = window()?.bufferingIndicator else { throw .notSupported("no window yet") }
            if watchedBufferingIndicator != indicator {
                watchedBufferingIndicator = indicator
                _ = connectMainSignal(indicator, "notify::visible") { [weak self] _ in
                    if gtk_widget_get_visible(indicator) != 0 { self?.bufferingShows += 1 }
                }
            }
            bufferingShows = 0
            return []
        case "StartCountingFrameWork":
            guard let widget = window()?.window, let clock = gtk_widget_get_frame_clock(widget) else {
                throw .notSupported("no window shown yet")
            }
            if frameWork?.clock != clock { frameWork = FrameWork(clock: clock) }
            frameWork?.reset()
            return []
        case "CrashForTesting":
            Diagnostics.crashForTesting()
            return []
        default:
            throw .notSupported("no method \(method)")
        }
    }

    func property(interface: String, name: String) -> Variant? {
        switch name {
        case "FramesReceived": return .uint64(frames.received)
        case "FramesShown": return .uint64(frames.shown)
        case "FramesSkipped": return .uint64(engine.frameSink.framesSkipped)
        case "VideoEnabled": return .bool(engine.isVideoEnabled)
        case "VideoAttached": return .bool(engine.isVideoBranchAttached)
        case "VideoFramesDecoded": return .uint64(GstPlayEngine.videoFramesDecoded)
        case "Deinterlacing": return .bool(engine.frameSink.isDeinterlacing)
        case "PictureOrientation": return .int64(Int64(engine.frameSink.orientation))
        case "PictureSize":
            let picture = engine.frameSink.paintable.pointer
            return .tuple([.int64(Int64(gdk_paintable_get_intrinsic_width(gcast(picture)))),
                           .int64(Int64(gdk_paintable_get_intrinsic_height(gcast(picture))))])
        case "MemoryReleases": return .uint64(memoryReleases.withLock { $0 })
        case "ControlsShown": return .bool(window()?.controlsShown ?? false)
        case "MessageShown": return .string(window()?.messageShown ?? "")
        case "ToastShown": return .string(window()?.toastShown ?? "")
        case "BufferingShown": return .bool(window()?.bufferingShown ?? false)
        case "BufferingText": return .string(window()?.bufferingText ?? "")
        case "BufferingShows": return .uint64(bufferingShows)
        case "MenuOpen": return .bool(window()?.controlMenuOpen ?? false)
        case "FocusVisible": return .bool(window()?.focusVisible ?? false)
        case "TextDPI": return .int64(window()?.textDPI ?? 0)
        case "Animations": return .bool(window()?.animations ?? false)
        case "HighContrast": return .bool(window()?.highContrast ?? false)
        case "EllipsizedLabels": return .strings(window()?.ellipsizedLabels ?? [])
        case "QueueShown": return .bool(window()?.isQueueShown ?? false)
        case "ControlTooltips": return .dictionary((window()?.controlTooltips ?? []).map { ($0.0, .string($0.1)) })
        case "QueueRowTitles": return .strings(window()?.queueRowTitles ?? [])
        case "QueueRowsMade": return .uint64(UInt64(window()?.queueRowsMade ?? 0))
        case "QueueFilterMilliseconds": return .double((window()?.queueFilterDuration ?? 0) * 1000)
        case "QueueURIs": return .strings(window()?.queueURIs ?? [])
        case "FrameWork":
            return .tuple([.uint64(frameWork?.frames ?? 0), .uint64(frameWork?.slowFrames ?? 0), .double(frameWork?.longest ?? 0)])
        case "ShortcutTitles": return .strings(window()?.shortcutTitles ?? [])
        case "ShortcutKeys": return .strings(window()?.shortcutKeys ?? [])
        case "TranscriptShown": return .bool(window()?.isTranscriptShown ?? false)
        case "TranscriptLines": return .strings(window()?.transcriptLines ?? [])
        case "TranscriptHighlight": return .string(window()?.transcriptHighlight ?? "")
        case "SecondSubtitle": return .string(window()?.secondSubtitleShown ?? "")
        case "HeaderSubtitle": return .string(window()?.headerSubtitle ?? "")
        case "PreviewShown": return .bool(window().map { gtk_widget_get_visible($0.seekPreview) != 0 } ?? false)
        case "PreviewText": return .string(window()?.seekPreviewText ?? "")
        case "PreviewFrame": return .bool(window()?.seekPreviewShowsFrame ?? false)
        case "PreviewTimes":
            let times = window()?.seekPreviewTimes ?? (shows: -1, frame: -1, frameShownAt: -1)
            return .tuple([.double(times.shows), .double(times.frame), .int64(times.frameShownAt)])
        case "ControlBounds":
            return .dictionary((window()?.controlBounds ?? []).map { ($0.0, .tuple($0.1.map { .double($0) })) })
        default: return nil
        }
    }

    func setProperty(interface: String, name: String, value: OpaquePointer) throws(DBusError) {
        throw .notSupported("read-only")
    }
}
