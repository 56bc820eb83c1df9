// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Synchronization

/// The queue as the user left it, so Reel started again without files picks up where it
/// stopped: `$XDG_STATE_HOME/reel/queue.json`, rewritten atomically after the queue or its
/// current item changes (a `kill -9` loses nothing the file had). Reading and writing happen on
/// a queue of their own, so that neither start-up nor a command waits on a library of 100,000
/// items; changes that come while a write is waiting are written together, once. A file that
/// cannot be read is set aside with a warning, never fatal.
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

    /// The most a saved queue keeps, against a damaged file of absurd size.
    nonisolated static let capacity = 1_000_000
    /// How long a change waits for others to be written with it.
    nonisolated static let coalescing: DispatchTimeInterval = .milliseconds(250)

    private let file: StateFile
    private let writer = DispatchQueue(label: "org.reelplayer.Reel.saved-queue")
    /// The newest queue not yet written (the writer takes it), and whether a write is coming.
    private let pending = Mutex<(queue: PlaybackQueue?, scheduled: Bool)>((nil, false))
    /// What was read at start-up, once it has been; and who waits for it.
    private var loaded: Contents??
    private var waiting: [@MainActor (Contents?) -> Void] = []
    /// What was last written or read (the writer's own).
    nonisolated(unsafe) private var written: Contents?
    /// Told, on the main thread, what went wrong reading or writing the file.
    public var onProblem: (@MainActor (String) -> Void)?

    /// Starts reading the file on the writer's queue.
    public init(file: StateFile) {
        self.file = file
        writer.async { [self] in
            let (contents, problem) = Self.read(file)
            written = contents
            DispatchQueue.main.async { MainActor.assumeIsolated { self.finishLoading(contents, problem: problem) } }
        }
    }

    /// The queue saved by the last run (nil when there is none), handed over once it is read.
    public func whenLoaded(_ body: @escaping @MainActor (Contents?) -> Void) {
        if let loaded { body(loaded) } else { waiting.append(body) }
    }

    private func finishLoading(_ contents: Contents?, problem: String?) {
        if let problem { onProblem?(problem) }
        loaded = .some(contents)
        let waiting = self.waiting
        self.waiting = []
        for body in waiting { body(contents) }
    }

    /// Reads a saved queue; a file that cannot be read is set aside, and the problem said.
    public nonisolated static func read(_ file: StateFile) -> (contents: Contents?, problem: String?) {
        guard let data = file.read() else { return (nil, nil) }
        do {
            var contents = try JSONDecoder().decode(Contents.self, from: data)
            contents.uris = Array(contents.uris.prefix(capacity))
            if let current = contents.current, !contents.uris.indices.contains(current) { contents.current = nil }
            return (contents, nil)
        } catch {
            let movedTo = file.setAside()
            return (nil, "the saved queue in \(file.path) could not be read and was set aside"
                + (movedTo.map { " as \($0)" } ?? "") + ": \(error)")
        }
    }

    /// Keeps `queue` for the next run. The queue is a value: handing it over copies nothing.
    public func save(_ queue: PlaybackQueue) {
        let schedule = pending.withLock { pending in
            pending.queue = queue
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        guard schedule else { return }
        writer.asyncAfter(deadline: .now() + Self.coalescing) { [self] in writePending() }
    }

    /// Returns once every save asked for so far is on disk.
    public func waitUntilWritten() {
        writer.sync { writePending() }
    }

    /// On the writer's queue: the newest queue, unless it is what the file already has.
    private nonisolated func writePending() {
        guard let queue = pending.withLock({ pending in
            defer { pending = (nil, false) }
            return pending.queue
        }) else { return }
        let uris = Array(queue.items.prefix(Self.capacity).map(\.uri))
        let contents = Contents(uris: uris, current: queue.currentIndex.flatMap { $0 < uris.count ? $0 : nil })
        guard contents != written, let data = try? JSONEncoder().encode(contents) else { return }
        do {
            try file.write(data)
            written = contents
        } catch {
            // Losing the saved queue is not worth interrupting playback for.
            let message = "the queue could not be saved to \(file.path): \(error)"
            DispatchQueue.main.async { MainActor.assumeIsolated { self.onProblem?(message) } }
        }
    }
}
