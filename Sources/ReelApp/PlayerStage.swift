// SPDX-License-Identifier: GPL-3.0-or-later
import CGtk
import CShims
import ReelCore
import ReelGLib

/// The video area: the picture (or the item's error), its subtitles, the buffering spinner and
/// the control bar over it, which hides (with the pointer) while video plays untouched.
@MainActor
final class PlayerStage {
    /// A wait shorter than this shows no spinner: playbin re-prerolls for a few milliseconds
    /// each time the video branch is attached again, which GstPlay reports as buffering.
    static let bufferingIndicatorDelay: UInt32 = 400
    /// Space between a subtitle and the control bar.
    private static let subtitleClearance: Int32 = 12

    let widget: Widget = gtk_overlay_new()!
    let videoView: VideoView
    let controls: ControlBar
    let hiding: ControlsHiding
    let bufferingIndicator: Widget
    private let bufferingLabel: Widget
    let subtitleLabel = UI.label(classes: ["reel-subtitle"])
    /// The second subtitle track, at the top of the picture.
    private let secondSubtitleLabel = UI.label(classes: ["reel-subtitle"])
    private var bufferingIndicatorTimer: guint = 0
    private let model: PlayerModel
    let preview: SeekPreview

    init(model: PlayerModel, paintable: OpaquePointer, skipInterval: @escaping @MainActor () -> Seconds) {
        self.model = model
        videoView = VideoView(paintable: paintable)
        controls = ControlBar(model: model, skipInterval: skipInterval)
        preview = SeekPreview(model: model)
        hiding = ControlsHiding(controls: controls.widget, over: widget, model: model)
        bufferingLabel = UI.label("")
        bufferingIndicator = Self.spinner(above: bufferingLabel)
        setUpSubtitleLabel()
        gtk_overlay_set_child(gcast(widget), videoView.widget)
        for overlay in [subtitleLabel, secondSubtitleLabel, bufferingIndicator, hiding.revealer, preview.widget] {
            gtk_overlay_add_overlay(gcast(widget), overlay)
        }
        // The control bar fits the video area's width; what sits above the bar makes room for it
        // (onLayoutChange, from the first fit on).
        gtk_overlay_add_overlay(gcast(widget), Self.widthWatcher { [controls] width in controls.fit(width: width) })
        controls.onLayoutChange = { [weak self] in
            guard let self else { return }
            gtk_widget_set_margin_bottom(self.subtitleLabel, self.controls.height + Self.subtitleClearance)
            self.videoView.setBottomInset(self.controls.height)
        }
        installPointerWatch()
        controls.slider.onPreview = { [weak self] time, x in self?.showPreview(time, x: x) }
    }

    /// The preview of `time` (nil: none) above the slider, its middle at `x` on the slider.
    private func showPreview(_ time: Seconds?, x: Double) {
        guard let time else { return preview.hide() }
        var point = graphene_point_t(x: Float(x), y: 0), inStage = graphene_point_t()
        var barTop = graphene_point_t(x: 0, y: 0), barTopInStage = graphene_point_t()
        guard gtk_widget_compute_point(controls.slider.widget, widget, &point, &inStage) != 0,
              gtk_widget_compute_point(controls.widget, widget, &barTop, &barTopInStage) != 0 else { return }
        let height = Double(gtk_widget_get_height(widget))
        preview.show(time, x: Double(inStage.x), bottom: height - Double(barTopInStage.y) + 6,
                     stageWidth: Double(gtk_widget_get_width(widget)))
    }

    private func setUpSubtitleLabel() {
        for (label, valign) in [(subtitleLabel, GTK_ALIGN_END), (secondSubtitleLabel, GTK_ALIGN_START)] {
            gtk_label_set_wrap(gcast(label), 1)
            gtk_label_set_justify(gcast(label), GTK_JUSTIFY_CENTER)
            gtk_widget_set_valign(label, valign)
            gtk_widget_set_halign(label, GTK_ALIGN_CENTER)
            gtk_widget_set_can_target(label, 0)
            gtk_widget_set_visible(label, 0)
        }
        gtk_widget_set_margin_top(secondSubtitleLabel, Self.subtitleClearance)
    }

    private static func spinner(above label: Widget) -> Widget {
        let spinner = gtk_spinner_new()!
        gtk_spinner_start(gcast(spinner))
        gtk_widget_set_size_request(spinner, 32, 32)
        let indicator = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [spinner, label])
        gtk_widget_set_halign(indicator, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(indicator, GTK_ALIGN_CENTER)
        gtk_widget_set_can_target(indicator, 0)
        gtk_widget_set_visible(indicator, 0)
        UI.addClasses(indicator, "osd", "reel-buffering-indicator")
        return indicator
    }

    /// An invisible overlay child the size of the video area that reports its width. GTK 4.8
    /// has no size-allocate signal; a drawing area's "resize" is the allocation. The report
    /// waits for the layout pass to end, since it changes what the bar shows.
    private static func widthWatcher(_ changed: @escaping @MainActor (Int32) -> Void) -> Widget {
        let area = gtk_drawing_area_new()!
        gtk_widget_set_can_target(area, 0)
        connectMainSignal(area, "resize") { args in
            let width = Int32(args.int(1))
            runSoon { changed(width) }
        }
        return area
    }

    // MARK: Model → view

    func update(_ change: PlayerModel.Change) {
        controls.update(change)
        switch change {
        case .item, .media, .status:
            if change != .status { preview.itemChanged() }
            if case .failed(let error) = model.status {
                videoView.show(error: error)
            } else {
                videoView.show(media: model.media, title: model.title)
            }
            updateBuffering()
            hiding.scheduleHide()
        case .picture:
            videoView.fill(model.picture.fillsWindow)
        case .subtitle:
            show(model.subtitle, in: subtitleLabel)
            show(model.secondSubtitle, in: secondSubtitleLabel)
        default:
            break
        }
    }

    /// A spinner over the video while a stream fills its buffer (or a stream is still connecting),
    /// once the wait has lasted `bufferingIndicatorDelay`.
    private func updateBuffering() {
        var text: String?
        switch model.status {
        case .buffering(let percent): text = String(format: tr("Buffering… %d%%"), percent)
        case .loading where model.isReconnecting: text = tr("The stream was cut off. Connecting again…")
        case .loading where !(model.currentItem?.isLocalFile ?? true): text = tr("Connecting…")
        default: text = nil
        }
        gtk_label_set_text(gcast(bufferingLabel), text ?? "")
        guard text != nil else {
            if bufferingIndicatorTimer != 0 { g_source_remove(bufferingIndicatorTimer) }
            bufferingIndicatorTimer = 0
            gtk_widget_set_visible(bufferingIndicator, 0)
            return
        }
        guard gtk_widget_get_visible(bufferingIndicator) == 0, bufferingIndicatorTimer == 0 else { return }
        bufferingIndicatorTimer = addTimeout(milliseconds: Self.bufferingIndicatorDelay) { [weak self] in
            guard let self else { return false }
            self.bufferingIndicatorTimer = 0
            gtk_widget_set_visible(self.bufferingIndicator, 1)
            return false
        }
    }

    var bufferingText: String {
        gtk_widget_get_visible(bufferingIndicator) != 0 ? String(cString: gtk_label_get_text(gcast(bufferingLabel))) : ""
    }

    /// The second track's line as shown, "" when none (for the diagnostics).
    var secondSubtitleShown: String {
        gtk_widget_get_visible(secondSubtitleLabel) != 0 ? String(cString: gtk_label_get_text(gcast(secondSubtitleLabel))) : ""
    }

    private func show(_ line: SubtitleLine?, in label: Widget) {
        guard let line, !line.text.isEmpty else { return gtk_widget_set_visible(label, 0) }
        UI.setLine(line, in: label)
        gtk_widget_set_visible(label, 1)
    }

    // MARK: The pointer

    private func installPointerWatch() {
        let motion = gtk_event_controller_motion_new()!
        // GTK (4.8) also reports motion at a resting pointer whenever the layout under it
        // changes (on Wayland with every tick of the time label): only a pointer that moved
        // shows the controls.
        var lastMotion: (x: Double, y: Double)?
        // The previews' decoder (30 MB at 1080p) is stricter: a window shown, restored or made
        // fullscreen under a resting pointer also enters or moves the stage under it, so only
        // motion away from the last place the pointer was, over a stage of the same size, counts.
        var lastPlace: (x: Double, y: Double, width: Int32, height: Int32)?
        let place = { [widget] (args: SignalArguments) in
            (x: args.double(1), y: args.double(2), width: gtk_widget_get_width(widget), height: gtk_widget_get_height(widget))
        }
        connectMainSignal(UnsafeMutableRawPointer(motion), "enter") { args in lastPlace = place(args) }
        connectMainSignal(UnsafeMutableRawPointer(motion), "motion") { [weak self] args in
            let now = place(args)
            defer { lastMotion = (now.x, now.y); lastPlace = now }
            if let lastMotion, abs(lastMotion.x - now.x) < 1, abs(lastMotion.y - now.y) < 1 { return }
            self?.hiding.pointerMoved()
            if let lastPlace, lastPlace.width == now.width, lastPlace.height == now.height,
               abs(lastPlace.x - now.x) >= 1 || abs(lastPlace.y - now.y) >= 1 {
                self?.preview.getReady()
            }
        }
        gtk_widget_add_controller(widget, motion)
    }
}
