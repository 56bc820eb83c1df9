// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The items played last, files and streams alike, with the titles they had, newest first: the
/// empty window lists them. Kept in a state file (`$XDG_STATE_HOME/reel/recent`), written whole
/// and atomically off the main thread; a file that cannot be read is set aside, never fatal.
@MainActor
public final class RecentItems {
    public struct Entry: Codable, Equatable, Sendable {
        public let uri: String
        public let title: String

        public init(uri: String, title: String) {
            self.uri = uri
            self.title = title
        }
    }

    public static let limit = 10
    /// The most characters of a title kept (a broken tag can hold thousands).
    public static let titleLimit = 200
    public private(set) var entries: [Entry] = []
    /// Why the file could not be read, when it could not (it was set aside).
    public private(set) var loadProblem: String?
    /// Called after every change of `entries`.
    public var onChange: (() -> Void)?
    /// Told when the file cannot be written (on the main thread).
    public var onProblem: (@MainActor (String) -> Void)?
    private let file: StateFile?
    private let writer = DispatchQueue(label: "org.reelplayer.Reel.recent", qos: .utility)

    /// `file` nil: kept in memory only.
    public init(file: StateFile?) {
        self.file = file
        guard let file, let data = file.read() else { return }
        do {
            entries = Array(try JSONDecoder().decode([Entry].self, from: data).prefix(Self.limit))
        } catch {
            let movedTo = file.setAside()
            loadProblem = "the recent items in \(file.path) could not be read and were set aside"
                + (movedTo.map { " as \($0)" } ?? "") + ": \(error)"
        }
    }

    /// `uri` played, under `title`: first in the list, once.
    public func add(uri: String, title: String) {
        let title = title.isEmpty ? QueueItem(id: 0, uri: uri).fallbackTitle : title
        let entry = Entry(uri: uri, title: title.count > Self.titleLimit ? String(title.prefix(Self.titleLimit - 1)) + "…" : title)
        guard entries.first != entry else { return }
        entries.removeAll { $0.uri == uri }
        entries.insert(entry, at: 0)
        if entries.count > Self.limit { entries.removeLast(entries.count - Self.limit) }
        changed()
    }

    public func clear() {
        guard !entries.isEmpty else { return }
        entries.removeAll()
        changed()
    }

    private func changed() {
        onChange?()
        guard let file, let data = try? JSONEncoder().encode(entries) else { return }
        writer.async { [weak self] in
            do { try file.write(data) } catch {
                let problem = "the recent items could not be saved in \(file.path): \(error)"
                DispatchQueue.main.async { MainActor.assumeIsolated { self?.onProblem?(problem) } }
            }
        }
    }

    /// Waits for the writes asked for so far (tests, and quitting).
    public func saved() { writer.sync {} }
}
