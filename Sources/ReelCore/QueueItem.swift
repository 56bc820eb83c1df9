// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// One entry of the play queue. The id is unique for the life of the process, so the same file
/// queued twice is two entries (MPRIS track ids are derived from it).
public struct QueueItem: Equatable, Hashable, Sendable, Identifiable {
    public let id: Int
    public let uri: String
    /// The name a playlist gave the entry, if it did.
    public let title: String?

    public init(id: Int, uri: String, title: String? = nil) {
        self.id = id
        self.uri = uri
        self.title = title
    }

    /// The title when tags give none: the playlist's name for the entry, or the file name
    /// without its extension (or the last URL segment).
    public var fallbackTitle: String {
        if let title, !title.isEmpty { return title }
        let name: String
        if let url = URL(string: uri), let last = url.pathComponents.last, last != "/" {
            name = last
        } else {
            name = uri
        }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return String(name[..<dot])
        }
        return name.isEmpty ? uri : name
    }

    public var isLocalFile: Bool { uri.hasPrefix("file:") }

    /// Where the item comes from, in words: the folder holding a file, or a stream's host.
    public var source: String? {
        guard let url = URL(string: uri) else { return nil }
        if url.isFileURL {
            let folder = url.deletingLastPathComponent().lastPathComponent
            return folder.isEmpty || folder == "/" ? nil : folder
        }
        return url.host
    }

    /// The file name for file URIs (the whole URI otherwise), for messages that name the item.
    public var displayName: String {
        if let url = URL(string: uri), url.isFileURL, let last = url.pathComponents.last { return last }
        return uri
    }
}

/// Turns what a user typed or dropped (a path, relative or absolute, or a URI) into a URI.
public enum MediaLocation {
    public static let supportedSchemes = ["file", "http", "https"]

    public static func uri(for argument: String, relativeTo directory: String) -> String {
        if let colon = argument.firstIndex(of: ":"),
           argument[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
           argument[argument.index(after: colon)...].hasPrefix("//") {
            return argument
        }
        let path = argument.hasPrefix("/") ? argument : directory + "/" + argument
        return URL(fileURLWithPath: path).standardizedFileURL.absoluteString
    }

    /// The scheme of a URI, lower-cased, or nil when it has none.
    public static func scheme(of uri: String) -> String? {
        guard let colon = uri.firstIndex(of: ":") else { return nil }
        let scheme = uri[..<colon]
        guard let first = scheme.first, first.isLetter,
              scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return nil }
        return scheme.lowercased()
    }

    public static func isSupported(_ uri: String) -> Bool {
        scheme(of: uri).map(supportedSchemes.contains) ?? false
    }
}
