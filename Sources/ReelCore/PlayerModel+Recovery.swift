// SPDX-License-Identifier: GPL-3.0-or-later
/// Keeping playback going: what the stall watchdog watches and what the model does about what
/// it finds, a failed item and the move past it, and where long items were left.
extension PlayerModel {
    var watched: StallWatchdog.Watch {
        if isInGap { return .nothing }
        if isStartingLocalFile { return .start }
        // A live stream that played and stops coming is cut off, buffering or not: it never
        // catches up, and the sooner it connects again the less is lost. Until it has played,
        // its buffer is filling: waiting on the network.
        if isLive, !isReconnecting, status.isPlaying || status == .loading { return position > 0 ? .stalls : .data }
        if isWaitingForData { return .data }
        guard isWatchedForStalls else { return .nothing }
        return loaded.pendingSeek == nil ? .stalls : .seeking
    }

    /// A local file between play and its first frame (which GstPlay reports as buffering).
    var isStartingLocalFile: Bool { status == .loading && (currentItem?.isLocalFile ?? false) }

    /// Buffering, or connecting to a stream: waiting on the network.
    private var isWaitingForData: Bool {
        guard !(currentItem?.isLocalFile ?? true) else { return false }
        if case .buffering = status { return true }
        return status == .loading
    }

    /// Playing, or "buffering" a local file: nothing is downloaded, so that is the pipeline
    /// settling after a seek or a change of tracks — and GstPlay (1.22) can stay in it for good
    /// while the pipeline plays on, without position updates, when a state change crosses one
    /// of its seeks (seen after many minimize/restore cycles). The stall recovery's flushing
    /// seek brings its state back.
    private var isWatchedForStalls: Bool {
        if status == .playing { return true }
        if case .buffering = status { return currentItem?.isLocalFile ?? false }
        return false
    }

    func playedAWhile() {
        if resume.played(StallWatchdog.interval) { saveResumePosition() }
    }

    /// A stall this close to the item's end is taken as the end.
    static let endTolerance: Seconds = 0.25

    func recover(from finding: StallWatchdog.Finding) {
        guard let item = currentItem else { return }
        switch finding {
        case .waitedTooLong where item.isLocalFile:
            // GStreamer sometimes swallows a demuxer's error about a damaged file (decodebin
            // drops it while autoplugging) and the pipeline then waits forever.
            engine.stop()
            fail(with: PlaybackError(kind: .notMedia, message: String(format: tr("“%@” could not be opened; it may be damaged or incomplete."), item.displayName)))
        case .waitedTooLong:
            // A stream that stopped sending (or sends too slowly to play): give it up in words.
            // Stalled and merely slow look alike from here (the buffer's fill level moves too
            // little to tell): one message covers both.
            let message = status == .loading ? tr("“%@” did not answer in time.") : tr("“%@” is not sending data fast enough to play.")
            engine.stop()
            fail(with: PlaybackError(kind: .network, message: String(format: message, item.displayName)))
        case .stalled where isLive && position > 0:
            // A live stream that stopped coming: its server went away. Neither a seek nor a
            // reload of the old connection helps; connect again.
            _ = reconnectIfLive()
        case .stalled where duration.map { position >= $0 - Self.endTolerance } ?? false:
            // Stalled at the very end: the end of the stream did not come; it is the end of the
            // item. Workaround (GStreamer 1.22): it was seen to lose an external subtitle
            // stream's end after line-by-line seeks at 4× (its text sink never got EOS until the
            // next flush). Goes when LearnerTests' 200 loops at 4× never end this way.
            notify(.stallRecovery(.end, at: position))
            endOfItem()
        case .stalled(attempt: 1):
            notify(.stallRecovery(.flushingSeek, at: position))
            engine.seek(to: position, accurate: true)
            // A pause asked for while GstPlay settled stays a pause.
            if choices.wantsToPlay { engine.play() } else { engine.pause() }
        case .stalled(attempt: 2):
            notify(.stallRecovery(.reload, at: position))
            let at = position
            resetItemState()
            // Loading again: the engine reports the old pipeline stopping on the way.
            setStatus(.loading)
            load(item, at: at, playing: choices.wantsToPlay)
        case .stalled:
            engine.stop()
            fail(with: PlaybackError(kind: .other, message: String(format: tr("“%@” stopped playing and could not be restarted."), item.displayName)))
        }
    }

    func fail(with error: PlaybackError) {
        guard let item = currentItem, error.kind != .network || !reconnectIfLive() else { return }
        sequencer.endGap(continuing: false)
        // The next item plays only if this one was to: a queue put back paused stays paused.
        let wasToPlay = choices.wantsToPlay
        choices.wantsToPlay = false
        setStatus(.failed(error))
        notify(.failed(item, error))
        guard continueAfterErrors, let index = queue.nextIndex, index != queue.currentIndex else { return }
        skipAfterError = scheduler.schedule(after: Self.errorDwell) { [weak self] in
            guard let self else { return }
            self.skipAfterError = nil
            // Only if the user has not moved on (or stopped) meanwhile.
            guard case .failed = self.status, self.currentItem?.id == item.id,
                  let index = self.queue.nextIndex, let next = self.queue.moveTo(index: index) else { return }
            self.start(next, playing: wasToPlay)
        }
    }

    // MARK: Resume positions

    /// Remembers how the current item was left (`FileChoices`), and where it stands when it is
    /// long enough to be worth resuming.
    public func saveResumePosition() {
        saveFileChoices()
        // The item loaded, which the position and duration belong to: by the time a new item
        // starts, the queue has already moved on to it.
        guard let uri = loaded.uri, let duration else { return resume.saved() }
        resume.save(uri: uri, position: position, duration: duration)
    }

    /// Plays the current item from its start after it was resumed ("Start over").
    public func startOver() {
        guard let item = currentItem else { return }
        resume.forget(uri: item.uri)
        seek(to: 0)
    }
}
