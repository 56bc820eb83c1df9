import Foundation

/// The queue as the user left it, so Reel started again without files picks up where it
/// stopped: `$XDG_STATE_HOME/reel/queue.json`, rewritten atomically whenever the queue or its
/// current item changes (a `kill -9` loses nothing the file had). The writes, each ending in an
/// fsync, happen in order on a queue of their own: item changes every second or two must not
/// wait on the disk. A file that cannot be read is set aside with a warning, never fatal.
@MainActor
public final class SavedQueue {
    public struct Contents: Codable, Equatable, Sendable {
        public var uris: [String]
        /// Index into `uris` of the item that was current.
        public var current: Int?

        public init(uris: [String], current: Int?) {
            self.uris = uris
            self.current = current
        }
    }

    /// The most a saved queue keeps: a queue of thousands is a folder opened, not a list kept.
    static let capacity = 10_000

    private let file: StateFile
    private let writer = DispatchQueue(label: "org.reelplayer.Reel.saved-queue")
    /// What was saved last run (nil when nothing was, or it could not be read), then what was
    /// last handed to the writer.
    public private(set) var contents: Contents?
    /// What went wrong reading the file at start-up, for the log.
    public private(set) var problem: String?
    /// Called (on the writer's queue) when a write fails.
    public var onWriteFailure: (@Sendable (String) -> Void)?

    public init(file: StateFile) {
        self.file = file
        guard let data = file.read() else { return }
        do {
            var loaded = try JSONDecoder().decode(Contents.self, from: data)
            loaded.uris = Array(loaded.uris.prefix(Self.capacity))
            if let current = loaded.current, !loaded.uris.indices.contains(current) { loaded.current = nil }
            contents = loaded
        } catch {
            let movedTo = file.setAside()
            problem = "the saved queue in \(file.path) could not be read and was set aside"
                + (movedTo.map { " as \($0)" } ?? "") + ": \(error)"
        }
    }

    /// Keeps `queue` for the next run; nothing is written when it has not changed.
    public func save(_ queue: PlaybackQueue) {
        let uris = Array(queue.items.prefix(Self.capacity).map(\.uri))
        let current = queue.currentIndex.flatMap { $0 < uris.count ? $0 : nil }
        let new = Contents(uris: uris, current: current)
        guard new != contents, let data = try? JSONEncoder().encode(new) else { return }
        contents = new
        let file = self.file, onWriteFailure = self.onWriteFailure
        writer.async {
            do {
                try file.write(data)
            } catch {
                // Losing the saved queue is not worth interrupting playback for.
                onWriteFailure?("the queue could not be saved to \(file.path): \(error)")
            }
        }
    }

    /// Returns once every save asked for so far is on disk.
    public func waitUntilWritten() {
        writer.sync {}
    }
}
