// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGtk
import ReelDiagnostics
import ReelGLib

/// The window's parts, as the diagnostics read them (see `DiagnosableWindow`).
extension PlayerWindow: DiagnosableWindow {
    var messageShown: String { stage.videoView.errorShown ?? toasts.lastMessage ?? "" }
    var toastShown: String { toasts.shownMessage ?? "" }
    var bufferingIndicator: Widget { stage.bufferingIndicator }
    var bufferingText: String { stage.bufferingText }
    var controlsRevealer: Widget { stage.hiding.revealer }
    var controlBar: Widget { stage.controls.widget }
    var namedControls: [(String, Widget)] { stage.controls.namedControls }
    var seekSlider: Widget { stage.controls.slider.widget }
    var errorPage: Widget { stage.videoView.errorPage }
    var subtitleLabel: Widget { stage.subtitleLabel }
    var emptyPage: Widget { gtk_stack_get_child_by_name(gcast(content), "empty") }
    var videoPicture: Widget { stage.videoView.picture }
    var queueRowTitles: [String] { queuePanel.rowTitles }
    var queueRowsMade: Int { queuePanel.rowCount }
    var queueFilterDuration: Double { queuePanel.lastFilterDuration }
    var queueURIs: [String] { model.queue.items.map(\.uri) }
    var transcriptLines: [String] { side.transcript.shownLines }
    var transcriptHighlight: String? { side.transcript.highlightedLine }
    var secondSubtitleShown: String { stage.secondSubtitleShown }
    var headerSubtitle: String { subtitleShown }
    var highContrast: Bool { adw_style_manager_get_high_contrast(adw_style_manager_get_default()) != 0 }
    var seekPreview: Widget { stage.preview.widget }
    var seekPreviewText: String { stage.preview.text }
    var seekPreviewShowsFrame: Bool { stage.preview.showsFrame }
    var seekPreviewTimes: (shows: Double, frame: Double, frameShownAt: Int64) {
        (stage.preview.time ?? -1, stage.preview.frameShownFor?.time ?? -1, stage.preview.frameShownFor?.at ?? -1)
    }
}
