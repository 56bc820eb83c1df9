// SPDX-License-Identifier: GPL-3.0-or-later
/// The lines of the subtitle track playing, as they came (ahead of the position and again after
/// a seek), and what is due at a position: the lines whose stretch holds it, overlapping ones
/// together in order. A line without times shows until the next one comes.
struct SubtitleTimeline {
    /// The most lines kept: a long film's track, not an unbounded stream's.
    static let linesKept = 2000
    private(set) var lines: [SubtitleLine] = []

    mutating func add(_ line: SubtitleLine) {
        // After a seek into a line, it comes again cut to start where playback did: the same line.
        guard !lines.contains(where: { $0 == line || $0.isSameLine(clippedAs: line) }) else { return }
        lines.append(line)
        if lines.count > Self.linesKept { lines.removeFirst(lines.count - Self.linesKept) }
    }

    mutating func removeAll() { lines.removeAll() }

    func line(at position: Seconds) -> SubtitleLine? {
        let due = lines.filter { line in
            guard let start = line.start else { return line == lines.last }
            return start <= position + 0.05 && line.end.map { position < $0 } ?? true
        }
        guard !due.isEmpty else { return nil }
        return SubtitleLine(text: due.map(\.text).joined(separator: "\n"), isMarkup: due.allSatisfy(\.isMarkup),
                            start: due.compactMap(\.start).min(), end: due.compactMap(\.end).max())
    }
}

private extension SubtitleLine {
    /// `other` is this line, its start cut by a seek: the same text, ending as it does, starting within it.
    func isSameLine(clippedAs other: SubtitleLine) -> Bool {
        guard text == other.text, end == other.end, let start, let otherStart = other.start, let end else { return false }
        return start <= otherStart && otherStart < end
    }
}
