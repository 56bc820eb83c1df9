// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGtk
import CShims
import ReelCore
import ReelGLib

/// The speed button: the rate as its label, a menu of common rates (`app.rate`). The overflow
/// menu shows the same menu when the button is folded.
@MainActor
final class RateButton {
    static let rates: [Double] = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 1.8, 2, 3]
    let widget: Widget = gtk_menu_button_new()!
    let menu = ObjectRef<OpaquePointer>(taking: g_menu_new()!)

    init() {
        show(rate: 1)
        UI.setTooltip(widget, tr("Playback Speed"))
        for rate in Self.rates {
            let item = g_menu_item_new(Self.text(rate), nil)!
            g_menu_item_set_action_and_target_value(item, "app.rate", g_variant_new_double(rate))
            g_menu_append_item(menu.pointer, item)
            g_object_unref(UnsafeMutableRawPointer(item))
        }
        gtk_menu_button_set_menu_model(gcast(widget), gcast(menu.pointer))
    }

    func show(rate: Double) {
        gtk_menu_button_set_label(gcast(widget), Self.text(rate))
        // GTK 4.8 names the button inside a menu button after its label alone ("1×"): what it is, then its value.
        guard let button = gtk_widget_get_first_child(widget) else { return }
        gtk_accessible_reset_relation(gcast(button), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
        UI.setAccessibleLabel(button, tr("Playback Speed") + " " + Self.text(rate))
    }

    /// "1×", "1.25×", "0.5×".
    static func text(_ rate: Double) -> String {
        let hundredths = Int((rate * 100).rounded())
        var text = "\(hundredths / 100)"
        if hundredths % 100 != 0 {
            let fraction = hundredths % 100
            text += "." + (fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)"))
        }
        return text + "×"
    }
}

/// The subtitles and sound tracks button: the media's tracks as radio items of
/// `app.audio-track` and `app.subtitle-track` (-1: off), and a way to add subtitles from a file.
@MainActor
final class TracksButton {
    let widget: Widget = gtk_menu_button_new()!
    let menu = ObjectRef<OpaquePointer>(taking: g_menu_new()!)
    /// A sound section (empty, and so hidden, unless there is a choice) and a subtitles section,
    /// whose items are replaced when the tracks change. Workaround (GTK 4.8's menu tracker): new
    /// sections each time were not all freed, GObjects counted over 1000 item changes grew by
    /// 90 GMenus, every one a section made here; goes when that count stays flat.
    private let sections = (sound: ObjectRef<OpaquePointer>(taking: g_menu_new()!),
                            subtitles: ObjectRef<OpaquePointer>(taking: g_menu_new()!),
                            second: ObjectRef<OpaquePointer>(taking: g_menu_new()!))
    private var shown: (audio: [MediaTrack], subtitles: [MediaTrack])?

    init() {
        gtk_menu_button_set_icon_name(gcast(widget), "media-view-subtitles-symbolic")
        UI.setTooltip(widget, tr("Subtitles and Sound Tracks"))
        g_menu_append_section(menu.pointer, tr("Sound"), gcast(sections.sound.pointer))
        g_menu_append_section(menu.pointer, tr("Subtitles"), gcast(sections.subtitles.pointer))
        let delay = ObjectRef<OpaquePointer>(taking: g_menu_new()!)
        g_menu_append(delay.pointer, tr("Show Subtitles Earlier"), "app.subtitles-earlier")
        g_menu_append(delay.pointer, tr("Show Subtitles Later"), "app.subtitles-later")
        g_menu_append(delay.pointer, tr("No Subtitle Delay"), "app.subtitles-no-delay")
        g_menu_append_section(menu.pointer, tr("Subtitle Delay"), gcast(delay.pointer))
        // The second track, drawn at the top of the picture: an embedded track, or a file.
        g_menu_append_section(menu.pointer, tr("Second Subtitles"), gcast(sections.second.pointer))
        let lines = ObjectRef<OpaquePointer>(taking: g_menu_new()!)
        g_menu_append(lines.pointer, tr("Loop Each Line"), "app.loop-lines")
        g_menu_append(lines.pointer, tr("Pause After Each Line"), "app.pause-after-lines")
        g_menu_append_section(menu.pointer, tr("Line by Line"), gcast(lines.pointer))
        gtk_menu_button_set_menu_model(gcast(widget), gcast(menu.pointer))
    }

    func show(_ media: MediaInfo?) {
        let audio = media?.audioTracks ?? [], subtitles = media?.subtitleTracks ?? []
        if let shown, shown.audio == audio, shown.subtitles == subtitles { return }
        shown = (audio, subtitles)
        func fill(_ section: OpaquePointer, _ items: [(String, String, OpaquePointer?)]) {
            g_menu_remove_all(section)
            for (label, action, target) in items {
                let item = g_menu_item_new(label, nil)!
                g_menu_item_set_action_and_target_value(item, action, target)
                g_menu_append_item(section, item)
                g_object_unref(UnsafeMutableRawPointer(item))
            }
        }
        fill(sections.sound.pointer, audio.count > 1
             ? audio.enumerated().map { (Self.label(for: $1, number: $0 + 1), "app.audio-track", g_variant_new_int32(Int32($1.index))) }
             : [])
        fill(sections.subtitles.pointer, [(tr("Off"), "app.subtitle-track", g_variant_new_int32(-1))] +
             subtitles.enumerated().map { (Self.label(for: $1, number: $0 + 1), "app.subtitle-track", g_variant_new_int32(Int32($1.index))) } +
             [(tr("Add Subtitles From a File…"), "app.open-subtitles", nil)])
        fill(sections.second.pointer, [(tr("No Second Subtitles"), "app.second-subtitles", g_variant_new_string(""))] +
             subtitles.enumerated().map { (Self.label(for: $1, number: $0 + 1), "app.second-subtitle-track", g_variant_new_int32(Int32($1.index))) } +
             [(tr("Second Subtitles From a File…"), "app.open-second-subtitles", nil)])
    }

    /// "English", "Commentary — English", or "Track 2" when the media says nothing.
    static func label(for track: MediaTrack, number: Int) -> String {
        let parts = [track.title, track.language].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? String(format: tr("Track %d"), number) : parts.joined(separator: " — ")
    }
}

/// The volume button: its icon follows the level, its popover holds the volume controls.
@MainActor
final class VolumeButton {
    let widget: Widget = gtk_menu_button_new()!
    private let controls: VolumeControls
    private let model: PlayerModel

    init(model: PlayerModel) {
        self.model = model
        controls = VolumeControls(model: model)
        let popover = gtk_popover_new()!
        gtk_popover_set_child(gcast(popover), controls.widget)
        gtk_menu_button_set_popover(gcast(widget), popover)
        UI.setTooltip(widget, tr("Volume"))
        update()
    }

    func update() {
        controls.update()
        let icon: String
        if model.isMuted || model.volume == 0 { icon = "audio-volume-muted-symbolic" }
        else if model.volume < 0.34 { icon = "audio-volume-low-symbolic" }
        else if model.volume < 0.67 { icon = "audio-volume-medium-symbolic" }
        else { icon = "audio-volume-high-symbolic" }
        gtk_menu_button_set_icon_name(gcast(widget), icon)
    }
}

/// "More Controls": the controls folded out of a narrow bar, as menu items with the same
/// actions and menus as their buttons; volume as the menu's own slider and mute button.
@MainActor
final class OverflowButton {
    /// What the menu holds.
    struct Contents: Equatable {
        var previousNext = false
        var speed = false
        var tracks = false
        var volume = false
    }

    let widget: Widget = gtk_menu_button_new()!
    private let volume: VolumeControls
    private var shown: Contents?

    init(model: PlayerModel) {
        volume = VolumeControls(model: model)
        gtk_menu_button_set_icon_name(gcast(widget), "view-more-symbolic")
        UI.setTooltip(widget, tr("More Controls"))
    }

    func updateVolume() { volume.update() }

    func show(_ contents: Contents, rateMenu: OpaquePointer, tracksMenu: OpaquePointer) {
        guard contents != shown else { return }
        shown = contents
        let menu = ObjectRef<OpaquePointer>(taking: g_menu_new()!)
        if contents.previousNext {
            let section = g_menu_new()!
            g_menu_append(section, tr("Previous"), "app.previous")
            g_menu_append(section, tr("Next"), "app.next")
            g_menu_append_section(menu.pointer, nil, gcast(section))
            g_object_unref(UnsafeMutableRawPointer(section))
        }
        if contents.speed { g_menu_append_submenu(menu.pointer, tr("Playback Speed"), gcast(rateMenu)) }
        if contents.tracks { g_menu_append_submenu(menu.pointer, tr("Subtitles and Sound Tracks"), gcast(tracksMenu)) }
        if contents.volume {
            let section = g_menu_new()!
            let item = g_menu_item_new(nil, nil)!
            g_menu_item_set_attribute_value(item, "custom", g_variant_new_string("volume"))
            g_menu_append_item(section, item)
            g_object_unref(UnsafeMutableRawPointer(item))
            g_menu_append_section(menu.pointer, tr("Volume"), gcast(section))
            g_object_unref(UnsafeMutableRawPointer(section))
        }
        // A new model makes a new popover menu: the volume pair moves into it.
        if gtk_widget_get_parent(volume.widget) != nil, let old = gtk_menu_button_get_popover(gcast(widget)) {
            gtk_popover_menu_remove_child(gcast(old), volume.widget)
        }
        gtk_menu_button_set_menu_model(gcast(widget), gcast(menu.pointer))
        if contents.volume, let popover = gtk_menu_button_get_popover(gcast(widget)) {
            gtk_popover_menu_add_child(gcast(popover), volume.widget, "volume")
        }
    }
}

/// The elapsed time (or the countdown to the next play, during a gap) and the total time, which
/// a click turns into the time remaining.
@MainActor
final class TimeLabels {
    let elapsed = UI.label(TimeFormat.unknown, classes: ["reel-time", "numeric"])
    let total: Widget = gtk_button_new_with_label(TimeFormat.unknown)!
    private var showsRemaining = false
    private var totalShown = ""
    private let model: PlayerModel

    init(model: PlayerModel) {
        self.model = model
        UI.addClasses(total, "flat", "reel-time", "numeric")
        describeTotal()
        UI.onClicked(total) { [weak self] in
            guard let self else { return }
            self.showsRemaining.toggle()
            self.describeTotal()
            self.totalShown = ""
            self.update()
        }
    }

    private func describeTotal() {
        let does = showsRemaining ? tr("Show Total Time") : tr("Show Remaining Time")
        gtk_widget_set_tooltip_text(total, does)
        UI.setAccessibleProperty(total, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, does)
    }

    func update() {
        // A live stream has no time to tell: a badge says what it is.
        gtk_widget_set_visible(total, model.isLive ? 0 : 1)
        (model.isLive ? gtk_widget_add_css_class : gtk_widget_remove_css_class)(elapsed, "reel-live")
        if model.isLive {
            gtk_label_set_text(gcast(elapsed), tr("Live"))
        } else if let remaining = model.gapRemaining {
            let seconds = Int(remaining.rounded(.up))
            gtk_label_set_text(gcast(elapsed), String(format: trn("Next in %d second", "Next in %d seconds", seconds), seconds))
        } else {
            gtk_label_set_text(gcast(elapsed), model.duration == nil && model.currentItem == nil
                               ? TimeFormat.unknown : TimeFormat.string(model.position))
        }
        let shown = showsRemaining ? TimeFormat.remaining(position: model.position, duration: model.duration)
                                   : TimeFormat.string(model.duration)
        guard shown != totalShown else { return }
        totalShown = shown
        gtk_button_set_label(gcast(total), shown)
        // The button's label would be its accessible name ("0:20"): say what the time is; what
        // a click does is its description, the tooltip.
        UI.setAccessibleLabel(total, String(format: showsRemaining ? tr("Time remaining: %@") : tr("Total time: %@"), shown))
    }
}
