// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGio
import CGtk
import CShims
import ReelCore
import ReelGLib

/// The picture area: the video (letterboxed on black), or for audio-only media the cover art
/// (or a placeholder with the title).
@MainActor
final class VideoView {
    let widget: Widget
    private let stack: Widget
    private let cover: Widget
    private let audioTitle: Widget
    private let audioBox: Widget
    let errorPage: Widget
    let picture: Widget

    init(paintable: OpaquePointer) {
        picture = gtk_picture_new_for_paintable(gcast(paintable))!
        // The frame sink makes frames the size they are drawn at, in device pixels, and the
        // paintable draws them the way the window's renderer takes them fastest.
        let picture = picture
        let updateDrawing = {
            reel_video_paintable_set_scale_factor(paintable, gtk_widget_get_scale_factor(picture))
            reel_video_paintable_set_draw_with_cairo(paintable, reel_widget_renders_with_cairo(picture))
            reel_x11_hold_upload_pool(picture)
        }
        connectMainSignal(picture, "map") { _ in updateDrawing() }
        connectMainSignal(picture, "notify::scale-factor") { _ in updateDrawing() }
        gtk_picture_set_content_fit(gcast(picture), GTK_CONTENT_FIT_CONTAIN)
        gtk_picture_set_can_shrink(gcast(picture), 1)
        // Filling the window draws the picture past its edges: cut there.
        gtk_widget_set_overflow(picture, GTK_OVERFLOW_HIDDEN)
        UI.setAccessibleLabel(picture, tr("Video"))

        cover = gtk_picture_new()!
        gtk_picture_set_can_shrink(gcast(cover), 1)
        gtk_widget_set_size_request(cover, 64, 64)
        gtk_widget_set_vexpand(cover, 1)
        audioTitle = UI.label(classes: ["reel-audio-title"])
        gtk_label_set_ellipsize(gcast(audioTitle), PANGO_ELLIPSIZE_END)
        audioBox = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 18, [cover, audioTitle])
        gtk_widget_set_margin_top(audioBox, 48)

        errorPage = adw_status_page_new()!
        adw_status_page_set_icon_name(gcast(errorPage), "dialog-warning-symbolic")
        UI.addClasses(errorPage, "reel-error-page")

        stack = gtk_stack_new()!
        gtk_stack_add_named(gcast(stack), picture, "video")
        gtk_stack_add_named(gcast(stack), audioBox, "audio")
        gtk_stack_add_named(gcast(stack), errorPage, "error")
        UI.addClasses(stack, "reel-video-area")
        gtk_widget_set_vexpand(stack, 1)
        gtk_widget_set_hexpand(stack, 1)
        widget = stack
    }

    /// Fills the window with the picture, its edges cropped, rather than letterboxing it.
    func fill(_ fills: Bool) {
        gtk_picture_set_content_fit(gcast(picture), fills ? GTK_CONTENT_FIT_COVER : GTK_CONTENT_FIT_CONTAIN)
    }

    /// Keeps the error page and the audio-only cover clear of the control bar, `height` tall.
    func setBottomInset(_ height: Int32) {
        gtk_widget_set_margin_bottom(errorPage, height)
        gtk_widget_set_margin_bottom(audioBox, height + 24)
    }

    /// An item that cannot be played says why where its picture would be.
    func show(error: PlaybackError) {
        // Status page text is Pango markup: escape what comes from file names.
        adw_status_page_set_title(gcast(errorPage), UI.escapeMarkup(tr("Cannot Play This File")))
        adw_status_page_set_description(gcast(errorPage), UI.escapeMarkup(Self.shorteningQuotedNames(in: error.message)))
        gtk_widget_set_tooltip_text(errorPage, error.message)
        gtk_stack_set_visible_child_name(gcast(stack), "error")
    }

    /// Names in quotes (“…”, or those the translations use: 「…」, «…», »…«, „…”, and ”…“ in
    /// Arabic) longer than `limit` characters keep their start and end (the extension) around an
    /// ellipsis, so a long file name cannot fill the page. The first opening quote decides.
    static func shorteningQuotedNames(in message: String, limit: Int = 48) -> String {
        let quotes: [(Character, Character)] = [("“", "”"), ("「", "」"), ("『", "』"), ("«", "»"), ("»", "«"), ("„", "”"),
                                                 ("”", "“")]
        var result = "", rest = Substring(message)
        while let (open, closing) = quotes.compactMap({ pair in rest.firstIndex(of: pair.0).map { ($0, pair.1) } })
                .min(by: { $0.0 < $1.0 }),
              let close = rest[open...].firstIndex(of: closing) {
            let name = rest[rest.index(after: open)..<close]
            result += rest[...open]
            result += name.count <= limit ? String(name) : "\(name.prefix(limit / 2))…\(name.suffix(limit / 2 - 1))"
            rest = rest[close...]
        }
        return result + rest
    }

    /// The error the video area shows, as the user reads it; nil when it shows no error.
    var errorShown: String? {
        guard let visible = gtk_stack_get_visible_child_name(gcast(stack)), String(cString: visible) == "error",
              let description = adw_status_page_get_description(gcast(errorPage)) else { return nil }
        return UI.unescapeMarkup(String(cString: description))
    }

    func show(media: MediaInfo?, title: String) {
        guard let media, media.isAudioOnly else {
            gtk_stack_set_visible_child_name(gcast(stack), "video")
            return
        }
        gtk_label_set_text(gcast(audioTitle), title)
        if let art = media.coverArt, let texture = Self.texture(from: art) {
            gtk_picture_set_paintable(gcast(cover), gcast(texture))
            g_object_unref(texture.raw)
        } else {
            let icon = gtk_icon_theme_lookup_icon(gtk_icon_theme_get_for_display(gdk_display_get_default()),
                                                  "audio-x-generic-symbolic", nil, 128, 1,
                                                  GTK_TEXT_DIR_NONE, GtkIconLookupFlags(rawValue: 0))
            gtk_picture_set_paintable(gcast(cover), gcast(icon))
            if let icon { g_object_unref(UnsafeMutableRawPointer(icon)) }
        }
        gtk_stack_set_visible_child_name(gcast(stack), "audio")
    }

    private static func texture(from art: CoverArt) -> OpaquePointer? {
        art.bytes.withUnsafeBytes { raw in
            let bytes = g_bytes_new(raw.baseAddress, gsize(raw.count))
            defer { g_bytes_unref(bytes) }
            return gdk_texture_new_from_bytes(bytes, nil)
        }
    }
}
