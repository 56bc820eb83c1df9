// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
// CAdwaita as well as CGtk: in some compile batches Swift 6.3 finds GTK's enum constants only
// through the module that included GTK's (non-modular) headers first, and that is CAdwaita.
import CAdwaita
import CGtk
import CShims
import ReelCore
import ReelGLib

/// The seek slider, bound to the model. While the user moves it, the model's position updates
/// do not fight the user: moves seek to the nearest keyframe at most every 100 ms (live
/// scrubbing), and one accurate seek follows when the user stops. Scrolling over it steps by
/// the skip interval.
@MainActor
final class SeekSlider {
    let widget: Widget
    private let adjustment: UnsafeMutablePointer<GtkAdjustment>
    private let model: PlayerModel
    private var updatingFromModel = false
    private var lastScrubSeek = 0
    private var settleTimer: guint = 0
    private var settleTarget: Seconds = 0

    /// Where a preview of a time should show (the time, and its x on the slider), or nil when
    /// none should: the pointer hovering, or the knob dragged.
    var onPreview: ((_ time: Seconds?, _ x: Double) -> Void)?
    private var pointerInside = false

    static let scrubInterval = 100_000      // µs between keyframe seeks while dragging
    static let settleDelay: UInt32 = 250           // ms without movement before the accurate seek

    init(model: PlayerModel, skipInterval: @escaping @MainActor () -> Seconds) {
        self.model = model
        adjustment = gtk_adjustment_new(0, 0, 1, 1, 10, 0)
        widget = gtk_scale_new(GTK_ORIENTATION_HORIZONTAL, adjustment)!
        gtk_scale_set_draw_value(gcast(widget), 0)
        gtk_widget_set_hexpand(widget, 1)
        UI.setTooltip(widget, tr("Position"))

        connectMainSignal(widget, "change-value") { [weak self] args in
            self?.userMoved(to: args.double(2))
            args.setReturn(false)
        }
        let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL)!
        gtk_event_controller_set_propagation_phase(scroll, GTK_PHASE_CAPTURE)
        connectMainSignal(UnsafeMutableRawPointer(scroll), "scroll") { args in
            let dy = args.double(2)
            if dy != 0 { model.skip(by: dy < 0 ? skipInterval() : -skipInterval()) }
            args.setReturn(true)
        }
        gtk_widget_add_controller(widget, scroll)
        installHoverWatch()
    }

    private func installHoverWatch() {
        let motion = gtk_event_controller_motion_new()!
        connectMainSignal(UnsafeMutableRawPointer(motion), "motion") { [weak self] args in
            guard let self else { return }
            self.pointerInside = true
            guard !self.isUserMoving, self.model.duration != nil else { return }
            let x = args.double(1)
            self.onPreview?(self.time(at: x), x)
        }
        connectMainSignal(UnsafeMutableRawPointer(motion), "leave") { [weak self] _ in
            guard let self else { return }
            self.pointerInside = false
            if !self.isUserMoving { self.onPreview?(nil, 0) }
        }
        gtk_widget_add_controller(widget, motion)
    }

    /// The trough's span the knob's middle moves along, in the slider's coordinates: GtkScale's
    /// CSS nodes "trough" and, inside it, "slider" (the knob). Workaround (GTK 4.8):
    /// gtk_range_get_range_rect answered another span; goes when it answers the trough's.
    private var track: (start: Double, length: Double) {
        func child(of parent: Widget?, named name: String) -> Widget? {
            var node = parent.flatMap { gtk_widget_get_first_child($0) }
            while let current = node, String(cString: gtk_widget_get_css_name(current)) != name { node = gtk_widget_get_next_sibling(current) }
            return node
        }
        var trough = graphene_rect_t()
        guard let troughWidget = child(of: widget, named: "trough"),
              gtk_widget_compute_bounds(troughWidget, widget, &trough) != 0 else { return (0, 1) }
        let knob = Double(child(of: troughWidget, named: "slider").map { gtk_widget_get_width($0) } ?? 0)
        return (Double(trough.origin.x) + knob / 2, max(1, Double(trough.size.width) - knob))
    }

    /// In a right-to-left language GtkScale runs from right to left: time goes toward the left.
    private var runsRightToLeft: Bool { gtk_widget_get_direction(widget) == GTK_TEXT_DIR_RTL }

    private func time(at x: Double) -> Seconds {
        let duration = model.duration ?? 0
        let fraction = min(max((x - track.start) / track.length, 0), 1)
        return (runsRightToLeft ? 1 - fraction : fraction) * duration
    }

    private func x(at time: Seconds) -> Double {
        guard let duration = model.duration, duration > 0 else { return track.start }
        let fraction = min(max(time / duration, 0), 1)
        return track.start + (runsRightToLeft ? 1 - fraction : fraction) * track.length
    }

    var isUserMoving: Bool { settleTimer != 0 }

    private func userMoved(to value: Double) {
        guard !updatingFromModel else { return }
        let now = g_get_monotonic_time()
        if now - lastScrubSeek >= Self.scrubInterval {
            lastScrubSeek = now
            model.seek(to: value, accurate: false)
        }
        settleTarget = value
        if settleTimer != 0 { g_source_remove(settleTimer) }
        onPreview?(value, x(at: value))
        settleTimer = addTimeout(milliseconds: Self.settleDelay) { [weak self] in
            guard let self else { return false }
            self.settleTimer = 0
            self.model.seek(to: self.settleTarget, accurate: true)
            if !self.pointerInside { self.onPreview?(nil, 0) }
            return false
        }
    }

    /// The A-B loop's ends as marks over the slider, the chapters' starts under it.
    func showMarks(loop: ABLoop?, chapters: [Chapter]) {
        gtk_scale_clear_marks(gcast(widget))
        for mark in [loop?.start, loop?.end].compactMap({ $0 }) {
            gtk_scale_add_mark(gcast(widget), mark, GTK_POS_TOP, nil)
        }
        for chapter in chapters where chapter.start > 0 {
            gtk_scale_add_mark(gcast(widget), chapter.start, GTK_POS_BOTTOM, nil)
        }
    }

    func update() {
        guard !isUserMoving else { return }
        updatingFromModel = true
        defer { updatingFromModel = false }
        let duration = model.duration ?? 0, upper = max(duration, 0.001)
        if gtk_adjustment_get_upper(adjustment) != upper {
            gtk_adjustment_set_upper(adjustment, upper)
            // Workaround (GTK 4.8): marks stay where the range they were added in put them, so
            // chapters read before the duration stayed at the slider's end. Goes when GtkScale
            // moves its marks with its range.
            showMarks(loop: model.abLoop, chapters: model.chapters)
        }
        gtk_adjustment_set_value(adjustment, min(model.position, duration))
        gtk_widget_set_sensitive(widget, model.canSeek ? 1 : 0)
        UI.setValueText(widget, String(format: tr("%@ of %@"), TimeFormat.string(model.position), TimeFormat.string(model.duration)))
    }
}
