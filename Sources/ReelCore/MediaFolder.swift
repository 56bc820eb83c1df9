import Foundation

/// Opening a folder queues the media files in it, in the order a person would number them
/// ("clip 2" before "clip 10").
public enum MediaFolder {
    /// File name extensions Reel queues from a folder (what GStreamer's usual plugins play).
    public static let mediaExtensions: Set<String> = [
        "3gp", "aac", "avi", "flac", "flv", "m2ts", "m4a", "m4v", "mka", "mkv", "mov", "mp3", "mp4", "mpeg", "mpg",
        "mts", "oga", "ogg", "ogv", "opus", "ts", "wav", "webm", "wma", "wmv",
    ]

    public struct Expansion: Equatable, Sendable {
        public var uris: [String]
        /// Folders that held nothing Reel plays.
        public var emptyFolders: [String]
    }

    /// Replaces each local folder in `uris` by its media files (not descending into subfolders);
    /// everything else passes through unchanged.
    public static func expand(_ uris: [String]) -> Expansion {
        var result = Expansion(uris: [], emptyFolders: [])
        for uri in uris {
            guard let url = URL(string: uri), url.isFileURL, isDirectory(url.path) else {
                result.uris.append(uri)
                continue
            }
            let files = mediaFiles(in: url)
            if files.isEmpty { result.emptyFolders.append(url.lastPathComponent) }
            result.uris += files.map(\.absoluteString)
        }
        return result
    }

    static func mediaFiles(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names
            .filter { !$0.hasPrefix(".") && mediaExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted(by: naturalOrder)
            .map { folder.appendingPathComponent($0) }
            .filter { !isDirectory($0.path) }
    }

    /// Digits compare as numbers, letters without regard to case.
    public static func naturalOrder(_ a: String, _ b: String) -> Bool {
        let order = a.compare(b, options: [.numeric, .caseInsensitive])
        return order == .orderedSame ? a < b : order == .orderedAscending
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
