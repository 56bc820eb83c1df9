// SPDX-License-Identifier: GPL-3.0-or-later
/// Subtitle lines: moving by line (Ctrl+Left and Ctrl+Right, as in mpv), over the lines of the
/// subtitle file when there is one, else over the lines of the track seen so far; and the
/// subtitles' delay, which lines and moves follow.
extension PlayerModel {
    /// Ctrl+Left goes back to the current line's start when more than this into it.
    public static let lineRestartThreshold: Seconds = 1
    nonisolated public static let subtitleDelayRange: ClosedRange<Seconds> = -60...60
    /// What one press of the delay keys changes.
    public static let subtitleDelayStep: Seconds = 0.1

    /// Subtitles are shown this much later than the media says (earlier when negative).
    public var subtitleDelay: Seconds { choices.subtitleDelay }

    public func setSubtitleDelay(_ seconds: Seconds) {
        guard seconds.isFinite else { return }
        let clamped = (min(max(seconds, Self.subtitleDelayRange.lowerBound), Self.subtitleDelayRange.upperBound) * 1000).rounded() / 1000
        guard clamped != subtitleDelay else { return }
        choices.subtitleDelay = clamped
        notify(.subtitleDelay)
        updateSubtitle()
    }

    /// The lines of the subtitles shown, in time order, at their delayed times: the subtitle
    /// file's all of them, an embedded track's as they came (the transcript).
    public var transcriptLines: [SubtitleLine] { knownLines }

    /// The lines to move by, in time order, at their delayed times.
    var knownLines: [SubtitleLine] {
        let lines = loaded.cues.isEmpty ? loaded.subtitles.lines.sorted { ($0.start ?? 0) < ($1.start ?? 0) } : loaded.cues
        return lines.compactMap { line in
            guard let start = line.start else { return nil }
            var delayed = line
            delayed.start = start + subtitleDelay
            delayed.end = line.end.map { $0 + subtitleDelay }
            return delayed
        }
    }

    /// The start of the line after the one playing; nothing on the last line.
    public func nextLine() {
        guard canSeek, let next = knownLines.first(where: { $0.start! > position + 0.05 }) else { return }
        seek(to: max(0, next.start!))
    }

    /// The start of the line playing when more than a second into it, else of the one before.
    public func previousLine() {
        let lines = knownLines
        guard canSeek, let current = lines.last(where: { $0.start! <= position + 0.05 }) else { return }
        if position - current.start! > Self.lineRestartThreshold { return seek(to: max(0, current.start!)) }
        seek(to: max(0, lines.last(where: { $0.start! < current.start! })?.start ?? current.start!))
    }
}
