// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGtk
import ReelCore
import ReelGLib

/// The application's actions, reachable from menus, shortcuts and (org.gtk.Actions) D-Bus, and
/// their accelerators: each one a plain call on the model or the window.
extension ReelApplication {
    func installActions(_ model: PlayerModel) {
        add("play-pause", accels: ["space", "k", "AudioPlay"]) { _ in model.togglePlayPause() }
        add("play") { _ in model.play() }
        add("pause", accels: ["AudioPause"]) { _ in model.pause() }
        add("stop", accels: ["AudioStop"]) { _ in model.stop() }
        add("skip-forward", accels: ["Right", "l"]) { [weak self] _ in if let self { model.skip(by: self.skipInterval) } }
        add("skip-backward", accels: ["Left", "j"]) { [weak self] _ in if let self { model.skip(by: -self.skipInterval) } }
        add("step-forward", accels: ["<Shift>Right"]) { _ in model.skip(by: 1) }
        add("step-backward", accels: ["<Shift>Left"]) { _ in model.skip(by: -1) }
        add("seek-start", accels: ["Home"]) { _ in model.seek(to: 0) }
        add("seek-end", accels: ["End"]) { _ in model.skipToEnd() }
        add("volume-up", accels: ["Up"]) { _ in model.setVolume(model.volume + 0.05) }
        add("volume-down", accels: ["Down"]) { _ in model.setVolume(model.volume - 0.05) }
        add("toggle-mute", accels: ["m"]) { _ in model.setMuted(!model.isMuted) }
        add("next", accels: ["n", "AudioNext"]) { _ in model.next() }
        add("previous", accels: ["p", "AudioPrev"]) { _ in model.previous() }
        add("faster", accels: ["bracketright"]) { _ in model.setRate(((model.rate + 0.05) * 100).rounded() / 100) }
        add("slower", accels: ["bracketleft"]) { _ in model.setRate(((model.rate - 0.05) * 100).rounded() / 100) }
        add("reset-rate", accels: ["BackSpace"]) { _ in model.setRate(1) }
        add("rate", parameter: "d") { value in
            if let value { model.setRate(g_variant_get_double(value)) }
        }
        add("seek", parameter: "d") { value in
            if let value { model.seek(to: g_variant_get_double(value)) }
        }
        add("open-uri", parameter: "s") { [weak self] value in
            if let value, let uri = g_variant_get_string(value, nil) { self?.open([String(cString: uri)]) }
        }
        add("open", accels: ["<Control>o"]) { [weak self] _ in
            self?.showWindowIfHidden()
            self?.window?.showOpenDialog()
        }
        add("open-folder", accels: ["<Control><Shift>o"]) { [weak self] _ in
            self?.showWindowIfHidden()
            self?.window?.showOpenFolderDialog()
        }
        add("open-location", accels: ["<Control>l"]) { [weak self] _ in
            guard let self, let window = self.window else { return }
            self.presentOnce("open-location") {
                OpenLocationDialog.present(parent: window.window, open: { [weak self] uri in self?.open([uri]) },
                                           refuse: { [weak self] message in
                                               Log.warning(message)
                                               self?.window?.showToast(message)
                                           })
            }
        }
        add("toggle-fullscreen", accels: ["f", "F11"]) { [weak self] _ in self?.window?.toggleFullscreen() }
        add("leave-fullscreen") { [weak self] _ in self?.window?.setFullscreen(false) }
        withCStringArray(["<Control>question"]) { gtk_application_set_accels_for_action(gcast(app), "win.show-help-overlay", $0) }
        add("preferences", accels: ["<Control>comma"]) { [weak self] _ in
            guard let self, let settings = self.settings else { return }
            self.presentOnce("preferences") { PreferencesWindow.present(settings: settings, nightModeAvailable: self.isNightModeAvailable,
                                                                        parent: self.window?.window) }
        }
        // Kept in the settings, as Preferences' switch is; missing (greyed out in the menu)
        // where its compressor is not installed.
        if let nightMode = settings?.action(.nightMode), isNightModeAvailable {
            g_action_map_add_action(OpaquePointer(app), nightMode)
            g_object_unref(UnsafeMutableRawPointer(nightMode))
        }
        add("about") { [weak self] _ in self?.presentOnce("about") { AboutWindow.present(parent: self?.window?.window) } }
        add("start-over") { _ in model.startOver() }
        add("ab-loop", accels: ["<Shift>l"]) { _ in model.cycleABLoop() }
        add("frame-forward", accels: ["period"]) { _ in model.stepFrame(forward: true) }
        add("frame-backward", accels: ["comma"]) { _ in model.stepFrame(forward: false) }
        let screenshots = Screenshots(model: model) { [weak self] in self?.window }
        add("screenshot", accels: ["<Control><Alt>s"]) { _ in screenshots.save() }
        add("copy-frame", accels: ["<Control><Shift>c"]) { _ in screenshots.copy() }
        add("open-screenshot") { _ in screenshots.openLastSaved() }
        // Their keys, Ctrl+Left and Ctrl+Right, are the window's (PlayerWindow.installLineKeys).
        add("previous-line") { _ in model.previousLine() }
        add("next-line") { _ in model.nextLine() }
        add("subtitles-earlier", accels: ["z"]) { _ in model.setSubtitleDelay(model.subtitleDelay - PlayerModel.subtitleDelayStep) }
        add("subtitles-later", accels: ["x"]) { _ in model.setSubtitleDelay(model.subtitleDelay + PlayerModel.subtitleDelayStep) }
        add("subtitles-no-delay") { _ in model.setSubtitleDelay(0) }
        installQueueActions(model)
        installChapterActions(model)
        installLineActions(model)
        installTrackActions(model)
        installPictureActions(model)
        add("quit", accels: ["<Control>q"]) { [weak self] _ in
            guard let self else { return }
            g_application_quit(gcast(self.app))
        }
    }

    /// One of each dialog: asked again (keys, menus, D-Bus), the open one comes to the front.
    /// Its window comes too: a dialog asked for while the window is hidden (over D-Bus, Reel
    /// playing on in the background) must not float on its own.
    private func presentOnce(_ name: String, _ make: () -> Widget) {
        showWindowIfHidden()
        if let open = openDialogs[name] { return gtk_window_present(gcast(open)) }
        let dialog = make()
        openDialogs[name] = dialog
        connectMainSignal(dialog, "destroy") { [weak self] _ in self?.openDialogs[name] = nil }
    }

    /// Shuffle and loop are stateful actions mirroring the model (menus show their state); the
    /// queue panel's visibility is one too.
    private func installQueueActions(_ model: PlayerModel) {
        let shuffle = add("shuffle", state: g_variant_new_boolean(0)) { _ in model.setShuffle(!model.queue.shuffle) }
        let loopNames: [(PlaybackQueue.LoopMode, String)] = [(.none, "none"), (.item, "item"), (.queue, "queue")]
        let loop = add("loop", parameter: "s", state: g_variant_new_string("none")) { value in
            guard let value, let name = g_variant_get_string(value, nil).map({ String(cString: $0) }),
                  let mode = loopNames.first(where: { $0.1 == name })?.0 else { return }
            model.setLoopMode(mode)
        }
        model.observe { change in
            guard change == .queue else { return }
            g_simple_action_set_state(shuffle, g_variant_new_boolean(model.queue.shuffle ? 1 : 0))
            let name = loopNames.first { $0.0 == model.queue.loopMode }?.1 ?? "none"
            g_simple_action_set_state(loop, g_variant_new_string(name))
        }
        add("show-queue", state: g_variant_new_boolean(0), accels: ["F9"]) { [weak self] _ in
            guard let window = self?.window else { return }
            window.setQueueShown(!window.isQueueShown)
        }
        add("show-transcript", state: g_variant_new_boolean(0), accels: ["t"]) { [weak self] _ in
            guard let window = self?.window else { return }
            window.setSidePanel(.transcript, shown: !window.isTranscriptShown)
        }
        add("find", accels: ["<Control>f"]) { [weak self] _ in self?.window?.find() }
    }

    /// Moving by chapter; `chapter` is stateful so the chapters menu shows the one playing.
    /// Their keys, Page Up and Page Down, are the window's (PlayerWindow.installMoveKeys).
    private func installChapterActions(_ model: PlayerModel) {
        add("previous-chapter") { _ in model.goToPreviousChapter() }
        add("next-chapter") { _ in model.goToNextChapter() }
        let chapter = add("chapter", parameter: "i", state: g_variant_new_int32(-1)) { value in
            if let value { model.goToChapter(Int(g_variant_get_int32(value))) }
        }
        model.observe { change in
            guard change == .chapters else { return }
            let index = model.currentChapter.flatMap { current in model.chapters.firstIndex(of: current) } ?? -1
            g_simple_action_set_state(chapter, g_variant_new_int32(Int32(index)))
        }
    }

    /// Line by line and shadowing are stateful, so the subtitles menu shows them checked.
    private func installLineActions(_ model: PlayerModel) {
        let loop = add("loop-lines", state: g_variant_new_boolean(0)) { _ in model.setLoopsLines(!model.loopsLines) }
        let pause = add("pause-after-lines", state: g_variant_new_boolean(0)) { _ in
            model.setPausesAfterLines(!model.pausesAfterLines)
        }
        model.observe { change in
            guard change == .lineMode else { return }
            g_simple_action_set_state(loop, g_variant_new_boolean(model.loopsLines ? 1 : 0))
            g_simple_action_set_state(pause, g_variant_new_boolean(model.pausesAfterLines ? 1 : 0))
        }
    }

    /// The track choices are stateful so menus show which one plays; the state follows the media.
    private func installTrackActions(_ model: PlayerModel) {
        let audio = add("audio-track", parameter: "i", state: g_variant_new_int32(0)) { value in
            if let value { model.selectAudioTrack(Int(g_variant_get_int32(value))) }
        }
        let subtitles = add("subtitle-track", parameter: "i", state: g_variant_new_int32(-1)) { value in
            guard let value else { return }
            let index = Int(g_variant_get_int32(value))
            model.selectSubtitleTrack(index < 0 ? nil : index)
        }
        add("open-subtitles") { [weak self] _ in self?.window?.showOpenSubtitlesDialog() }
        // The second track: a subtitle file's URI ("" hides it), or a file picked in a dialog.
        add("second-subtitles", parameter: "s") { value in
            guard let value, let uri = g_variant_get_string(value, nil).map({ String(cString: $0) }) else { return }
            model.setSecondSubtitles(uri: uri.isEmpty ? nil : uri)
        }
        add("second-subtitle-track", parameter: "i") { value in
            if let value { model.setSecondSubtitles(track: Int(g_variant_get_int32(value))) }
        }
        add("open-second-subtitles") { [weak self] _ in self?.window?.showSecondSubtitlesDialog() }
        model.observe { change in
            guard change == .media || change == .item else { return }
            g_simple_action_set_state(audio, g_variant_new_int32(Int32(model.media?.currentAudioTrack ?? 0)))
            g_simple_action_set_state(subtitles, g_variant_new_int32(Int32(model.media?.currentSubtitleTrack ?? -1)))
        }
    }

    /// Adds an application action (reachable from menus, shortcuts and, for tests and scripts,
    /// over D-Bus as org.gtk.Actions); with a `state`, a stateful one menus show checked.
    @discardableResult
    func add(_ name: String, parameter: String? = nil, state: OpaquePointer? = nil, accels: [String] = [],
                     _ handler: @escaping @MainActor (OpaquePointer?) -> Void) -> OpaquePointer {
        let type: OpaquePointer? = parameter.flatMap { g_variant_type_new($0) }
        let action = (state.map { g_simple_action_new_stateful(name, type, $0) } ?? g_simple_action_new(name, type))!
        if let type { g_variant_type_free(type) }
        connectMainSignal(UnsafeMutableRawPointer(action), "activate") { args in
            handler(OpaquePointer(args.pointer(1)))
        }
        g_action_map_add_action(OpaquePointer(app), action)
        g_object_unref(UnsafeMutableRawPointer(action))
        if !accels.isEmpty {
            self.accels["app.\(name)"] = accels
            withCStringArray(accels) { gtk_application_set_accels_for_action(gcast(app), "app.\(name)", $0) }
        }
        return action
    }

    /// While a text field (a search) has the keyboard, keys it types are its own: GTK hands
    /// application accelerators a key before the focused widget, so Space, L or P would play,
    /// skip or go back instead of being typed. Keys with Ctrl or Alt, and F-keys, stay.
    func setTyping(_ typing: Bool) {
        for (action, keys) in accels {
            let kept = typing ? keys.filter(Self.isNotTyped) : keys
            withCStringArray(kept) { gtk_application_set_accels_for_action(gcast(app), action, $0) }
        }
    }

    private static func isNotTyped(_ accel: String) -> Bool {
        accel.contains("<Control>") || accel.contains("<Primary>") || accel.contains("<Alt>") || accel.hasPrefix("Audio")
            || (accel.first == "F" && accel.dropFirst().allSatisfy(\.isNumber) && accel.count > 1)
    }
}
