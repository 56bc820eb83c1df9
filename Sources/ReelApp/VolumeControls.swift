// SPDX-License-Identifier: GPL-3.0-or-later
// CAdwaita as well as CGtk: in some compile batches Swift 6.3 finds GTK's enum constants only
// through the module that included GTK's (non-modular) headers first, and that is CAdwaita.
import CAdwaita
import CGtk
import CShims
import ReelCore
import ReelGLib

/// A mute button beside a volume slider, bound to the model.
@MainActor
final class VolumeControls {
    let widget: Widget
    private let scale: Widget
    private let muteButton: Widget
    private let model: PlayerModel
    private var updating = false

    init(model: PlayerModel) {
        self.model = model
        let range = PlayerModel.volumeRange
        scale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, range.lowerBound, range.upperBound, 0.05)!
        gtk_scale_set_draw_value(gcast(scale), 0)
        gtk_widget_set_size_request(scale, 200, -1)
        // Past the mark the sound is amplified (a limiter keeps it from clipping), as in VLC.
        gtk_scale_add_mark(gcast(scale), 1, GTK_POS_BOTTOM, tr("100 %"))
        UI.setTooltip(scale, tr("Volume"))
        muteButton = UI.iconButton("audio-volume-muted-symbolic", tooltip: tr("Mute"), action: "app.toggle-mute")
        widget = UI.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [muteButton, scale])
        // Kept across the overflow menu's rebuilds.
        g_object_ref_sink(UnsafeMutableRawPointer(widget))
        connectMainSignal(scale, "value-changed") { [weak self] _ in
            guard let self, !self.updating else { return }
            model.setVolume(gtk_range_get_value(gcast(self.scale)))
        }
    }

    func update() {
        updating = true
        defer { updating = false }
        gtk_range_set_value(gcast(scale), model.volume)
        // Translators: the volume as a screen reader says it, e.g. "80 %".
        UI.setValueText(scale, String(format: tr("%d %%"), Int((model.volume * 100).rounded())))
        gtk_button_set_icon_name(gcast(muteButton), model.isMuted ? "audio-volume-high-symbolic" : "audio-volume-muted-symbolic")
        UI.setTooltip(muteButton, model.isMuted ? tr("Unmute") : tr("Mute"))
    }
}
