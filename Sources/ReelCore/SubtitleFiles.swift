// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Subtitles that come with a video as a file of the same name beside it (`film.mkv` and
/// `film.srt`), as most players pick them up.
public enum SubtitleFiles {
    public static let extensions = ["srt", "vtt", "ass", "ssa", "sub"]

    /// The URI of the subtitle file beside a local video, if there is one.
    public static func beside(_ uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        let base = url.deletingPathExtension()
        for ext in extensions {
            let candidate = base.appendingPathExtension(ext)
            if candidate != url, FileManager.default.isReadableFile(atPath: candidate.path) { return candidate.absoluteString }
        }
        return nil
    }
}
