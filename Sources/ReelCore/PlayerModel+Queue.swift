// SPDX-License-Identifier: GPL-3.0-or-later
/// Opening items and editing the queue, and the sequence settings that say how it plays.
extension PlayerModel {
    /// Queues `uris` and plays the first of them at once.
    @discardableResult
    public func open(_ uris: [String]) -> [QueueItem] {
        let added = queue.append(uris)
        notify(.queue)
        if let first = added.first { start(first) }
        return added
    }

    /// Queues `uris`; starts the first only when nothing is loaded.
    @discardableResult
    public func enqueue(_ uris: [String]) -> [QueueItem] {
        let added = queue.append(uris)
        notify(.queue)
        if currentItem == nil, let first = added.first { start(first) }
        return added
    }

    /// Queues `uris` after the item `afterID` (at the end once it is gone) and starts nothing:
    /// the rest of a folder, listed while its first file plays.
    @discardableResult
    public func add(_ uris: [String], after afterID: Int) -> [QueueItem] {
        let added = queue.insert(uris, after: afterID)
        notify(.queue)
        return added
    }

    /// Puts back a queue saved by an earlier run: its current item is loaded paused (where it
    /// was left, for a long file), so starting Reel never starts sound by itself.
    public func restore(_ uris: [String], current: Int?) {
        guard queue.items.isEmpty else { return }
        let added = queue.append(uris)
        notify(.queue)
        if let current, added.indices.contains(current) { start(added[current], playing: false) }
    }

    public func playItem(id: Int) {
        guard let item = queue.item(id: id) else { return }
        start(item)
    }

    public func removeItem(id: Int) {
        let wasCurrent = currentItem?.id == id
        if wasCurrent { saveResumePosition() }
        queue.remove(id: id)
        notify(.queue)
        if wasCurrent {
            sequencer.endGap(continuing: false)
            engine.stop()
            resetItemState()
            status = .idle
            notify(.item)
            notify(.status)
        }
    }

    /// Inserts `uris` after the item `afterID` (or first, or last); optionally plays the first.
    public func insert(_ uris: [String], after afterID: Int?, atStart: Bool = false, play: Bool = false) -> [QueueItem] {
        let added = queue.insert(uris, after: afterID, atStart: atStart)
        notify(.queue)
        if let first = added.first, play || currentItem == nil { start(first) }
        return added
    }

    /// Moves the item `id` before the item `beforeID` (or to the end).
    public func moveItem(id: Int, before beforeID: Int?) {
        guard queue.move(id: id, before: beforeID) else { return }
        notify(.queue)
    }

    public func setShuffle(_ shuffle: Bool) {
        guard queue.shuffle != shuffle else { return }
        queue.shuffle = shuffle
        notify(.queue)
    }

    public func setLoopMode(_ mode: PlaybackQueue.LoopMode) {
        guard queue.loopMode != mode else { return }
        queue.loopMode = mode
        notify(.queue)
    }

    public func setRepeatEach(_ count: Int) {
        if sequencer.setRepeatEach(count) { notify(.sequence) }
    }

    public func setGap(_ seconds: Seconds) {
        if sequencer.setGap(seconds) { notify(.sequence) }
    }
}
