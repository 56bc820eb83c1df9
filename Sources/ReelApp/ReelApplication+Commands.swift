// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGtk
import ReelCore
import ReelGLib

/// The table of commands (see `Command`): each one a plain call on the model or the window.
/// In each section of the shortcuts window, rows come in the table's order.
extension ReelApplication {
    func commands(_ model: PlayerModel) -> [Command] {
        playbackCommands(model) + pictureCommands(model) + subtitleCommands(model) + queueCommands(model)
            + windowCommands(model)
    }

    private func playbackCommands(_ model: PlayerModel) -> [Command] {
        let screenshots = Screenshots(model: model) { [weak self] in self?.window }
        let state = windowState
        let seconds = { Int(state.skipInterval) }
        return [
            Command("app.play-pause", keys: ["space", "k"], alternativeKeys: ["AudioPlay"], row: .init(.playback, tr("Play or pause"))) {
                model.togglePlayPause()
            },
            Command("app.play") { model.play() },
            Command("app.pause", alternativeKeys: ["AudioPause"]) { model.pause() },
            Command("app.stop", alternativeKeys: ["AudioStop"]) { model.stop() },
            Command("app.skip-backward", keys: ["Left", "j"],
                    row: .init(.playback, String(format: trn("Back %d second", "Back %d seconds", seconds()), seconds()))) {
                model.skip(by: -state.skipInterval)
            },
            Command("app.skip-forward", keys: ["Right", "l"],
                    row: .init(.playback, String(format: trn("Forward %d second", "Forward %d seconds", seconds()), seconds()))) {
                model.skip(by: state.skipInterval)
            },
            Command("app.step-backward", keys: ["<Shift>Left"], row: .init(.playback, tr("Back or forward 1 second"))) {
                model.skip(by: -1)
            },
            Command("app.step-forward", keys: ["<Shift>Right"], row: .init(.playback, tr("Back or forward 1 second"))) {
                model.skip(by: 1)
            },
            Command("app.frame-backward", keys: ["comma"], row: .init(.playback, tr("Previous or next frame (pauses)"))) {
                model.stepFrame(forward: false)
            },
            Command("app.frame-forward", keys: ["period"], row: .init(.playback, tr("Previous or next frame (pauses)"))) {
                model.stepFrame(forward: true)
            },
            Command("app.screenshot", keys: ["<Control><Alt>s"], row: .init(.playback, tr("Take a screenshot"))) { screenshots.save() },
            Command("app.copy-frame", keys: ["<Control><Shift>c"], row: .init(.playback, tr("Copy the frame"))) { screenshots.copy() },
            Command("app.open-screenshot") { screenshots.openLastSaved() },
            Command("app.seek-start", keys: ["Home"], row: .init(.playback, tr("Go to the start or the end"))) { model.seek(to: 0) },
            Command("app.seek-end", keys: ["End"], row: .init(.playback, tr("Go to the start or the end"))) { model.skipToEnd() },
            Command("app.volume-up", keys: ["Up"], row: .init(.playback, tr("Volume up or down"))) {
                model.setVolume(model.volume + 0.05)
            },
            Command("app.volume-down", keys: ["Down"], row: .init(.playback, tr("Volume up or down"))) {
                model.setVolume(model.volume - 0.05)
            },
            Command("app.toggle-mute", keys: ["m"], row: .init(.playback, tr("Mute"))) { model.setMuted(!model.isMuted) },
            Command("app.slower", keys: ["bracketleft"], row: .init(.playback, tr("Slower or faster"))) {
                model.setRate(((model.rate - 0.05) * 100).rounded() / 100)
            },
            Command("app.faster", keys: ["bracketright"], row: .init(.playback, tr("Slower or faster"))) {
                model.setRate(((model.rate + 0.05) * 100).rounded() / 100)
            },
            Command("app.reset-rate", keys: ["BackSpace"], row: .init(.playback, tr("Normal speed"))) { model.setRate(1) },
            Command("app.rate", parameter: "d") { model.setRate(g_variant_get_double($0)) },
            Command("app.seek", parameter: "d") { model.seek(to: g_variant_get_double($0)) },
            Command("app.start-over") { model.startOver() },
            Command("app.ab-loop", keys: ["<Shift>l"], row: .init(.playback, tr("Loop: mark the start, then the end; again to clear"))) {
                model.cycleABLoop()
            },
            // Captured: as accelerators, GTK's own text bindings took Ctrl+Left and Ctrl+Right.
            Command("app.previous-line", keys: ["<Control>Left"], catching: .capture,
                    row: .init(.playback, tr("Previous or next subtitle line"))) { model.previousLine() },
            Command("app.next-line", keys: ["<Control>Right"], catching: .capture,
                    row: .init(.playback, tr("Previous or next subtitle line"))) { model.nextLine() },
            // Captured: the seek slider, focused, moves by Page Up and Page Down.
            Command("app.previous-chapter", keys: ["Page_Up"], catching: .capture,
                    row: .init(.playback, tr("Previous or next chapter"))) { model.goToPreviousChapter() },
            Command("app.next-chapter", keys: ["Page_Down"], catching: .capture,
                    row: .init(.playback, tr("Previous or next chapter"))) { model.goToNextChapter() },
            Command("app.chapter", parameter: "i", state: {
                g_variant_new_int32(Int32(model.currentChapter.flatMap { model.chapters.firstIndex(of: $0) } ?? -1))
            }) { model.goToChapter(Int(g_variant_get_int32($0))) },
            Command("app.subtitles-earlier", keys: ["z"], row: .init(.playback, tr("Subtitles 0.1 s earlier or later"))) {
                model.setSubtitleDelay(model.subtitleDelay - PlayerModel.subtitleDelayStep)
            },
            Command("app.subtitles-later", keys: ["x"], row: .init(.playback, tr("Subtitles 0.1 s earlier or later"))) {
                model.setSubtitleDelay(model.subtitleDelay + PlayerModel.subtitleDelayStep)
            },
            Command("app.subtitles-no-delay") { model.setSubtitleDelay(0) },
        ]
    }

    /// The subtitle tracks, the learner's line modes and the transcript.
    private func subtitleCommands(_ model: PlayerModel) -> [Command] { [
        Command("app.show-transcript", keys: ["t"], row: .init(.subtitles, tr("Show the transcript")),
                state: { [windowState] in g_variant_new_boolean(windowState.sidePanel == .transcript ? 1 : 0) }) {
            [windowState] in windowState.toggleSidePanel(.transcript)
        },
        Command("app.find", keys: ["<Control>f"], row: .init(.subtitles, tr("Search the queue or the transcript"))) {
            [weak self] in self?.window?.find()
        },
        Command("app.loop-lines", state: { g_variant_new_boolean(model.loopsLines ? 1 : 0) }) {
            model.setLoopsLines(!model.loopsLines)
        },
        Command("app.pause-after-lines", state: { g_variant_new_boolean(model.pausesAfterLines ? 1 : 0) }) {
            model.setPausesAfterLines(!model.pausesAfterLines)
        },
        Command("app.audio-track", parameter: "i", state: { g_variant_new_int32(Int32(model.media?.currentAudioTrack ?? 0)) }) {
            model.selectAudioTrack(Int(g_variant_get_int32($0)))
        },
        Command("app.subtitle-track", parameter: "i", state: { g_variant_new_int32(Int32(model.media?.currentSubtitleTrack ?? -1)) }) {
            let index = Int(g_variant_get_int32($0))
            model.selectSubtitleTrack(index < 0 ? nil : index)
        },
        Command("app.open-subtitles") { [weak self] in self?.window?.showOpenSubtitlesDialog() },
        // The second track: a subtitle file's URI ("" hides it), or a file picked in a dialog.
        Command("app.second-subtitles", parameter: "s") { value in
            guard let uri = g_variant_get_string(value, nil).map({ String(cString: $0) }) else { return }
            model.setSecondSubtitles(uri: uri.isEmpty ? nil : uri)
        },
        Command("app.second-subtitle-track", parameter: "i") { model.setSecondSubtitles(track: Int(g_variant_get_int32($0))) },
        Command("app.open-second-subtitles") { [weak self] in self?.window?.showSecondSubtitlesDialog() },
    ] }

    private func queueCommands(_ model: PlayerModel) -> [Command] {
        let loopNames: [(PlaybackQueue.LoopMode, String)] = [(.none, "none"), (.item, "item"), (.queue, "queue")]
        return [
            Command("app.next", keys: ["n"], alternativeKeys: ["AudioNext"], row: .init(.queue, tr("Next item"))) { model.next() },
            Command("app.previous", keys: ["p"], alternativeKeys: ["AudioPrev"], row: .init(.queue, tr("Previous item"))) {
                model.previous()
            },
            Command("app.show-queue", keys: ["F9"], row: .init(.queue, tr("Show the queue")),
                    state: { [windowState] in g_variant_new_boolean(windowState.sidePanel == .queue ? 1 : 0) }) {
                [windowState] in windowState.toggleSidePanel(.queue)
            },
            Command("app.shuffle", state: { g_variant_new_boolean(model.queue.shuffle ? 1 : 0) }) {
                model.setShuffle(!model.queue.shuffle)
            },
            Command("app.loop", parameter: "s", state: {
                g_variant_new_string(loopNames.first { $0.0 == model.queue.loopMode }?.1 ?? "none")
            }) { value in
                guard let name = g_variant_get_string(value, nil).map({ String(cString: $0) }),
                      let mode = loopNames.first(where: { $0.1 == name })?.0 else { return }
                model.setLoopMode(mode)
            },
        ]
    }

    private func windowCommands(_ model: PlayerModel) -> [Command] { [
        Command("app.toggle-fullscreen", keys: ["f", "F11"], row: .init(.window, tr("Fullscreen (or double-click the video)"))) {
            [windowState] in windowState.isFullscreen.toggle()
        },
        // Bubbled: a popover or a search field, focused, takes Escape first.
        Command("app.leave-fullscreen", keys: ["Escape"], catching: .bubble, row: .init(.window, tr("Leave fullscreen"))) {
            [windowState] in windowState.isFullscreen = false
        },
        Command("app.open", keys: ["<Control>o"], row: .init(.window, tr("Open files"))) { [weak self] in
            self?.showWindowIfHidden()
            self?.window?.showOpenDialog()
        },
        Command("app.open-folder", keys: ["<Control><Shift>o"], row: .init(.window, tr("Open a folder"))) { [weak self] in
            self?.showWindowIfHidden()
            self?.window?.showOpenFolderDialog()
        },
        // The sleep timer's choices: "off", minutes, or "end" (of the item playing).
        Command("app.sleep", parameter: "s", state: {
            let name = switch model.sleep {
            case .after(let seconds)?: "\(Int(seconds / 60))"
            case .endOfItem?: "end"
            case nil: "off"
            }
            return g_variant_new_string(name)
        }) { value in
            guard let name = g_variant_get_string(value, nil).map({ String(cString: $0) }) else { return }
            switch name {
            case "off": model.setSleep(nil)
            case "end": model.setSleep(.endOfItem)
            default: if let minutes = Double(name) { model.setSleep(.after(minutes * 60)) }
            }
        },
        Command("app.save-queue", keys: ["<Control>s"], row: .init(.window, tr("Save the queue as a playlist"))) { [weak self] in
            self?.showWindowIfHidden()
            self?.window?.showSaveQueueDialog()
        },
        Command("app.open-location", keys: ["<Control>l"], row: .init(.window, tr("Open a location"))) { [weak self] in
            self?.showOpenLocation()
        },
        Command("app.open-uri", parameter: "s") { [weak self] value in
            if let uri = g_variant_get_string(value, nil) { self?.open([String(cString: uri)]) }
        },
        Command("app.clear-recent") { [weak self] in self?.history.recent.clear() },
        Command("app.preferences", keys: ["<Control>comma"], row: .init(.window, tr("Preferences"))) { [weak self] in
            guard let self, let settings = self.settings else { return }
            self.presentOnce("preferences") {
                PreferencesWindow.present(settings: settings, nightModeAvailable: self.isNightModeAvailable, parent: self.window?.window)
            }
        },
        Command("win.show-help-overlay", keys: ["<Control>question"], row: .init(.window, tr("Keyboard shortcuts")),
                effect: .madeElsewhere),
        Command("", keys: ["F10"], catching: .gtk, row: .init(.window, tr("Main menu")), effect: .madeElsewhere),
        Command("app.about") { [weak self] in self?.presentOnce("about") { AboutWindow.present(parent: self?.window?.window) } },
        Command("app.quit", keys: ["<Control>q"], row: .init(.window, tr("Quit"))) { [weak self] in
            if let self { g_application_quit(gcast(self.app)) }
        },
    ] }

    private func showOpenLocation() {
        guard let window else { return }
        presentOnce("open-location") {
            OpenLocationDialog.present(parent: window.window, open: { [weak self] uri in self?.open([uri]) },
                                       refuse: { [weak self] message in
                                           Log.warning(message)
                                           self?.window?.showToast(message)
                                       })
        }
    }
}
