// SPDX-License-Identifier: GPL-3.0-or-later
/// The few style rules Reel adds to libadwaita's. Every rule names a class of Reel's own
/// ("reel-…"): libadwaita gives plain names such as `.subtitle` to its own widgets.
/// Without a compositor (an X server alone: openbox, xrdp) GTK draws a window's resize border
/// itself (`solid-csd`). Workaround (GTK 4.8 with libadwaita 1.2): they keep it in fullscreen, a
/// grey frame round the video, and frames made 18 px too narrow to take the converter's
/// unscaled path; goes when GTK drops `solid-csd` in fullscreen.
/// The control bar's menus are opaque: through the OSD's see-through one, where a compositor
/// blends it (GNOME Shell), the subtitle showed through their items.
enum Style {
    /// The control bar's distance from the window's edge, and its inner padding (each side).
    static let controlsMargin: Int32 = 12
    static let controlsPadding: Int32 = 12
    /// Between two controls in a row of the bar: the row's CSS border-spacing, which GtkBox
    /// adds to its own spacing property (left at 0 for those rows).
    static let controlsSpacing: Int32 = 6

    static let css = """
    .reel-video-area { background-color: black; }
    window.reel-window.solid-csd.fullscreen, window.reel-window.solid-csd.maximized { padding: 0; border: none; box-shadow: none; }
    .reel-controls { margin: \(controlsMargin)px; padding: 6px \(controlsPadding)px; border-radius: 12px; }
    .reel-controls-row { padding: 0; border-spacing: \(controlsSpacing)px; }
    .reel-controls popover > contents, .reel-controls popover > arrow { background-color: rgb(36, 36, 36); }
    .reel-time { font-feature-settings: "tnum"; min-width: 4em; }
    .reel-time.reel-live { font-weight: bold; color: @error_color; }
    .reel-audio-title { color: white; font-size: 1.4em; font-weight: bold; }
    .reel-video-area .reel-error-page { color: white; }
    .reel-buffering-indicator { padding: 18px 24px; border-radius: 12px; }
    .reel-seek-preview { padding: 6px; border-radius: 8px; }
    .reel-subtitle { color: white; font-size: 1.6em; background-color: alpha(black, 0.6); padding: 2px 10px; border-radius: 6px; }
    """
}
