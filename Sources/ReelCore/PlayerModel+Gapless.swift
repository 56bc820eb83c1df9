// SPDX-License-Identifier: GPL-3.0-or-later
/// Gapless playback: the item that follows is offered to the engine ahead of the current one's
/// end, and joins it with no break when nothing is to happen between the two; the engine decides
/// whether it can (sound alone, the same format) and says when it did (`.joined`).
extension PlayerModel {
    /// The item to follow the current one without a break: the queue's next, when the current
    /// one is sound alone and plays once straight through (no repeat-each, gap, loop of one item,
    /// A-B loop, line by line, sleep at its end; not a live stream), and the next one starts
    /// at its beginning with nothing to add (no resume position, no subtitle file beside it).
    var joiningNext: QueueItem? {
        guard let current = currentItem, media?.isAudioOnly == true, !isLive, repeatEach == 1, gapLength == 0,
              queue.loopMode != .item, loaded.abLoop == nil, !loopsLines, !pausesAfterLines, sleep != .endOfItem,
              let index = queue.nextIndex, let next = queue.items[safe: index], next.id != current.id,
              resume.position(for: next.uri) == nil, SubtitleFiles.beside(next.uri) == nil else { return nil }
        return next
    }

    /// Tells the engine what may join the current item, after a change that can alter it.
    func offerJoiningNext(after change: Change) {
        switch change {
        case .item, .media, .queue, .sequence, .abLoop, .lineMode, .sleep: engine.offerNext(uri: joiningNext?.uri)
        default: break
        }
    }

    /// The engine joined `uri` to the item that just ended: the queue's next, unless the queue
    /// changed in its last second, after the engine took the address; then what now follows
    /// plays the usual way.
    func joined(_ uri: String) {
        guard let ended = currentItem else { return }
        if let duration { loaded.position = duration }
        resume.forget(uri: ended.uri)
        notify(.played(ended))
        guard let index = queue.nextIndex, queue.items[safe: index]?.uri == uri, let next = queue.moveTo(index: index) else {
            if let index = queue.nextIndex, let next = queue.moveTo(index: index) { return start(next) }
            engine.stop()
            return setStatus(.ended)
        }
        beginItem(next)
        loaded.uri = next.uri
        notify(.item)
        notify(.media)
        notify(.duration)
        notify(.position)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
