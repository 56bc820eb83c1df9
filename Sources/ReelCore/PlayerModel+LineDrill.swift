// SPDX-License-Identifier: GPL-3.0-or-later
/// One subtitle line as the learner drills it: the line's time with a margin round it (speech
/// starts a little before its cue and trails after it), lines that overlap or touch once
/// widened merged into one.
public struct LineStretch: Equatable, Sendable {
    public var start: Seconds
    public var end: Seconds

    public init(start: Seconds, end: Seconds) {
        self.start = start
        self.end = end
    }

    /// The stretches of `lines` (in any order), widened by the margins, merged, in time order.
    public static func stretches(of lines: [SubtitleLine], leadIn: Seconds, leadOut: Seconds,
                                 duration: Seconds? = nil) -> [LineStretch] {
        let widened = lines.compactMap { line -> LineStretch? in
            guard let start = line.start, let end = line.end, end > start else { return nil }
            let limit = duration ?? .infinity
            return LineStretch(start: max(0, start - leadIn), end: min(limit, end + leadOut))
        }.sorted { $0.start < $1.start }
        var merged: [LineStretch] = []
        for stretch in widened {
            if let last = merged.last, stretch.start <= last.end {
                merged[merged.count - 1].end = max(last.end, stretch.end)
            } else {
                merged.append(stretch)
            }
        }
        return merged
    }
}

/// The learner's line by line (`--loop-lines`): each subtitle line a stretch, played as the
/// A-B loop plays its own (repeat-each times, the gap after each), then the next line, to the
/// end. And shadowing (`--pause-after-lines`): a pause at the end of every line, until the
/// user plays on, to speak the line back. A user's own A-B loop takes precedence over both.
extension PlayerModel {
    /// The line being drilled in line mode, and where playing on starts after a shadowing pause.
    struct Drilling {
        var line: LineStretch?
        var resumeAfterSpeaking: Seconds?
    }

    /// How the learner drills the lines (`+LineDrill`).
    struct LineDrill {
        var loopsLines = false
        var pausesAfterLines = false
        var leadIn = PlayerModel.defaultLineLeadIn
        var leadOut = PlayerModel.defaultLineLeadOut
    }

    /// The margins played round each line, by default (a setting).
    nonisolated public static let defaultLineLeadIn: Seconds = 0.25
    nonisolated public static let defaultLineLeadOut: Seconds = 0.25
    nonisolated public static let lineMarginRange: ClosedRange<Seconds> = 0...2

    public var loopsLines: Bool { choices.drill.loopsLines }
    public var pausesAfterLines: Bool { choices.drill.pausesAfterLines }
    public var lineLeadIn: Seconds { choices.drill.leadIn }
    public var lineLeadOut: Seconds { choices.drill.leadOut }
    /// The line being drilled, in line mode.
    public var lineStretch: LineStretch? { loaded.drilling.line }

    /// The stretches of the item's known lines, at their delayed times.
    public var lineStretches: [LineStretch] {
        LineStretch.stretches(of: knownLines, leadIn: lineLeadIn, leadOut: lineLeadOut, duration: duration)
    }

    public func setLoopsLines(_ on: Bool) {
        guard on != loopsLines else { return }
        choices.drill.loopsLines = on
        loaded.drilling.line = nil
        sequencer.itemStarted()
        notify(.lineMode)
    }

    public func setPausesAfterLines(_ on: Bool) {
        guard on != pausesAfterLines else { return }
        choices.drill.pausesAfterLines = on
        notify(.lineMode)
    }

    public func setLineMargins(leadIn: Seconds, leadOut: Seconds) {
        guard leadIn.isFinite, leadOut.isFinite else { return }
        let clamp = { (value: Seconds) in min(max(value, Self.lineMarginRange.lowerBound), Self.lineMarginRange.upperBound) }
        choices.drill.leadIn = clamp(leadIn)
        choices.drill.leadOut = clamp(leadOut)
        loaded.drilling.line = nil
    }

    /// Whether the line mode drills this item: it is on, the item has lines, and no A-B loop of
    /// the user's own is set.
    var drillsLines: Bool { loopsLines && loaded.abLoop == nil && !lineStretches.isEmpty }

    /// The position moved on while playing (from `previous`): keeps to the line being drilled,
    /// and acts at a line's end.
    func positionMovedInLines(from previous: Seconds) {
        guard status == .playing, !isInGap, loaded.abLoop == nil, loopsLines || pausesAfterLines else { return }
        let stretches = lineStretches
        guard !stretches.isEmpty else { return }
        // A line's end reached by playing (one position update on, however far past it at a
        // high rate), not by a seek past it.
        let played = position - previous < 1
        if loopsLines {
            if played, let line = loaded.drilling.line, stretches.contains(line), previous < line.end, position >= line.end {
                return lineEnded(line, stretches: stretches)
            }
            followLine(in: stretches)
        } else if pausesAfterLines, played, stretches.contains(where: { previous < $0.end && position >= $0.end }) {
            pauseToSpeak(resumingAt: nil)
        }
    }

    /// The line mode's stretch is the one playback is in (or the next one): a seek elsewhere
    /// (the user's, Ctrl+Left) moves the drill there, counting its plays afresh.
    private func followLine(in stretches: [LineStretch]) {
        if let current = loaded.drilling.line, stretches.contains(current),
           position >= current.start - 0.5, position < current.end + 0.5 { return }
        let next = stretches.first { $0.end > position }
        guard next != loaded.drilling.line else { return }
        loaded.drilling.line = next
        sequencer.itemStarted()
    }

    /// One play of the drilled line is over: again after the gap, or on to the next line (after
    /// the gap, or a pause to speak it back).
    private func lineEnded(_ line: LineStretch, stretches: [LineStretch]) {
        let again = sequencer.playEnded(loopingItem: false)
        let next = stretches.first { $0.start >= line.end }
        if !again {
            loaded.drilling.line = next
            sequencer.itemStarted()
            // The last line done: the rest of the item plays on as it is.
            guard let next else { return }
            if pausesAfterLines { return pauseToSpeak(resumingAt: next.start) }
        }
        let target = again ? line.start : next!.start
        let waits = gapLength > 0
        if waits { engine.pause() }
        sequencer.afterGap { [weak self] in
            guard let self, self.loopsLines, self.loaded.abLoop == nil else { return }
            self.seek(to: target)
            guard waits else { return }
            self.engine.play()
            self.watchdog.update()
        }
    }

    /// Shadowing: pause at a line's end; playing on starts at `resumingAt` (the next line
    /// drilled) when given, else where it stopped.
    private func pauseToSpeak(resumingAt start: Seconds?) {
        loaded.drilling.resumeAfterSpeaking = start
        pause()
    }

    /// Play after a shadowing pause: on to the next line.
    func resumeAfterSpeaking() {
        guard let start = loaded.drilling.resumeAfterSpeaking else { return }
        loaded.drilling.resumeAfterSpeaking = nil
        if abs(position - start) > 0.05 { seek(to: start) }
    }
}
