// SPDX-License-Identifier: GPL-3.0-or-later
/// The media types Reel opens: the Open dialog's filter, the desktop file's MimeType list and
/// MPRIS SupportedMimeTypes all read this one list.
enum MediaTypes {
    static let mimeTypes = [
        "video/mp4", "video/x-matroska", "video/webm", "video/quicktime", "video/x-msvideo",
        "video/mpeg", "video/ogg", "video/x-flv", "video/3gpp", "video/x-ms-wmv", "video/mp2t",
        "audio/mpeg", "audio/mp4", "audio/x-m4a", "audio/ogg", "audio/flac", "audio/x-flac",
        "audio/x-wav", "audio/wav", "audio/webm", "audio/x-matroska", "audio/aac", "audio/opus",
        // Playlists (PlaylistFile), radio stations' among them.
        "audio/x-mpegurl", "application/vnd.apple.mpegurl", "audio/x-scpls", "application/xspf+xml", "audio/x-ms-asx",
    ]
}
