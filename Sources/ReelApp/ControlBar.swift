import CGio
import CGtk
import CShims
import ReelCore
import ReelGLib

/// The transport controls: skip back, play/pause, skip forward, elapsed time, the seek slider,
/// total (or remaining) time, speed and volume. Buttons fire application actions, so the same
/// commands serve clicks, shortcuts and D-Bus.
@MainActor
final class ControlBar {
    let widget: Widget
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
    private let volumeScale: Widget
    private let muteButton: Widget
    let slider: SeekSlider
    private var showsRemaining = false
    private var updatingVolume = false

    static let rates: [Double] = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 1.8, 2, 3]

    init(model: PlayerModel, skipInterval: @escaping @MainActor () -> Seconds) {
        self.model = model
        let back = UI.iconButton("media-seek-backward-symbolic", tooltip: tr("Back 10 Seconds"), action: "app.skip-backward")
        playButton = UI.iconButton("media-playback-start-symbolic", tooltip: tr("Play"), action: "app.play-pause")
        let forward = UI.iconButton("media-seek-forward-symbolic", tooltip: tr("Forward 10 Seconds"), action: "app.skip-forward")
        UI.addClasses(playButton, "circular")
        previousButton = UI.iconButton("media-skip-backward-symbolic", tooltip: tr("Previous"), action: "app.previous")
        nextButton = UI.iconButton("media-skip-forward-symbolic", tooltip: tr("Next"), action: "app.next")

        elapsedLabel = UI.label(TimeFormat.unknown, classes: ["time", "numeric"])
        slider = SeekSlider(model: model, skipInterval: skipInterval)
        totalButton = gtk_button_new_with_label(TimeFormat.unknown)!
        UI.addClasses(totalButton, "flat", "time", "numeric")
        UI.setTooltip(totalButton, tr("Show Remaining Time"))

        rateButton = gtk_menu_button_new()!
        gtk_menu_button_set_label(gcast(rateButton), Self.rateText(1))
        UI.setTooltip(rateButton, tr("Playback Speed"))
        let menu = g_menu_new()!
        for rate in Self.rates {
            let item = g_menu_item_new(Self.rateText(rate), nil)!
            g_menu_item_set_action_and_target_value(item, "app.rate", g_variant_new_double(rate))
            g_menu_append_item(menu, item)
            g_object_unref(UnsafeMutableRawPointer(item))
        }
        gtk_menu_button_set_menu_model(gcast(rateButton), gcast(menu))
        g_object_unref(UnsafeMutableRawPointer(menu))

        tracksButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(gcast(tracksButton), "media-view-subtitles-symbolic")
        UI.setTooltip(tracksButton, tr("Subtitles and Sound Tracks"))
        g_menu_append_section(tracksMenu.pointer, tr("Sound"), gcast(soundSection.pointer))
        g_menu_append_section(tracksMenu.pointer, tr("Subtitles"), gcast(subtitlesSection.pointer))
        gtk_menu_button_set_menu_model(gcast(tracksButton), gcast(tracksMenu.pointer))

        volumeScale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 1, 0.05)!
        gtk_scale_set_draw_value(gcast(volumeScale), 0)
        gtk_widget_set_size_request(volumeScale, 160, -1)
        UI.setTooltip(volumeScale, tr("Volume"))
        muteButton = UI.iconButton("audio-volume-muted-symbolic", tooltip: tr("Mute"), action: "app.toggle-mute")
        let popover = gtk_popover_new()!
        gtk_popover_set_child(gcast(popover), UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [muteButton, volumeScale]))
        volumeButton = gtk_menu_button_new()!
        gtk_menu_button_set_popover(gcast(volumeButton), popover)
        gtk_menu_button_set_icon_name(gcast(volumeButton), "audio-volume-high-symbolic")
        UI.setTooltip(volumeButton, tr("Volume"))

        transport = [back, playButton, forward, slider.widget]
        let bar = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6,
                         [previousButton, back, playButton, forward, nextButton, elapsedLabel, slider.widget, totalButton,
                          rateButton, tracksButton, volumeButton])
        UI.addClasses(bar, "toolbar", "osd", "controls")
        gtk_widget_set_valign(bar, GTK_ALIGN_END)
        widget = bar

        UI.onClicked(totalButton) { [weak self] in
            guard let self else { return }
            self.showsRemaining.toggle()
            UI.setTooltip(self.totalButton, self.showsRemaining ? tr("Show Total Time") : tr("Show Remaining Time"))
            self.updateTime()
        }
        connectMainSignal(volumeScale, "value-changed") { [weak self] _ in
            guard let self, !self.updatingVolume else { return }
            model.setVolume(gtk_range_get_value(gcast(self.volumeScale)))
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
    }

    /// The sound tracks and subtitles of the media, as radio items of `app.audio-track` and
    /// `app.subtitle-track` (-1: off), and a way to add subtitles from a file.
    private func updateTracksMenu() {
        let audio = model.media?.audioTracks ?? [], subtitles = model.media?.subtitleTracks ?? []
        gtk_widget_set_visible(tracksButton, model.media?.hasVideo ?? false ? 1 : 0)
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
        updatingVolume = true
        defer { updatingVolume = false }
        gtk_range_set_value(gcast(volumeScale), model.volume)
        gtk_button_set_icon_name(gcast(muteButton), model.isMuted ? "audio-volume-high-symbolic" : "audio-volume-muted-symbolic")
        UI.setTooltip(muteButton, model.isMuted ? tr("Unmute") : tr("Mute"))
        let icon: String
        if model.isMuted || model.volume == 0 { icon = "audio-volume-muted-symbolic" }
        else if model.volume < 0.34 { icon = "audio-volume-low-symbolic" }
        else if model.volume < 0.67 { icon = "audio-volume-medium-symbolic" }
        else { icon = "audio-volume-high-symbolic" }
        gtk_menu_button_set_icon_name(gcast(volumeButton), icon)
    }
}
