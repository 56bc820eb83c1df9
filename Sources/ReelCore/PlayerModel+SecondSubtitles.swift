// SPDX-License-Identifier: GPL-3.0-or-later
/// A second subtitle track at once, drawn at the top of the picture: the translation over the
/// original, or the reverse. Its lines come from a subtitle file (SubRip or WebVTT) read whole;
/// they follow the same delay as the first track.
extension PlayerModel {
    /// The second track's line due now, if any.
    public var secondSubtitle: SubtitleLine? { loaded.secondSubtitles.due }
    /// The file the second track comes from, if one is shown.
    public var secondSubtitlesURI: String? {
        if case .file(let uri) = loaded.secondSubtitles.source { return uri } else { return nil }
    }
    /// The embedded track shown as the second, if one is.
    public var secondSubtitleTrack: Int? {
        if case .track(let index) = loaded.secondSubtitles.source { return index } else { return nil }
    }

    /// Shows the subtitle file `uri` as the second track; nil hides it.
    public func setSecondSubtitles(uri: String?) {
        guard currentItem != nil else { return }
        if let uri, !MediaLocation.isSupported(uri) { return }
        show(second: uri.map { .file($0) }, lines: uri.map(SubtitleCues.read) ?? [])
    }

    /// Shows the item's embedded subtitle track `index` as the second track, once read.
    public func setSecondSubtitles(track index: Int) {
        guard let item = currentItem, media?.subtitleTracks.contains(where: { $0.index == index }) ?? false else { return }
        engine.readSubtitleTrack(index) { [weak self] lines in
            guard let self, self.currentItem?.id == item.id else { return }
            self.show(second: .track(index), lines: lines)
        }
    }

    private func show(second source: SecondSubtitles.Source?, lines: [SubtitleLine]) {
        var timeline = SubtitleTimeline()
        for line in lines { timeline.add(line) }
        loaded.secondSubtitles = SecondSubtitles(source: source, timeline: timeline)
        updateSubtitle()
        notify(.subtitle)
    }

    /// The second track's line at the position, delayed as the first; whether it changed.
    func updateSecondSubtitle() -> Bool {
        guard loaded.secondSubtitles.source != nil || loaded.secondSubtitles.due != nil else { return false }
        let line = loaded.secondSubtitles.timeline.line(at: position - subtitleDelay)
        guard line != loaded.secondSubtitles.due else { return false }
        loaded.secondSubtitles.due = line
        return true
    }
}

/// The second subtitle track of the item playing.
struct SecondSubtitles {
    enum Source: Equatable { case file(String), track(Int) }
    var source: Source?
    var timeline = SubtitleTimeline()
    var due: SubtitleLine?
}
