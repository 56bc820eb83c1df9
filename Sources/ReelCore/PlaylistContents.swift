// SPDX-License-Identifier: GPL-3.0-or-later
/// What a playlist file held, as the engine read it (`EngineEvent.playlist`): the model puts its
/// entries in the playlist's place in the queue.
public struct PlaylistContents: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var uri: String
        public var title: String?
        public init(uri: String, title: String? = nil) {
            self.uri = uri
            self.title = title
        }
    }

    /// The playlist's own.
    public var uri: String
    /// The entries that can be tried, in order, nested playlists expanded.
    public var entries: [Entry]
    /// Entries naming files that are not there, or cannot be read (their file names).
    public var missing: [String]
    /// Why nothing could be read, when nothing could.
    public var problem: String?

    public init(uri: String, entries: [Entry], missing: [String] = [], problem: String? = nil) {
        self.uri = uri
        self.entries = entries
        self.missing = missing
        self.problem = problem
    }
}
