// SPDX-License-Identifier: GPL-3.0-or-later
/// Chapters, from the media's table of contents: which one plays, and moving by them. With one
/// item in the queue, Next and Previous move by chapter, as the desktop's media controls and
/// media keys expect of a player showing chapters; with several, they move by item.
extension PlayerModel {
    public var chapters: [Chapter] { loaded.chapters }

    /// The chapter playing, if the item has chapters.
    public var currentChapter: Chapter? { loaded.chapters.last { $0.start <= position + Self.chapterTolerance } }

    /// A seek to a chapter's start may land a hair before it (a frame's rounding).
    static let chapterTolerance: Seconds = 0.05

    var movesByChapter: Bool { queue.items.count == 1 && loaded.chapters.count > 1 }

    var nextChapter: Chapter? { loaded.chapters.first { $0.start > position + Self.chapterTolerance } }

    public func goToNextChapter() {
        guard let next = nextChapter else { return }
        seek(to: next.start)
    }

    /// Back to the start of the chapter playing when it has played a while (as Previous does
    /// with items), else to the chapter before.
    public func goToPreviousChapter() {
        let current = loaded.chapters.lastIndex { $0.start <= position + Self.chapterTolerance }
        guard let current else { return seek(to: 0) }
        let restart = position - loaded.chapters[current].start > Self.restartThreshold || current == 0
        seek(to: loaded.chapters[restart ? current : current - 1].start)
    }

    public func goToChapter(_ index: Int) {
        guard loaded.chapters.indices.contains(index) else { return }
        seek(to: loaded.chapters[index].start)
    }

    func chaptersArrived(_ chapters: [Chapter]) {
        let sorted = chapters.sorted { $0.start < $1.start }
        guard sorted != loaded.chapters else { return }
        loaded.chapters = sorted
        loaded.chapterPlaying = currentChapter
        notify(.chapters)
    }

    /// The position moved, however it did: say so when another chapter plays now.
    func followChapters() {
        guard !loaded.chapters.isEmpty, currentChapter != loaded.chapterPlaying else { return }
        loaded.chapterPlaying = currentChapter
        notify(.chapters)
    }
}
