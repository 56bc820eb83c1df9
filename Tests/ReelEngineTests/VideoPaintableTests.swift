// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGStreamer
import CGtk
import CShims
import ReelEngine
import ReelGLib
import XCTest

/// The picture GTK draws: a frame that arrives before the last one was drawn is drawn at the
/// next repaint rather than never (at 60 fps two frames now and then land between repaints).
final class VideoPaintableTests: XCTestCase {
    private var paintable: OpaquePointer!
    private var textures: [OpaquePointer] = []

    override func setUpWithError() throws {
        GStreamer.initialize()
        // GTK's render nodes need GTK set up (the test session has a display).
        XCTAssertNotEqual(gtk_init_check(), 0, "GTK starts")
        paintable = reel_video_paintable_new()
    }

    override func tearDown() {
        g_object_unref(UnsafeMutableRawPointer(paintable))
        textures.forEach { g_object_unref(UnsafeMutableRawPointer($0)) }
    }

    func testTwoFramesBetweenRepaintsAreBothDrawn() {
        setFrame(0)
        XCTAssertEqual(repaint(), 0)
        setFrame(1)
        setFrame(2)
        XCTAssertEqual(repaint(), 1, "the frame not yet drawn is drawn first")
        XCTAssertEqual(repaint(), 2, "the next repaint draws the one that waited")
        XCTAssertEqual(reel_video_paintable_get_frames_skipped(paintable), 0)
    }

    func testAThirdFrameReplacesTheOneWaitingAndIsCountedSkipped() {
        setFrame(0)
        XCTAssertEqual(repaint(), 0)
        setFrame(1)
        setFrame(2)
        setFrame(3)
        XCTAssertEqual(repaint(), 1)
        XCTAssertEqual(repaint(), 3, "the newest waits, not the older")
        XCTAssertEqual(reel_video_paintable_get_frames_skipped(paintable), 1, "frame 2 was never drawn")
    }

    func testAWindowNotDrawnKeepsOnlyTheNewestFrame() {
        setFrame(0)
        XCTAssertEqual(repaint(), 0)
        setFrame(1)
        setFrame(2)
        reel_video_paintable_show_newest(paintable)
        XCTAssertEqual(shownFrame(), 2, "shown at once, for the window's return")
    }

    func testClearingDropsTheFrameWaiting() {
        setFrame(0)
        setFrame(1)
        reel_video_paintable_set_texture(paintable, nil, 1, 1)
        XCTAssertNil(reel_video_paintable_get_texture(paintable))
        drainMainLoop()
        XCTAssertNil(reel_video_paintable_get_texture(paintable), "the waiting frame does not come back")
    }

    /// The yielding source (GstPlay's reports) waits while a frame waits for its repaint.
    func testTheYieldingSourceWaitsForEachFramesRepaint() {
        let source = g_timeout_source_new_seconds(3600)!
        defer { g_source_unref(source) }
        reel_video_paintable_set_yielding_source(paintable, source)
        let waiting = GDK_PRIORITY_REDRAW + 1
        XCTAssertEqual(g_source_get_priority(source), G_PRIORITY_DEFAULT)
        setFrame(0)
        XCTAssertEqual(g_source_get_priority(source), waiting, "a frame waits for its repaint")
        XCTAssertEqual(repaint(), 0)
        XCTAssertEqual(g_source_get_priority(source), G_PRIORITY_DEFAULT, "drawn: the source goes ahead")
        setFrame(1)
        setFrame(2)
        XCTAssertEqual(repaint(), 1)
        XCTAssertEqual(g_source_get_priority(source), waiting, "the frame that waited now waits for the next repaint")
        XCTAssertEqual(repaint(), 2)
        XCTAssertEqual(g_source_get_priority(source), G_PRIORITY_DEFAULT)
        setFrame(3)
        reel_video_paintable_set_texture(paintable, nil, 1, 1)
        XCTAssertEqual(g_source_get_priority(source), G_PRIORITY_DEFAULT, "cleared: nothing waits")
        setFrame(4)
        reel_video_paintable_set_yielding_source(paintable, nil)
        XCTAssertEqual(g_source_get_priority(source), G_PRIORITY_DEFAULT, "let go of, it has its own priority back")
    }

    /// Frames set and never drawn (a window not drawn at all) do not keep the source waiting.
    @MainActor func testTheYieldingSourceGoesAheadWhenDrawingStalls() {
        let source = g_timeout_source_new_seconds(3600)!
        defer { g_source_unref(source) }
        reel_video_paintable_set_yielding_source(paintable, source)
        setFrame(0)
        XCTAssertEqual(g_source_get_priority(source), GDK_PRIORITY_REDRAW + 1)
        var index = 1
        waitUntil("drawing is taken for stalled") {
            setFrame(index)
            index += 1
            return g_source_get_priority(source) == G_PRIORITY_DEFAULT
        }
        setFrame(index)
        XCTAssertEqual(g_source_get_priority(source), G_PRIORITY_DEFAULT, "and stays ahead while it stalls")
    }

    // MARK: Helpers

    private static let frameDuration = GstClockTime(reel_gst_second()) / 60

    /// Sets frame `index` of a 60 fps video: a 2×2 texture with its timestamp.
    private func setFrame(_ index: Int) {
        let pixels = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 16)
        let bytes = pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, 16) }
        defer { g_bytes_unref(bytes) }
        let texture = gdk_memory_texture_new(2, 2, GDK_MEMORY_B8G8R8A8, bytes, 8)!
        textures.append(texture)
        let buffer = gst_buffer_new()!
        buffer.pointee.pts = GstClockTime(index) * Self.frameDuration
        buffer.pointee.duration = Self.frameDuration
        let segment = gst_segment_new()!
        gst_segment_init(segment, GST_FORMAT_TIME)
        let sample = gst_sample_new(buffer, nil, segment, nil)
        gst_buffer_unref(buffer)
        gst_segment_free(segment)
        reel_video_paintable_set_frame_sample(paintable, sample)
        gst_sample_unref(sample)
        reel_video_paintable_set_frame(paintable, gcast(texture), bytes, 8, 2, 2)
    }

    /// Which frame the paintable shows now.
    private func shownFrame() -> Int? {
        guard let texture = reel_video_paintable_get_texture(paintable) else { return nil }
        return textures.firstIndex { UnsafeMutableRawPointer($0) == UnsafeMutableRawPointer(texture) }
    }

    /// What a repaint by GTK does: draws the paintable, then lets the main loop run. The frame drawn.
    private func repaint() -> Int? {
        let drawn = shownFrame()
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(gcast(paintable), gcast(snapshot), 2, 2)
        if let node = gtk_snapshot_free_to_node(snapshot) { gsk_render_node_unref(node) }
        drainMainLoop()
        return drawn
    }

    private func drainMainLoop() {
        while g_main_context_iteration(nil, 0) != 0 {}
    }
}
