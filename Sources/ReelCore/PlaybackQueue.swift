/// The ordered list of items to play and which one is current. Pure data: the model decides
/// when to move; views and MPRIS read it through the model.
public struct PlaybackQueue: Sendable, Equatable {
    public enum LoopMode: Sendable, Equatable { case none, item, queue }

    public private(set) var items: [QueueItem] = []
    public private(set) var currentIndex: Int?
    public var loopMode: LoopMode = .none
    private var nextID = 1

    public init() {}

    public var current: QueueItem? { currentIndex.map { items[$0] } }

    /// Appends entries for `uris`, returning them.
    @discardableResult
    public mutating func append(_ uris: [String]) -> [QueueItem] {
        let added = uris.map { uri -> QueueItem in
            defer { nextID += 1 }
            return QueueItem(id: nextID, uri: uri)
        }
        items += added
        return added
    }

    public mutating func select(id: Int) -> QueueItem? {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return nil }
        currentIndex = index
        return items[index]
    }

    public mutating func remove(id: Int) {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return }
        items.remove(at: index)
        if let current = currentIndex {
            if current == index { currentIndex = nil }
            else if current > index { currentIndex = current - 1 }
        }
    }

    public var nextIndex: Int? {
        guard let i = currentIndex else { return items.isEmpty ? nil : 0 }
        if i + 1 < items.count { return i + 1 }
        return loopMode == .queue && !items.isEmpty ? 0 : nil
    }

    public var previousIndex: Int? {
        guard let i = currentIndex else { return nil }
        if i > 0 { return i - 1 }
        return loopMode == .queue && !items.isEmpty ? items.count - 1 : nil
    }

    public mutating func moveTo(index: Int) -> QueueItem? {
        guard items.indices.contains(index) else { return nil }
        currentIndex = index
        return items[index]
    }
}
