// SPDX-License-Identifier: GPL-3.0-or-later
/// What the model tells its observers, and how they follow it: every change, in the order the
/// observers came, until their observation is cancelled.
extension PlayerModel {
    public enum Change: Equatable, Sendable {
        case status, position, duration, media, item, queue, rate, volume
        /// A seek finished at this position, whoever asked for it (slider, keys, MPRIS).
        case seeked(Seconds)
        /// An item failed; the status may already have moved on to the next item.
        case failed(QueueItem, PlaybackError)
        /// The item plays, but not entirely (e.g. sound without its video's decoder).
        case warning(QueueItem, PlaybackError)
        /// The item played to its end (once; it may play again with repeat-each or loop).
        case played(QueueItem)
        /// The wait between two plays began, counted down, or ended (`gapRemaining`).
        case gap
        /// Repeat-each or the gap length changed.
        case sequence
        /// Playback stopped advancing and the model tried to get it going again.
        case stallRecovery(StallRecovery, at: Seconds)
        /// The item was opened where it was left last time.
        case resumed(at: Seconds)
        /// The subtitle line on screen changed (`subtitle`).
        case subtitle
        /// The A-B loop was marked, set, cleared or played out (`abLoop`).
        case abLoop
        /// The subtitles' delay changed (`subtitleDelay`).
        case subtitleDelay
        /// Line by line or shadowing was turned on or off (`loopsLines`, `pausesAfterLines`).
        case lineMode
        /// The item's chapters, or the one playing, changed (`chapters`, `currentChapter`).
        case chapters
        /// The picture was turned, stretched, filled or recoloured (`picture`).
        case picture
        /// The sound's delay changed (`audioDelay`).
        case audioDelay
        /// The sleep timer was set, counted down a second, went off or was cancelled (`sleep`).
        case sleep
    }

    public enum StallRecovery: Equatable, Sendable {
        /// Stalled at the item's very end: taken as its end.
        case end
        /// A flushing seek to where playback stood.
        case flushingSeek
        /// The item loaded anew at where playback stood.
        case reload
        /// A live stream cut off: connecting again (`+Live`).
        case reconnect
    }

    public final class Observation {
        fileprivate var cancelAction: (() -> Void)?
        public func cancel() { cancelAction?(); cancelAction = nil }
    }

    /// Calls `handler` after every change until the returned observation is cancelled.
    @discardableResult
    public func observe(_ handler: @escaping (Change) -> Void) -> Observation {
        let id = observers.add(handler)
        let observation = Observation()
        observation.cancelAction = { [weak self] in self?.observers.remove(id) }
        return observation
    }

    func notify(_ change: Change) {
        observers.notify(change)
        // Every move of the position, whatever made it, may bring another chapter.
        if change == .position { followChapters() } else { offerJoiningNext(after: change) }
    }
}

/// The observers' handlers, called in the order they were added. A class: a handler may add or
/// cancel observations while the others are being called.
@MainActor
final class ObserverList<Change> {
    private var handlers: [Int: (Change) -> Void] = [:]
    private var nextID = 0

    func add(_ handler: @escaping (Change) -> Void) -> Int {
        defer { nextID += 1 }
        handlers[nextID] = handler
        return nextID
    }

    func remove(_ id: Int) { handlers[id] = nil }

    func notify(_ change: Change) {
        // A handler may cancel another: each is looked up again when its turn comes.
        for id in handlers.keys.sorted() { handlers[id]?(change) }
    }
}
