// SPDX-License-Identifier: GPL-3.0-or-later
/// The ordered list of items to play and which one is current. Pure data: the model decides
/// when to move; views and MPRIS read it through the model.
///
/// With shuffle on, items play in a random order in which every item comes once before any
/// repeats; the list itself keeps the order the user gave it.
public struct PlaybackQueue: Sendable, Equatable {
    public enum LoopMode: Sendable, Equatable { case none, item, queue }

    public private(set) var items: [QueueItem] = []
    public private(set) var currentIndex: Int?
    public var loopMode: LoopMode = .none
    public var shuffle = false {
        didSet { if shuffle != oldValue { rebuildOrder() } }
    }
    /// Item ids in play order: the list order, or a permutation while shuffling.
    private var order: [Int] = []
    private var nextID = 1

    public init() {}

    public var current: QueueItem? { currentIndex.map { items[$0] } }

    public func item(id: Int) -> QueueItem? { items.first { $0.id == id } }

    /// Appends entries for `uris` (after the item with id `afterID`, or at the end), returning them.
    @discardableResult
    public mutating func insert(_ uris: [String], after afterID: Int? = nil, atStart: Bool = false) -> [QueueItem] {
        let added = uris.map { newItem(uri: $0) }
        let currentID = current?.id
        var position = items.count
        if atStart { position = 0 }
        else if let afterID, let index = items.firstIndex(where: { $0.id == afterID }) { position = index + 1 }
        items.insert(contentsOf: added, at: position)
        currentIndex = currentID.flatMap { id in items.firstIndex { $0.id == id } }
        if shuffle {
            // New items go somewhere after the current one, so they still play in this round:
            // the rest of the round is dealt again with them in it (one pass, however many).
            let start = currentID.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            order = Array(order[..<start]) + (order[start...] + added.map(\.id)).shuffled()
        } else {
            order = items.map(\.id)
        }
        return added
    }

    @discardableResult
    public mutating func append(_ uris: [String]) -> [QueueItem] { insert(uris) }

    /// An entry with the next id: ids are never reused in a run.
    private mutating func newItem(uri: String, title: String? = nil) -> QueueItem {
        defer { nextID += 1 }
        return QueueItem(id: nextID, uri: uri, title: title)
    }

    /// Puts `entries` where the item `id` stands (a playlist read), in its place in the play
    /// order too (shuffled among themselves while shuffling); nil when it is gone.
    public mutating func replace(id: Int, with entries: [PlaylistContents.Entry]) -> [QueueItem]? {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return nil }
        let added = entries.map { newItem(uri: $0.uri, title: $0.title) }
        let wasCurrent = currentIndex == index
        let currentID = current?.id
        items.replaceSubrange(index...index, with: added)
        var ids = added.map(\.id)
        // Shuffled, the first entry of a playlist being played still plays first.
        if shuffle, !ids.isEmpty { ids = wasCurrent ? [ids[0]] + ids.dropFirst().shuffled() : ids.shuffled() }
        if let at = order.firstIndex(of: id) { order.replaceSubrange(at...at, with: ids) }
        // The first entry takes the playlist's place as current: the model starts it.
        currentIndex = wasCurrent ? (added.isEmpty ? nil : index) : currentID.flatMap { id in items.firstIndex { $0.id == id } }
        return added
    }

    /// Makes the item `id` current (a jump: picked, or the first of files opened). While
    /// shuffling it comes next in the play order, so the rest of the round still plays after it:
    /// opened with shuffle on, files dealt ahead of the first were skipped.
    public mutating func select(id: Int) -> QueueItem? {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return nil }
        if shuffle, id != current?.id, let from = order.firstIndex(of: id) {
            order.remove(at: from)
            let to = current.flatMap { current in order.firstIndex(of: current.id) }.map { $0 + 1 } ?? 0
            order.insert(id, at: to)
        }
        currentIndex = index
        return items[index]
    }

    public mutating func remove(id: Int) {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return }
        items.remove(at: index)
        order.removeAll { $0 == id }
        if let current = currentIndex {
            if current == index { currentIndex = nil }
            else if current > index { currentIndex = current - 1 }
        }
    }

    /// Moves the item `id` before the item `beforeID` (or to the end). The current item stays
    /// current; a shuffled play order is left as it is.
    @discardableResult
    public mutating func move(id: Int, before beforeID: Int?) -> Bool {
        guard id != beforeID, let from = items.firstIndex(where: { $0.id == id }) else { return false }
        let currentID = current?.id
        let item = items.remove(at: from)
        let to = beforeID.flatMap { before in items.firstIndex { $0.id == before } } ?? items.count
        items.insert(item, at: to)
        currentIndex = currentID.flatMap { current in items.firstIndex { $0.id == current } }
        if !shuffle { order = items.map(\.id) }
        return from != to
    }

    public var nextIndex: Int? {
        guard !items.isEmpty else { return nil }
        guard let id = current?.id, let position = order.firstIndex(of: id) else { return index(of: order.first) }
        if position + 1 < order.count { return index(of: order[position + 1]) }
        return loopMode == .queue ? index(of: order.first) : nil
    }

    public var previousIndex: Int? {
        guard let id = current?.id, let position = order.firstIndex(of: id) else { return nil }
        if position > 0 { return index(of: order[position - 1]) }
        return loopMode == .queue ? index(of: order.last) : nil
    }

    /// Makes the item at `index` current. Wrapping around a shuffled queue starts a new round.
    public mutating func moveTo(index: Int) -> QueueItem? {
        guard items.indices.contains(index) else { return nil }
        let wrapped = shuffle && currentIndex != nil && order.first == items[index].id &&
            order.last == current?.id && items.count > 1
        currentIndex = index
        if wrapped { rebuildOrder() }
        return items[index]
    }

    private func index(of id: Int?) -> Int? {
        id.flatMap { id in items.firstIndex { $0.id == id } }
    }

    private mutating func rebuildOrder() {
        guard shuffle else { order = items.map(\.id); return }
        let currentID = current?.id
        order = items.map(\.id).filter { $0 != currentID }.shuffled()
        if let currentID { order.insert(currentID, at: 0) }
    }
}
