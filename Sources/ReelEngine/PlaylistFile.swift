// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CShims
import Dispatch
import Foundation
import ReelCore
import ReelGLib

/// Playlist files, read and written by totem-pl-parser (GNOME's, what Totem uses): M3U and
/// M3U8 with their titles, PLS, XSPF, ASX. Relative entries resolve against the playlist's
/// folder, URLs stay as they are, a playlist inside a playlist is expanded.
public enum PlaylistFile {
    /// What a playlist file is called; the engine reads these before GStreamer sees them.
    public static let extensions: Set<String> = ["m3u", "m3u8", "pls", "xspf", "asx", "wax", "wvx"]
    private static let reader = DispatchQueue(label: "org.reelplayer.Reel.playlists", attributes: .concurrent)

    public static func isPlaylist(_ uri: String) -> Bool {
        // The path's extension, a query or fragment left out (…/listen.pls?sid=1).
        let path = uri.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "#", maxSplits: 1).first ?? $0 } ?? ""
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return extensions.contains(path[path.index(after: dot)...].lowercased())
    }

    /// Reads `uri` on a thread of its own (a URL is downloaded) and hands the result to `done`
    /// on the main loop: nil when it is no playlist after all (an HLS stream's .m3u8), or an
    /// address GIO cannot read (without gvfs, GIO reads no http: GStreamer then tries it, and
    /// says what went wrong in its own words).
    static func read(_ uri: String, done: @escaping @MainActor (PlaylistContents?) -> Void) {
        reader.async {
            let contents = contents(of: uri)
            runSoon { done(contents) }
        }
    }

    /// Blocks: off the main thread only. Playlists inside are read in their place (totem-pl-parser
    /// leaves an M3U's to the player), each once: one that lists itself is not read forever.
    static func contents(of uri: String, reading: Set<String> = []) -> PlaylistContents? {
        let found = ParsedEntries()
        let result = withExtendedLifetime(found) {
            reel_playlist_read(uri, { uri, title, data in
                guard let uri, let data else { return }
                Unmanaged<ParsedEntries>.fromOpaque(data).takeUnretainedValue().entries
                    .append(PlaylistContents.Entry(uri: String(cString: uri), title: title.map { String(cString: $0) }))
            }, Unmanaged.passUnretained(found).toOpaque())
        }
        switch Int(result) {
        case Int(REEL_PLAYLIST_READ):
            var contents = PlaylistContents(uri: uri, entries: [])
            for entry in found.entries {
                if let path = localPath(entry.uri), access(path, R_OK) != 0 {
                    contents.missing.append((path as NSString).lastPathComponent)
                } else if isPlaylist(entry.uri), !reading.contains(entry.uri) {
                    let inner = Self.contents(of: entry.uri, reading: reading.union([uri]))
                    contents.entries += inner?.entries ?? [entry]
                    contents.missing += inner?.missing ?? []
                } else if entry.uri != uri, !reading.contains(entry.uri) {
                    contents.entries.append(entry)
                }
            }
            return contents
        case Int(REEL_PLAYLIST_BROKEN) where uri.hasPrefix("file:"):
            return PlaylistContents(uri: uri, entries: [], problem: tr("it could not be read."))
        default:
            return nil
        }
    }

    private static func localPath(_ uri: String) -> String? {
        guard uri.hasPrefix("file:") else { return nil }
        return takeString(g_filename_from_uri(uri, nil, nil))
    }

    public enum Format: Sendable { case m3u8, xspf }

    /// Writes `entries` as a playlist at `path`: paths relative to its folder where the files
    /// are under it, titles kept. Throws a message in words.
    public static func write(_ entries: [PlaylistContents.Entry], to path: String, format: Format, title: String) throws(PlaylistError) {
        var error: UnsafeMutablePointer<GError>?
        let uris = entries.map { strdup($0.uri) }
        let titles = entries.map { $0.title.flatMap { strdup($0) } }
        defer { (uris + titles).forEach { free($0) } }
        let saved = uris.map { UnsafePointer($0) }.withUnsafeBufferPointer { uriList in
            titles.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { titleList in
                reel_playlist_write(path, format == .xspf ? 1 : 0, title, uriList.baseAddress, titleList.baseAddress,
                                    guint(entries.count), &error)
            }
        }
        guard saved == 0 else { return }
        let reason = error.map { String(cString: $0.pointee.message) } ?? ""
        g_clear_error(&error)
        throw PlaylistError(message: reason)
    }

    public struct PlaylistError: Error, Sendable { public let message: String }
}

/// What the parser's callback collects, on the reading thread.
private final class ParsedEntries { var entries: [PlaylistContents.Entry] = [] }
