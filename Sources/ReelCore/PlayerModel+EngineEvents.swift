// SPDX-License-Identifier: GPL-3.0-or-later
/// What the engine reports, taken into the model's state; and what follows one play of an item.
extension PlayerModel {
    func handle(_ event: EngineEvent) {
        switch event {
        case .state(let state):
            handle(state)
        case .position(let newPosition):
            guard loaded.pendingSeek == nil, currentItem != nil, status != .ended, status != .stopped,
                  newPosition != position else { return }
            let previous = position
            loaded.position = newPosition
            watchdog.progressed()
            notify(.position)
            updateSubtitle()
            positionMovedInLoop(from: previous)
            positionMovedInLines(from: previous)
            if sleep == .endOfItem, let duration { fadeForSleep(left: duration - newPosition) }
        case .duration(let newDuration):
            let known = newDuration.flatMap { $0 > 0 ? $0 : nil }
            guard known != duration else { return }
            loaded.duration = known
            notify(.duration)
        case .mediaInfo(let info):
            guard info != media else { return }
            let wasLive = isLive
            loaded.media = info
            syncVideoBranch()
            notify(.media)
            if isLive != wasLive { liveMediaArrived() }
            restoreLoadedChoices()
        case .buffering(let percent):
            if isStartingLocalFile { return }
            if percent < 100, status.isPlaying || status == .loading {
                setStatus(.buffering(percent: percent))
            }
        case .seekDone(let reached):
            guard loaded.pendingSeek != nil else { return }
            loaded.pendingSeek = nil
            loaded.position = reached
            notify(.position)
            notify(.seeked(reached))
            restoreLoadedChoices()
        case .endOfStream:
            endOfItem()
        case .error(let error):
            fail(with: error)
        case .warning(let problem):
            if let item = currentItem { notify(.warning(item, problem)) }
        case .volume(let newVolume):
            // The sleep timer's fade is Reel's own doing, not a volume the user set elsewhere.
            guard abs(newVolume - volume) > 0.0001, !isFadingForSleep else { return }
            choices.volume = newVolume
            notify(.volume)
        case .audioOutputLost:
            // As phones do: pause, and resume only when the user says so.
            if status.isPlaying || (status == .loading && choices.wantsToPlay) { pause() }
        case .subtitle(let line?):
            loaded.subtitles.add(line)
            updateSubtitle()
        case .subtitle(nil):
            loaded.subtitles.removeAll()
            updateSubtitle()
        case .chapters(let chapters):
            chaptersArrived(chapters)
        case .playlist(let contents):
            playlistRead(contents)
        case .joined(let uri):
            joined(uri)
        case .muted(let muted):
            guard muted != isMuted else { return }
            choices.isMuted = muted
            notify(.volume)
        }
    }

    private func handle(_ state: EngineState) {
        // Between two plays the engine rests at the end of the last one; the queue still plays.
        if isInGap { return }
        switch state {
        case .playing:
            if status == .ended || status == .stopped { return }
            liveStreamPlays()
            setStatus(.playing)
        case .paused:
            // While an item prerolls on its way to playing, the engine passes through paused.
            if status == .loading && choices.wantsToPlay { return }
            if status == .ended || status == .stopped { return }
            if case .failed = status { return }
            setStatus(.paused)
        case .buffering:
            if case .buffering = status { return }
            // GstPlay says "buffering" from play until the pipeline prerolls: a local file is
            // still loading then (watched for starting, not for stalls; no "Buffering…" shown).
            if isStartingLocalFile { return }
            if status == .loading || status.isPlaying { setStatus(.buffering(percent: 0)) }
        case .stopped:
            switch status {
            case .loading, .ended, .failed, .idle, .stopped: return
            default: setStatus(.stopped)
            }
        }
    }

    /// One play of the item is over: play it again (repeat-each, loop one), go on to the next
    /// one, or end — after the gap, when one is set and something follows.
    func endOfItem() {
        guard let item = currentItem, !isInGap, !reconnectIfLive() else { return }
        // In line mode repeat-each counts each line's plays, not the item's.
        let again = drillsLines ? queue.loopMode == .item : sequencer.playEnded(loopingItem: queue.loopMode == .item)
        loaded.pendingSeek = nil
        if let duration { loaded.position = duration; notify(.position) }
        resume.forget(uri: item.uri)
        notify(.played(item))
        if sleepAtEndOfItem() { return }
        let continuation: @MainActor () -> Void
        if again {
            continuation = { [weak self] in self?.restartCurrentItem() }
        } else if let index = queue.nextIndex {
            continuation = { [weak self] in
                guard let self, let next = self.queue.moveTo(index: index) else { return }
                self.start(next)
            }
        } else {
            // The pipeline rests at its end, on the last frame: a pause here would make GstPlay
            // (1.22) seek back to the start, and show the first frame under a time at the end.
            setStatus(.ended)
            return
        }
        if gapLength > 0 { engine.pause() }
        sequencer.afterGap(continuation)
    }

    /// Plays the current item again from its start, keeping the count of its plays.
    func restartCurrentItem() {
        guard currentItem != nil else { return }
        choices.wantsToPlay = true
        loaded.position = 0
        loaded.pendingSeek = nil
        // Loading until the engine plays again: the engine's report of having stopped at the
        // end may still be on its way and must not be taken for a stop of the new play.
        setStatus(.loading)
        notify(.position)
        notify(.seeked(0))
        engine.restart()
    }
}
