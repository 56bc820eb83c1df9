import CGio
import CGtk
import CShims
import ReelEngine
import ReelGLib

/// A read-only window into the frame path and the window for tests and diagnosis, exported only
/// when the environment variable REEL_DEBUG_DBUS is set (never by default). With GStreamer's
/// leaks tracer running (GST_TRACERS=leaks), `StartCountingGstObjects` and `GstObjectsChange`
/// tell how many GStreamer objects were made and not freed in between; with
/// meson_helpers/gobject-counter.c preloaded, `GObjectsAlive` tells how many GObjects live.
@MainActor
final class DebugInterface: DBusObjectHandler {
    static let path = "/org/reelplayer/Reel/Debug"
    static let interface = "org.reelplayer.Reel.Debug"
    private let engine: GstPlayEngine
    private let window: @MainActor () -> PlayerWindow?
    private var object: DBusObject?

    static let xml = """
    <node><interface name="org.reelplayer.Reel.Debug">
      <property name="FramesReceived" type="t" access="read"/>
      <property name="FramesShown" type="t" access="read"/>
      <property name="VideoEnabled" type="b" access="read"/>
      <property name="VideoAttached" type="b" access="read"/>
      <property name="MemoryReleases" type="t" access="read"/>
      <property name="ControlsShown" type="b" access="read"/>
      <property name="MessageShown" type="s" access="read"/>
      <property name="BufferingShown" type="b" access="read"/>
      <property name="ControlBounds" type="a{sv}" access="read"/>
      <property name="MenuOpen" type="b" access="read"/>
      <property name="QueueShown" type="b" access="read"/>
      <property name="ControlTooltips" type="a{sv}" access="read"/>
      <property name="QueueRowTitles" type="as" access="read"/>
      <method name="StartCountingGstObjects"/>
      <method name="GstObjectsChange"><arg name="change" type="x" direction="out"/></method>
      <method name="GObjectsAlive"><arg name="count" type="x" direction="out"/></method>
      <method name="CrashForTesting"/>
    </interface></node>
    """

    init?(connection: OpaquePointer, engine: GstPlayEngine, window: @escaping @MainActor () -> PlayerWindow?) {
        guard getenv("REEL_DEBUG_DBUS") != nil else { return nil }
        self.engine = engine
        self.window = window
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
        case "CrashForTesting":
            CrashReporter.crashForTesting()
            return []
        default:
            throw .notSupported("no method \(method)")
        }
    }

    func property(interface: String, name: String) -> Variant? {
        let counts = engine.frameSink.frameCounts
        switch name {
        case "FramesReceived": return .uint64(counts.received)
        case "FramesShown": return .uint64(counts.shown)
        case "VideoEnabled": return .bool(engine.isVideoEnabled)
        case "VideoAttached": return .bool(engine.isVideoBranchAttached)
        case "MemoryReleases": return .uint64(engine.memoryReleases)
        case "ControlsShown": return .bool(window()?.controlsShown ?? false)
        case "MessageShown": return .string(window()?.messageShown ?? "")
        case "BufferingShown": return .bool(window()?.bufferingShown ?? false)
        case "MenuOpen": return .bool(window()?.controlMenuOpen ?? false)
        case "QueueShown": return .bool(window()?.isQueueShown ?? false)
        case "ControlTooltips": return .dictionary((window()?.controlTooltips ?? []).map { ($0.0, .string($0.1)) })
        case "QueueRowTitles": return .strings(window()?.queueRowTitles ?? [])
        case "ControlBounds":
            return .dictionary((window()?.controlBounds ?? []).map { ($0.0, .tuple($0.1.map { .double($0) })) })
        default: return nil
        }
    }

    func setProperty(interface: String, name: String, value: OpaquePointer) throws(DBusError) {
        throw .notSupported("read-only")
    }
}

// MARK: What the window shows, read back for the diagnostics

extension PlayerWindow {
    /// What the window tells the user: the error on the video area, else the latest toast.
    var messageShown: String { videoView.errorShown ?? lastToast ?? "" }

    /// Whether the buffering (or connecting) indicator is up.
    var bufferingShown: Bool { gtk_widget_get_visible(bufferingIndicator) != 0 }

    /// Whether one of the control bar's menus is open.
    var controlMenuOpen: Bool { controls.menuOpen }

    /// Tooltips of the control bar's controls, by name, for the diagnostics.
    var controlTooltips: [(String, String)] {
        controls.namedControls.compactMap { name, widget in
            gtk_widget_get_tooltip_text(widget).map { (name, String(cString: $0)) }
        }
    }

    /// The queue panel's rows as they read, for the diagnostics.
    var queueRowTitles: [String] { queuePanel.rowTitles }

    /// Whether the control bar is fully shown (not hidden, not fading).
    var controlsShown: Bool {
        gtk_revealer_get_reveal_child(gcast(controlsRevealer)) != 0 && gtk_revealer_get_child_revealed(gcast(controlsRevealer)) != 0
    }

    /// Where the control bar and each of its shown controls are, in window coordinates (x, y,
    /// width, height), and the slider's trough and knob; for the diagnostics. "surface-offset"
    /// is where the window sits in its surface (client-side decorations' margins).
    var controlBounds: [(String, [Double])] {
        func bounds(_ widget: Widget) -> [Double]? {
            var rect = graphene_rect_t()
            guard gtk_widget_get_mapped(widget) != 0, gtk_widget_compute_bounds(widget, window, &rect) != 0 else { return nil }
            return [Double(rect.origin.x), Double(rect.origin.y), Double(rect.size.width), Double(rect.size.height)]
        }
        var result: [(String, [Double])] = []
        var dx = 0.0, dy = 0.0
        gtk_native_get_surface_transform(gcast(window), &dx, &dy)
        result.append(("surface-offset", [dx, dy, 0, 0]))
        if let bar = bounds(controls.widget) { result.append(("bar", bar)) }
        for (name, widget) in controls.namedControls { if let b = bounds(widget) { result.append((name, b)) } }
        // GtkScale's own parts (GTK 4's CSS nodes "trough" and, inside it, "slider": the knob).
        func child(_ parent: Widget?, named name: String) -> Widget? {
            var node = parent.flatMap { gtk_widget_get_first_child($0) }
            while let current = node {
                if String(cString: gtk_widget_get_css_name(current)) == name { return current }
                node = gtk_widget_get_next_sibling(current)
            }
            return nil
        }
        for (name, widget) in videoView.errorTextWidgets { if let b = bounds(widget) { result.append((name, b)) } }
        let trough = child(controls.slider.widget, named: "trough")
        if let trough, let b = bounds(trough) { result.append(("trough", b)) }
        if let knob = child(trough, named: "slider"), let b = bounds(knob) { result.append(("knob", b)) }
        return result
    }
}
