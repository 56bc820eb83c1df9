// SPDX-License-Identifier: GPL-3.0-or-later
/// A stretch of the item played again and again: the language learner's A-B loop.
public struct ABLoop: Equatable, Sendable {
    public var start: Seconds
    /// nil while only the start is marked.
    public var end: Seconds?

    public init(start: Seconds, end: Seconds? = nil) {
        self.start = start
        self.end = end
    }
}

/// The A-B loop: marked and cleared by the user (Shift+L cycles, as in VLC), or set from the
/// command line; each play of the stretch counts as a play for repeat-each and is followed by
/// the gap, as an item's are.
extension PlayerModel {
    /// The shortest stretch worth looping.
    nonisolated public static let minimumStretch: Seconds = 0.2

    /// The A-B loop of the item playing, if any.
    public var abLoop: ABLoop? { loaded.abLoop }

    /// Marks the loop's start here; then its end here (and loops); then clears it.
    public func cycleABLoop() {
        guard canSeek else { return }
        switch loaded.abLoop {
        case nil:
            loaded.abLoop = ABLoop(start: position)
            notify(.abLoop)
        case let loop? where loop.end == nil:
            // An end marked before the start swaps them, as in VLC.
            setABLoop(start: min(loop.start, position), end: max(loop.start, position))
        default:
            clearABLoop()
        }
    }

    /// Loops from `start` to `end` (clamped to the item), from `start`.
    public func setABLoop(start: Seconds, end: Seconds) {
        guard currentItem != nil, start.isFinite, end.isFinite else { return }
        let start = max(0, start)
        let end = duration.map { min(end, $0 - Self.loopEndMargin) } ?? end
        guard end - start >= Self.minimumStretch else { return }
        loaded.abLoop = ABLoop(start: start, end: end)
        sequencer.itemStarted()
        notify(.abLoop)
        guard position < start || position >= end else { return }
        if canSeek {
            seek(to: start)
        } else {
            // Not ready yet (just opened): GstPlay keeps the seek and does it once it is.
            loaded.position = start
            loaded.pendingSeek = start
            engine.seek(to: start, accurate: true)
            notify(.position)
        }
    }

    public func clearABLoop() {
        guard loaded.abLoop != nil else { return }
        loaded.abLoop = nil
        sequencer.itemStarted()
        notify(.abLoop)
    }

    /// The loop's end stays this far from the item's: the end of the stream is the item's end.
    static let loopEndMargin: Seconds = 0.25

    /// Playback reached the loop's end (not a seek past it): the stretch has played once. With
    /// repeat-each at 1 it loops until cleared, as every player's A-B loop does; with more, it
    /// plays that many times and playback goes on past B.
    func positionMovedInLoop(from previous: Seconds) {
        guard let loop = loaded.abLoop, let end = loop.end, previous < end, position >= end,
              position - previous < 1, status == .playing, !isInGap else { return }
        guard sequencer.playEnded(loopingItem: repeatEach == 1) else { return clearABLoop() }
        let waits = gapLength > 0
        if waits { engine.pause() }
        sequencer.afterGap { [weak self] in
            // Cleared during the gap: playback goes on from B.
            guard let self else { return }
            if self.loaded.abLoop == loop { self.seek(to: loop.start) }
            guard waits else { return }
            self.engine.play()
            // The status stayed Playing through the wait: the watchdog is told it watches again.
            self.watchdog.update()
        }
    }
}
