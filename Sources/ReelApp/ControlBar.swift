import CGio
import CGtk
import CShims
import ReelCore
import ReelGLib

/// The transport controls: skip back, play/pause, skip forward, elapsed time, the seek slider,
/// total (or remaining) time, speed and volume. Buttons fire application actions, so the same
/// commands serve clicks, shortcuts and D-Bus.
///
/// The bar fits its width (`fit(width:)`; libadwaita 1.2 has no breakpoints): one row while the
/// slider gets `oneRowSliderWidth`; below that the time and slider take a row of their own above
/// the buttons, and when the buttons are still too wide, secondary controls fold into an
/// overflow menu in `Foldable` order. The slider never gets less than `minimumSliderWidth`.
@MainActor
final class ControlBar {
    let widget: Widget
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
    private(set) var layout = Layout()
    /// Called after the layout changed (the bar's height may have).
    var onLayoutChange: (@MainActor () -> Void)?
    private var availableWidth: Int32?
    private let timelineRow: Widget
    private let buttonRow: Widget
    private let timeline: [Widget]
    private let overflowButton: Widget
    private let rateMenu = ObjectRef<OpaquePointer>(taking: g_menu_new()!)
    private var minimumWidths: [Widget: Int32] = [:]
    private var menuHasTracks = false
    private var laidOut = false
    private let model: PlayerModel
    private let playButton: Widget
    /// Play/pause, the skips and the slider: they wait while the gap between two plays counts down.
    private let transport: [Widget]
    private let previousButton: Widget
    private let nextButton: Widget
    private let elapsedLabel: Widget
    private let totalButton: Widget
    private let rateButton: Widget
    private let tracksButton: Widget
    /// The tracks button's menu: a sound section (empty, and so hidden, unless there is a choice)
    /// and a subtitles section, whose items are replaced when the tracks change. New sections
    /// each time were not all freed by GTK 4.8's menu tracker: GObjects counted over 1000 item
    /// changes grew by 90 GMenus, every one a section made here.
    private let tracksMenu = ObjectRef<OpaquePointer>(taking: g_menu_new()!)
    private let soundSection = ObjectRef<OpaquePointer>(taking: g_menu_new()!)
    private let subtitlesSection = ObjectRef<OpaquePointer>(taking: g_menu_new()!)
    private var shownTracks: (audio: [MediaTrack], subtitles: [MediaTrack])?
    private let volumeButton: Widget
    /// The volume popover's controls, and the overflow menu's own pair for when volume is folded.
    private let volume: VolumeControls
    private let foldedVolume: VolumeControls
    let slider: SeekSlider
    /// The controls by name, in the bar's order, for the diagnostics' geometry read-back.
    let namedControls: [(String, Widget)]
    private var showsRemaining = false
    private let skipButtons: (back: Widget, forward: Widget)

    static let rates: [Double] = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 1.8, 2, 3]

    init(model: PlayerModel, skipInterval: @escaping @MainActor () -> Seconds) {
        self.model = model
        let tooltips = Self.skipTooltips(Int(skipInterval()))
        let back = UI.iconButton("media-seek-backward-symbolic", tooltip: tooltips.back, action: "app.skip-backward")
        playButton = UI.iconButton("media-playback-start-symbolic", tooltip: tr("Play"), action: "app.play-pause")
        let forward = UI.iconButton("media-seek-forward-symbolic", tooltip: tooltips.forward, action: "app.skip-forward")
        UI.addClasses(playButton, "circular")
        previousButton = UI.iconButton("media-skip-backward-symbolic", tooltip: tr("Previous"), action: "app.previous")
        nextButton = UI.iconButton("media-skip-forward-symbolic", tooltip: tr("Next"), action: "app.next")

        elapsedLabel = UI.label(TimeFormat.unknown, classes: ["reel-time", "numeric"])
        slider = SeekSlider(model: model, skipInterval: skipInterval)
        totalButton = gtk_button_new_with_label(TimeFormat.unknown)!
        UI.addClasses(totalButton, "flat", "reel-time", "numeric")
        UI.setTooltip(totalButton, tr("Show Remaining Time"))

        rateButton = gtk_menu_button_new()!
        gtk_menu_button_set_label(gcast(rateButton), Self.rateText(1))
        UI.setTooltip(rateButton, tr("Playback Speed"))
        for rate in Self.rates {
            let item = g_menu_item_new(Self.rateText(rate), nil)!
            g_menu_item_set_action_and_target_value(item, "app.rate", g_variant_new_double(rate))
            g_menu_append_item(rateMenu.pointer, item)
            g_object_unref(UnsafeMutableRawPointer(item))
        }
        gtk_menu_button_set_menu_model(gcast(rateButton), gcast(rateMenu.pointer))

        tracksButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(gcast(tracksButton), "media-view-subtitles-symbolic")
        UI.setTooltip(tracksButton, tr("Subtitles and Sound Tracks"))
        g_menu_append_section(tracksMenu.pointer, tr("Sound"), gcast(soundSection.pointer))
        g_menu_append_section(tracksMenu.pointer, tr("Subtitles"), gcast(subtitlesSection.pointer))
        gtk_menu_button_set_menu_model(gcast(tracksButton), gcast(tracksMenu.pointer))

        volume = VolumeControls(model: model)
        foldedVolume = VolumeControls(model: model)
        let popover = gtk_popover_new()!
        gtk_popover_set_child(gcast(popover), volume.widget)
        volumeButton = gtk_menu_button_new()!
        gtk_menu_button_set_popover(gcast(volumeButton), popover)
        gtk_menu_button_set_icon_name(gcast(volumeButton), "audio-volume-high-symbolic")
        UI.setTooltip(volumeButton, tr("Volume"))

        overflowButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(gcast(overflowButton), "view-more-symbolic")
        UI.setTooltip(overflowButton, tr("More Controls"))

        // The bar is at the bottom: its menus open upwards, over the video, not off the window.
        for button in [rateButton, tracksButton, volumeButton, overflowButton] {
            gtk_menu_button_set_direction(gcast(button), GTK_ARROW_UP)
        }

        transport = [back, playButton, forward, slider.widget]
        skipButtons = (back, forward)
        namedControls = [("previous", previousButton), ("skip-backward", back), ("play-pause", playButton),
                         ("skip-forward", forward), ("next", nextButton), ("elapsed", elapsedLabel), ("slider", slider.widget),
                         ("total", totalButton), ("rate", rateButton), ("tracks", tracksButton), ("volume", volumeButton),
                         ("overflow", overflowButton)]
        gtk_widget_set_size_request(slider.widget, Self.minimumSliderWidth, -1)
        timeline = [elapsedLabel, slider.widget, totalButton]
        timelineRow = UI.box(GTK_ORIENTATION_HORIZONTAL)
        buttonRow = UI.box(GTK_ORIENTATION_HORIZONTAL,
                           [previousButton, back, playButton, forward, nextButton] + timeline +
                           [rateButton, tracksButton, volumeButton, overflowButton])
        gtk_widget_set_visible(timelineRow, 0)
        for row in [timelineRow, buttonRow] { UI.addClasses(row, "toolbar", "reel-controls-row") }
        let bar = UI.box(GTK_ORIENTATION_VERTICAL, spacing: Self.spacing, [timelineRow, buttonRow])
        UI.addClasses(bar, "osd", "reel-controls")
        gtk_widget_set_valign(bar, GTK_ALIGN_END)
        widget = bar

        UI.onClicked(totalButton) { [weak self] in
            guard let self else { return }
            self.showsRemaining.toggle()
            UI.setTooltip(self.totalButton, self.showsRemaining ? tr("Show Total Time") : tr("Show Remaining Time"))
            self.updateTime()
        }
        updateAll()
    }

    static func rateText(_ rate: Double) -> String {
        let hundredths = Int((rate * 100).rounded())
        var text = "\(hundredths / 100)"
        if hundredths % 100 != 0 {
            let fraction = hundredths % 100
            text += "." + (fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)"))
        }
        return text + "×"
    }

    func update(_ change: PlayerModel.Change) {
        switch change {
        case .position, .duration, .seeked: updateTime()
        case .status, .item, .media, .gap, .queue:
            updateAll()
            updateTracksMenu()
        case .rate: gtk_menu_button_set_label(gcast(rateButton), Self.rateText(model.rate))
        case .volume: updateVolume()
        case .failed, .warning, .played, .sequence, .stallRecovery, .resumed, .subtitle: break
        }
    }

    func updateAll() {
        let playing = model.status.isPlaying || model.status == .loading
        gtk_button_set_icon_name(gcast(playButton), playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic")
        UI.setTooltip(playButton, playing ? tr("Pause") : tr("Play"))
        gtk_widget_set_sensitive(widget, model.currentItem != nil ? 1 : 0)
        for control in transport { gtk_widget_set_sensitive(control, model.canControlTransport ? 1 : 0) }
        gtk_widget_set_sensitive(previousButton, model.hasPrevious ? 1 : 0)
        gtk_widget_set_sensitive(nextButton, model.hasNext ? 1 : 0)
        gtk_menu_button_set_label(gcast(rateButton), Self.rateText(model.rate))
        updateTime()
        updateVolume()
    }

    private func updateTime() {
        if let remaining = model.gapRemaining {
            // The countdown to the next play, where the elapsed time usually is.
            let seconds = Int(remaining.rounded(.up))
            gtk_label_set_text(gcast(elapsedLabel), String(format: trn("Next in %d second", "Next in %d seconds", seconds), seconds))
        } else {
            gtk_label_set_text(gcast(elapsedLabel), model.duration == nil && model.currentItem == nil
                               ? TimeFormat.unknown : TimeFormat.string(model.position))
        }
        let total = showsRemaining ? TimeFormat.remaining(position: model.position, duration: model.duration)
                                   : TimeFormat.string(model.duration)
        gtk_button_set_label(gcast(totalButton), total)
        slider.update()
        refit()
    }

    /// The sound tracks and subtitles of the media, as radio items of `app.audio-track` and
    /// `app.subtitle-track` (-1: off), and a way to add subtitles from a file.
    private func updateTracksMenu() {
        let audio = model.media?.audioTracks ?? [], subtitles = model.media?.subtitleTracks ?? []
        refit()
        if let shown = shownTracks, shown.audio == audio, shown.subtitles == subtitles { return }
        shownTracks = (audio, subtitles)
        func fill(_ section: OpaquePointer, _ items: [(String, String, OpaquePointer?)]) {
            g_menu_remove_all(section)
            for (label, action, target) in items {
                let item = g_menu_item_new(label, nil)!
                g_menu_item_set_action_and_target_value(item, action, target)
                g_menu_append_item(section, item)
                g_object_unref(UnsafeMutableRawPointer(item))
            }
        }
        fill(soundSection.pointer, audio.count > 1
             ? audio.enumerated().map { (Self.label(for: $1, number: $0 + 1), "app.audio-track", g_variant_new_int32(Int32($1.index))) }
             : [])
        fill(subtitlesSection.pointer, [(tr("Off"), "app.subtitle-track", g_variant_new_int32(-1))] +
             subtitles.enumerated().map { (Self.label(for: $1, number: $0 + 1), "app.subtitle-track", g_variant_new_int32(Int32($1.index))) } +
             [(tr("Add Subtitles From a File…"), "app.open-subtitles", nil)])
    }

    /// "English", "Commentary — English", or "Track 2" when the media says nothing.
    static func label(for track: MediaTrack, number: Int) -> String {
        let parts = [track.title, track.language].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? String(format: tr("Track %d"), number) : parts.joined(separator: " — ")
    }

    private func updateVolume() {
        volume.update()
        foldedVolume.update()
        let icon: String
        if model.isMuted || model.volume == 0 { icon = "audio-volume-muted-symbolic" }
        else if model.volume < 0.34 { icon = "audio-volume-low-symbolic" }
        else if model.volume < 0.67 { icon = "audio-volume-medium-symbolic" }
        else { icon = "audio-volume-high-symbolic" }
        gtk_menu_button_set_icon_name(gcast(volumeButton), icon)
    }

    var menuOpen: Bool {
        [rateButton, tracksButton, volumeButton, overflowButton].contains { button in
            gtk_menu_button_get_popover(gcast(button)).map { gtk_widget_get_visible(gcast($0)) != 0 } ?? false
        }
    }

    /// The skip buttons' tooltips name the interval they skip by (a setting).
    func showSkipInterval(_ seconds: Int) {
        let tooltips = Self.skipTooltips(seconds)
        UI.setTooltip(skipButtons.back, tooltips.back)
        UI.setTooltip(skipButtons.forward, tooltips.forward)
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

    private func buttons(in layout: Layout) -> [Widget] {
        var buttons = transport.filter { $0 != slider.widget }
        if !layout.folds(.previousNext) { buttons = [previousButton] + buttons + [nextButton] }
        if !layout.folds(.speed) { buttons.append(rateButton) }
        if !layout.folds(.tracks), tracksAvailable { buttons.append(tracksButton) }
        if !layout.folds(.volume) { buttons.append(volumeButton) }
        if layout.folded > 0 { buttons.append(overflowButton) }
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
        for button in [previousButton, nextButton, rateButton, tracksButton, volumeButton, overflowButton] {
            gtk_widget_set_visible(button, shown.contains(button) ? 1 : 0)
        }
        let old = layout
        layout = new
        if new.twoRows != old.twoRows { moveTimeline(toOwnRow: new.twoRows) }
        if new.folded != old.folded || menuHasTracks != (new.folds(.tracks) && tracksAvailable) { rebuildOverflowMenu() }
        if new != old || !laidOut { onLayoutChange?() }
        laidOut = true
    }

    /// Two rows: the time and slider on top, the buttons centred below; one row: all in line.
    private func moveTimeline(toOwnRow ownRow: Bool) {
        for item in timeline {
            g_object_ref(UnsafeMutableRawPointer(item))
            gtk_box_remove(gcast(ownRow ? buttonRow : timelineRow), item)
        }
        if ownRow {
            for item in timeline { gtk_box_append(gcast(timelineRow), item) }
        } else {
            var after = nextButton
            for item in timeline {
                gtk_box_insert_child_after(gcast(buttonRow), item, after)
                after = item
            }
        }
        for item in timeline { g_object_unref(UnsafeMutableRawPointer(item)) }
        gtk_widget_set_visible(timelineRow, ownRow ? 1 : 0)
        gtk_widget_set_halign(buttonRow, ownRow ? GTK_ALIGN_CENTER : GTK_ALIGN_FILL)
    }

    /// The folded controls as menu items: the same actions and menus as their buttons; volume
    /// as the menu's own slider and mute button.
    private func rebuildOverflowMenu() {
        let menu = ObjectRef<OpaquePointer>(taking: g_menu_new()!)
        if layout.folds(.previousNext) {
            let section = g_menu_new()!
            g_menu_append(section, tr("Previous"), "app.previous")
            g_menu_append(section, tr("Next"), "app.next")
            g_menu_append_section(menu.pointer, nil, gcast(section))
            g_object_unref(UnsafeMutableRawPointer(section))
        }
        if layout.folds(.speed) { g_menu_append_submenu(menu.pointer, tr("Playback Speed"), gcast(rateMenu.pointer)) }
        menuHasTracks = layout.folds(.tracks) && tracksAvailable
        if menuHasTracks { g_menu_append_submenu(menu.pointer, tr("Subtitles and Sound Tracks"), gcast(tracksMenu.pointer)) }
        if layout.folds(.volume) {
            let section = g_menu_new()!
            let item = g_menu_item_new(nil, nil)!
            g_menu_item_set_attribute_value(item, "custom", g_variant_new_string("volume"))
            g_menu_append_item(section, item)
            g_object_unref(UnsafeMutableRawPointer(item))
            g_menu_append_section(menu.pointer, tr("Volume"), gcast(section))
            g_object_unref(UnsafeMutableRawPointer(section))
        }
        // A new model makes a new popover menu: the volume pair moves into it.
        if gtk_widget_get_parent(foldedVolume.widget) != nil, let old = gtk_menu_button_get_popover(gcast(overflowButton)) {
            gtk_popover_menu_remove_child(gcast(old), foldedVolume.widget)
        }
        gtk_menu_button_set_menu_model(gcast(overflowButton), gcast(menu.pointer))
        if layout.folds(.volume), let popover = gtk_menu_button_get_popover(gcast(overflowButton)) {
            gtk_popover_menu_add_child(gcast(popover), foldedVolume.widget, "volume")
        }
    }
}
