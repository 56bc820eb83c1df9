// SPDX-License-Identifier: GPL-3.0-or-later
// CAdwaita as well as CGtk: Swift 6.3 found PANGO_ELLIPSIZE_END only through it in the Meson
// build's compile batches (see SeekSlider.swift).
import CAdwaita
import CGio
import CGtk
import CShims
import ReelCore
import ReelEngine
import ReelGLib

/// The seek bar's preview: above the slider where the pointer hovers (or where the knob is
/// dragged), a small frame from that time (the keyframe at or before it), the time, and the
/// chapter's name. A frame is asked for once the pointer rests (`restDelay`), so a pointer
/// sweeping across decodes nothing on its way; one the cache has shows at once. Sound files,
/// streams and items that cannot seek show the time alone: no second pipeline for them.
@MainActor
final class SeekPreview {
    let widget: Widget
    private let picture: Widget = gtk_picture_new()!
    /// The frame as the picture is shown: turned and stretched as the user chose (the stream's
    /// own turn is in the frame already).
    private let shown = ObjectRef<OpaquePointer>(taking: reel_video_paintable_new())
    private let timeLabel = UI.label(classes: ["reel-time"])
    private let chapterLabel = UI.label()
    private let model: PlayerModel
    /// The current item's frames (made when the pointer first moves over it), and the time the preview shows.
    private var frames: (uri: String, source: PreviewFrames)?
    private(set) var time: Seconds?
    /// The time the frame on show was asked for (`time` once the frame for it has come), and
    /// when it was shown (monotonic µs).
    private(set) var frameShownFor: (time: Seconds, at: Int64)?
    private var restTimer: ScheduledAction?

    static let frameWidth = 160
    /// The frame and the padding round it (CSS `.reel-seek-preview`): whatever it says fits.
    static let width = frameWidth + 12
    static let restDelay: Seconds = 0.06

    init(model: PlayerModel) {
        self.model = model
        gtk_widget_set_size_request(picture, Int32(Self.frameWidth), Int32(Self.frameWidth * 9 / 16))
        gtk_picture_set_can_shrink(gcast(picture), 1)
        gtk_label_set_ellipsize(gcast(chapterLabel), PANGO_ELLIPSIZE_END)
        gtk_label_set_max_width_chars(gcast(chapterLabel), 1)
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 4, [picture, timeLabel, chapterLabel])
        gtk_widget_set_size_request(widget, Int32(Self.width), -1)
        UI.addClasses(widget, "osd", "reel-seek-preview")
        gtk_widget_set_halign(widget, GTK_ALIGN_START)
        gtk_widget_set_valign(widget, GTK_ALIGN_END)
        gtk_widget_set_can_target(widget, 0)
        gtk_widget_set_visible(widget, 0)
    }

    var isShown: Bool { gtk_widget_get_visible(widget) != 0 }

    /// What the preview says: the time and, if any, the chapter.
    var text: String {
        [timeLabel, chapterLabel].filter { gtk_widget_get_visible($0) != 0 }
            .map { String(cString: gtk_label_get_text(gcast($0))) }.joined(separator: " ")
    }

    /// Whether the preview shows a frame (rather than the time alone).
    var showsFrame: Bool { gtk_widget_get_visible(picture) != 0 && gtk_picture_get_paintable(gcast(picture)) != nil }

    /// Shows the preview for `time`, its middle at `x` and its bottom at `bottom` in the stage.
    func show(_ time: Seconds, x: Double, bottom: Double, stageWidth: Double) {
        // GTK reports motion at a resting pointer when the layout under it changes: the same
        // time again must not put off the frame's request.
        let moved = time != self.time
        self.time = time
        gtk_label_set_text(gcast(timeLabel), TimeFormat.string(time))
        let chapter = model.chapters.last { $0.start <= time }?.title ?? ""
        gtk_label_set_text(gcast(chapterLabel), chapter)
        gtk_widget_set_visible(chapterLabel, chapter.isEmpty ? 0 : 1)
        let source = previewSource()
        gtk_widget_set_visible(picture, source == nil ? 0 : 1)
        if let source, moved {
            if let texture = source.cached(at: time) {
                showFrame(texture, for: time)
                restTimer = nil
            } else {
                restTimer = GLibScheduler().schedule(after: Self.restDelay) { [weak self] in
                    self?.restTimer = nil
                    source.request(at: time)
                }
            }
        }
        let width = Double(Self.width)
        let left = min(max(x - width / 2, 4), max(4, stageWidth - width - 4))
        gtk_widget_set_margin_start(widget, Int32(left))
        gtk_widget_set_margin_bottom(widget, Int32(max(0, bottom)))
        gtk_widget_set_visible(widget, 1)
    }

    func hide() {
        restTimer = nil
        time = nil
        frameShownFor = nil
        gtk_widget_set_visible(widget, 0)
    }

    private func showFrame(_ texture: OpaquePointer, for time: Seconds) {
        reel_video_paintable_set_user_orientation(shown.pointer, FrameSink.orientationMethod(model.picture))
        reel_video_paintable_set_aspect(shown.pointer, model.picture.aspect.ratio ?? 0)
        reel_video_paintable_set_texture(shown.pointer, texture, 1, 1)
        gtk_picture_set_paintable(gcast(picture), gcast(shown.pointer))
        frameShownFor = (time, Int64(g_get_monotonic_time()))
    }

    /// The pointer moved over the video: a seek may come, so the frames' pipeline is opened.
    func getReady() {
        previewSource()?.getReady()
    }

    /// The item changed: its frames are another's.
    func itemChanged() {
        if frames?.uri != model.currentItem?.uri { frames = nil }
        hide()
    }

    /// The current item's frames, made when first needed; nil where there are none to show.
    private func previewSource() -> PreviewFrames? {
        guard let item = model.currentItem, item.isLocalFile, model.canSeek, let media = model.media, media.hasVideo else { return nil }
        if let frames, frames.uri == item.uri { return frames.source }
        let source = PreviewFrames(uri: item.uri, width: Self.frameWidth * Int(gtk_widget_get_scale_factor(widget)))
        // A frame for a time the pointer has left is only cached.
        source.onFrame = { [weak self, unowned source] _, _ in
            guard let self, let time = self.time, self.isShown, let texture = source.cached(at: time) else { return }
            self.showFrame(texture, for: time)
        }
        frames = (item.uri, source)
        return source
    }
}
