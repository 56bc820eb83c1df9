// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGtk
import CShims
import ReelCore
import ReelGLib

/// The transport controls: previous, skip back, play/pause, skip forward, next, the times and
/// the seek slider, speed, tracks and volume. Buttons fire application actions, so the same
/// commands serve clicks, shortcuts and D-Bus.
///
/// The bar fits its width (`fit(width:)`; libadwaita 1.2 has no breakpoints): one row while the
/// slider gets `oneRowSliderWidth`; below that the time and slider take a row of their own above
/// the buttons, and when the buttons are still too wide, secondary controls fold into an
/// overflow menu in `Foldable` order. The slider never gets less than `minimumSliderWidth`.
@MainActor
final class ControlBar {
    /// The secondary controls, in the order they fold into the overflow menu.
    enum Foldable: Int, CaseIterable { case previousNext, speed, tracks, volume }
    struct Layout: Equatable {
        var twoRows = false
        var folded = 0
        func folds(_ control: Foldable) -> Bool { control.rawValue < folded }
    }
    static let minimumSliderWidth: Int32 = 120
    /// Shorter than this beside the buttons, the slider is too fiddly: it gets a row of its own.
    static let oneRowSliderWidth: Int32 = 240
    private static let spacing = Style.controlsSpacing

    let widget: Widget
    let slider: SeekSlider
    /// nil until the bar first fits a width.
    private(set) var layout: Layout?
    /// Called after the layout changed (the bar's height may have).
    var onLayoutChange: (@MainActor () -> Void)?
    private var availableWidth: Int32?
    private let rows: (timeline: Widget, buttons: Widget)
    private let transport: (back: Widget, play: Widget, forward: Widget)
    private let queueButtons: (previous: Widget, next: Widget)
    private let time: TimeLabels
    private let menus: (rate: RateButton, tracks: TracksButton, volume: VolumeButton, overflow: OverflowButton)
    private var minimumWidths: [Widget: Int32] = [:]
    private let model: PlayerModel

    init(model: PlayerModel, skipInterval: @escaping @MainActor () -> Seconds) {
        self.model = model
        let tooltips = Self.skipTooltips(Int(skipInterval()))
        transport = (UI.iconButton("media-seek-backward-symbolic", tooltip: tooltips.back, action: "app.skip-backward"),
                     UI.iconButton("media-playback-start-symbolic", tooltip: tr("Play"), action: "app.play-pause"),
                     UI.iconButton("media-seek-forward-symbolic", tooltip: tooltips.forward, action: "app.skip-forward"))
        UI.addClasses(transport.play, "circular")
        queueButtons = (UI.iconButton("media-skip-backward-symbolic", tooltip: tr("Previous"), action: "app.previous"),
                        UI.iconButton("media-skip-forward-symbolic", tooltip: tr("Next"), action: "app.next"))
        time = TimeLabels(model: model)
        slider = SeekSlider(model: model, skipInterval: skipInterval)
        gtk_widget_set_size_request(slider.widget, Self.minimumSliderWidth, -1)
        menus = (RateButton(), TracksButton(), VolumeButton(model: model), OverflowButton(model: model))
        // The bar is at the bottom: its menus open upwards, over the video, not off the window.
        for button in [menus.rate.widget, menus.tracks.widget, menus.volume.widget, menus.overflow.widget] {
            gtk_menu_button_set_direction(gcast(button), GTK_ARROW_UP)
        }

        rows = (UI.box(GTK_ORIENTATION_HORIZONTAL), UI.box(GTK_ORIENTATION_HORIZONTAL))
        for child in [queueButtons.previous, transport.back, transport.play, transport.forward, queueButtons.next]
            + [time.elapsed, slider.widget, time.total]
            + [menus.rate.widget, menus.tracks.widget, menus.volume.widget, menus.overflow.widget] {
            gtk_box_append(gcast(rows.buttons), child)
        }
        gtk_widget_set_visible(rows.timeline, 0)
        for row in [rows.timeline, rows.buttons] { UI.addClasses(row, "toolbar", "reel-controls-row") }
        widget = UI.box(GTK_ORIENTATION_VERTICAL, spacing: Self.spacing, [rows.timeline, rows.buttons])
        UI.addClasses(widget, "osd", "reel-controls")
        gtk_widget_set_valign(widget, GTK_ALIGN_END)
        updateAll()
    }

    /// The controls by name, in the bar's order (for the diagnostics).
    var namedControls: [(String, Widget)] {
        [("previous", queueButtons.previous), ("skip-backward", transport.back), ("play-pause", transport.play),
         ("skip-forward", transport.forward), ("next", queueButtons.next), ("elapsed", time.elapsed), ("slider", slider.widget),
         ("total", time.total), ("rate", menus.rate.widget), ("tracks", menus.tracks.widget), ("volume", menus.volume.widget),
         ("overflow", menus.overflow.widget)]
    }

    func update(_ change: PlayerModel.Change) {
        switch change {
        case .position, .duration, .seeked: updateTime()
        case .status, .item, .media, .gap, .queue:
            updateAll()
            menus.tracks.show(model.media)
            refit()
        case .rate: menus.rate.show(rate: model.rate)
        case .abLoop: slider.showMarks(loop: model.abLoop, chapters: model.chapters)
        case .chapters:
            slider.showMarks(loop: model.abLoop, chapters: model.chapters)
            gtk_widget_set_sensitive(queueButtons.next, model.hasNext ? 1 : 0)
        case .volume: updateVolume()
        case .failed, .warning, .played, .sequence, .stallRecovery, .resumed, .subtitle, .subtitleDelay, .lineMode, .picture, .audioDelay, .sleep: break
        }
    }

    func updateAll() {
        let playing = model.status.isPlaying || model.status == .loading
        gtk_button_set_icon_name(gcast(transport.play), playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic")
        UI.setTooltip(transport.play, playing ? tr("Pause") : tr("Play"))
        gtk_widget_set_sensitive(widget, model.currentItem != nil ? 1 : 0)
        // Play/pause, the skips and the slider wait while the gap between two plays counts down.
        for control in [transport.back, transport.play, transport.forward, slider.widget] {
            gtk_widget_set_sensitive(control, model.canControlTransport ? 1 : 0)
        }
        gtk_widget_set_sensitive(queueButtons.previous, model.hasPrevious ? 1 : 0)
        gtk_widget_set_sensitive(queueButtons.next, model.hasNext ? 1 : 0)
        menus.rate.show(rate: model.rate)
        // A live stream cannot be sought or sped up: its slider and skips go, a badge says Live.
        for control in [transport.back, transport.forward, slider.widget] { gtk_widget_set_visible(control, model.isLive ? 0 : 1) }
        gtk_widget_set_hexpand(time.elapsed, model.isLive ? 1 : 0)
        updateTime()
        updateVolume()
    }

    private func updateTime() {
        time.update()
        slider.update()
        refit()
    }

    private func updateVolume() {
        menus.volume.update()
        menus.overflow.updateVolume()
    }

    /// The skip buttons' tooltips name the interval they skip by (a setting).
    func showSkipInterval(_ seconds: Int) {
        let tooltips = Self.skipTooltips(seconds)
        UI.setTooltip(transport.back, tooltips.back)
        UI.setTooltip(transport.forward, tooltips.forward)
    }

    private static func skipTooltips(_ seconds: Int) -> (back: String, forward: String) {
        (String(format: trn("Back %d Second", "Back %d Seconds", seconds), seconds),
         String(format: trn("Forward %d Second", "Forward %d Seconds", seconds), seconds))
    }

    // MARK: Fitting the width

    /// How tall the bar is, its margins included: what must stay clear above the window's bottom.
    var height: Int32 {
        var minimum: Int32 = 0
        gtk_widget_measure(widget, GTK_ORIENTATION_VERTICAL, -1, &minimum, nil, nil, nil)
        return minimum
    }

    /// The bar's parent is `width` pixels wide (the bar's margins included).
    func fit(width: Int32) {
        availableWidth = width - 2 * (Style.controlsMargin + Style.controlsPadding)
        refit()
    }

    /// The first layout whose controls fit: everything in one row, else two rows, folding in order.
    private func refit() {
        guard let available = availableWidth else { return }
        let candidates = [Layout()] + (0...Foldable.allCases.count).map { Layout(twoRows: true, folded: $0) }
        apply(candidates.first { requiredWidth($0) <= available } ?? candidates.last!)
    }

    private var tracksAvailable: Bool { model.media?.hasVideo ?? false }
    private var timeline: [Widget] { [time.elapsed, slider.widget, time.total] }

    private func buttons(in layout: Layout) -> [Widget] {
        var buttons = [transport.back, transport.play, transport.forward]
        if !layout.folds(.previousNext) { buttons = [queueButtons.previous] + buttons + [queueButtons.next] }
        if !layout.folds(.speed), !model.isLive { buttons.append(menus.rate.widget) }
        if !layout.folds(.tracks), tracksAvailable { buttons.append(menus.tracks.widget) }
        if !layout.folds(.volume) { buttons.append(menus.volume.widget) }
        if layout.folded > 0 { buttons.append(menus.overflow.widget) }
        return buttons
    }

    private func requiredWidth(_ layout: Layout) -> Int32 {
        func span(_ widgets: [Widget]) -> Int32 {
            widgets.map(minimumWidth).reduce(0, +) + Self.spacing * Int32(max(widgets.count - 1, 0))
        }
        let buttons = buttons(in: layout)
        let roomier = Self.oneRowSliderWidth - Self.minimumSliderWidth
        return layout.twoRows ? max(span(buttons), span(timeline)) : span(buttons + timeline) + roomier
    }

    /// A hidden widget measures 0: it keeps the width it had when last shown (all are shown
    /// until the first fit).
    private func minimumWidth(_ widget: Widget) -> Int32 {
        if gtk_widget_get_visible(widget) != 0 {
            var minimum: Int32 = 0
            gtk_widget_measure(widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, nil, nil, nil)
            minimumWidths[widget] = minimum
        }
        return minimumWidths[widget] ?? 34
    }

    private func apply(_ new: Layout) {
        let shown = Set(buttons(in: new))
        for button in [queueButtons.previous, queueButtons.next, menus.rate.widget, menus.tracks.widget, menus.volume.widget,
                       menus.overflow.widget] {
            gtk_widget_set_visible(button, shown.contains(button) ? 1 : 0)
        }
        let old = layout
        layout = new
        if new.twoRows != (old?.twoRows ?? false) { moveTimeline(toOwnRow: new.twoRows) }
        menus.overflow.show(OverflowButton.Contents(previousNext: new.folds(.previousNext), speed: new.folds(.speed) && !model.isLive,
                                                    tracks: new.folds(.tracks) && tracksAvailable, volume: new.folds(.volume)),
                            rateMenu: menus.rate.menu.pointer, tracksMenu: menus.tracks.menu.pointer)
        if new != old { onLayoutChange?() }
    }

    /// Two rows: the time and slider on top, the buttons centred below; one row: all in line.
    private func moveTimeline(toOwnRow ownRow: Bool) {
        for item in timeline {
            g_object_ref(UnsafeMutableRawPointer(item))
            gtk_box_remove(gcast(ownRow ? rows.buttons : rows.timeline), item)
        }
        if ownRow {
            for item in timeline { gtk_box_append(gcast(rows.timeline), item) }
        } else {
            var after = queueButtons.next
            for item in timeline {
                gtk_box_insert_child_after(gcast(rows.buttons), item, after)
                after = item
            }
        }
        for item in timeline { g_object_unref(UnsafeMutableRawPointer(item)) }
        gtk_widget_set_visible(rows.timeline, ownRow ? 1 : 0)
        gtk_widget_set_halign(rows.buttons, ownRow ? GTK_ALIGN_CENTER : GTK_ALIGN_FILL)
    }
}
