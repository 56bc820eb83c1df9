import Foundation

/// Opening a folder queues the media files in it and in its folders, depth-first in the order a
/// person would number them ("clip 2" before "clip 10"), so a music library's albums stay
/// together (`Music/Artist/Album/01 Track.flac`).
public enum MediaFolder {
    /// File name extensions Reel queues from a folder (what GStreamer's usual plugins play).
    public static let mediaExtensions: Set<String> = [
        "3gp", "aac", "avi", "flac", "flv", "m2ts", "m4a", "m4v", "mka", "mkv", "mov", "mp3", "mp4", "mpeg", "mpg",
        "mts", "oga", "ogg", "ogv", "opus", "ts", "wav", "webm", "wma", "wmv",
    ]

    public struct EmptyFolder: Equatable, Sendable {
        public var name: String
        /// Whether folders inside it were looked in too.
        public var hadFolders: Bool

        public init(name: String, hadFolders: Bool) {
            self.name = name
            self.hadFolders = hadFolders
        }
    }

    public struct Expansion: Equatable, Sendable {
        public var uris: [String] = []
        /// Folders opened that held nothing Reel plays.
        public var emptyFolders: [EmptyFolder] = []
        /// Folders that could not be read, and links back to a folder already listed (a loop):
        /// skipped, each named once.
        public var unreadable: [String] = []
        public var loops: [String] = []
    }

    /// Replaces each local folder in `uris` by its media files, and with `recursive` those of
    /// the folders inside it (hidden files and folders left out); everything else passes through.
    public static func expand(_ uris: [String], recursive: Bool = true) -> Expansion {
        var result = Expansion()
        var visited = Set<String>()
        for uri in uris {
            guard let url = URL(string: uri), url.isFileURL, isDirectory(url.path) else {
                result.uris.append(uri)
                continue
            }
            var hadFolders = false
            let files = mediaFiles(in: url, recursive: recursive, visited: &visited, into: &result, hadFolders: &hadFolders)
            if files.isEmpty { result.emptyFolders.append(EmptyFolder(name: url.lastPathComponent, hadFolders: hadFolders)) }
            result.uris += files.map(\.absoluteString)
        }
        return result
    }

    /// Depth-first: a folder's entries in natural order, each folder's files where its name sorts.
    static func mediaFiles(in folder: URL, recursive: Bool, visited: inout Set<String>, into result: inout Expansion,
                           hadFolders: inout Bool) -> [URL] {
        // A folder reached twice (a link back up the tree) is listed once.
        guard visited.insert(folder.resolvingSymlinksInPath().path).inserted else {
            result.loops.append(folder.path)
            return []
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            result.unreadable.append(folder.path)
            return []
        }
        var files: [URL] = []
        for name in names.filter({ !$0.hasPrefix(".") }).sorted(by: naturalOrder) {
            let url = folder.appendingPathComponent(name)
            if isDirectory(url.path) {
                guard recursive else { continue }
                hadFolders = true
                files += mediaFiles(in: url, recursive: true, visited: &visited, into: &result, hadFolders: &hadFolders)
            } else if mediaExtensions.contains((name as NSString).pathExtension.lowercased()) {
                files.append(url)
            }
        }
        return files
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
