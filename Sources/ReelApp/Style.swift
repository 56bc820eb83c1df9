/// The few style rules Reel adds to libadwaita's.
enum Style {
    static let css = """
    .video-area { background-color: black; }
    .controls { margin: 12px; padding: 6px 12px; border-radius: 12px; }
    .time { font-feature-settings: "tnum"; min-width: 4em; }
    .audio-title { color: white; font-size: 1.4em; font-weight: bold; }
    .video-area .error-page { color: white; }
    .buffering-indicator { padding: 18px 24px; border-radius: 12px; }
    .subtitle { color: white; font-size: 1.6em; background-color: alpha(black, 0.6); padding: 2px 10px; border-radius: 6px; }
    """
}
