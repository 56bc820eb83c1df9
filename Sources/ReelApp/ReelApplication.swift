import CAdwaita
import CGio
import CGtk
import CShims
import Foundation
import ReelCore
import ReelEngine
import ReelGLib
import ReelMPRIS

/// The GApplication: single instance, command line, actions and their shortcuts. It owns the
/// engine and the model and hands the model to the window and to the desktop integrations.
@MainActor
final class ReelApplication {
    let app: UnsafeMutablePointer<AdwApplication>
    private var player: (engine: GstPlayEngine, model: PlayerModel)?
    private var window: PlayerWindow?
    private var mpris: MPRISServer?
    private var debugInterface: DebugInterface?
    private(set) var settings: Settings?
    /// The queue as it was left, put back when Reel starts without files (once per run).
    private var savedQueue: SavedQueue?
    /// Held while the window is hidden and sound plays on in the background.
    private var heldInBackground = false
    private var openDialogs: [String: Widget] = [:]
    var skipInterval: Seconds { settings?.skipInterval ?? Seconds(Settings.defaultSkipInterval) }

    init() {
        g_set_application_name(BuildInfo.name)
        g_set_prgname("reel")
        // Files from the command line come through "command-line" (with the options, in the
        // running instance); files from the desktop (D-Bus activation, `gio open`) through "open".
        app = adw_application_new(BuildInfo.appID, GApplicationFlags(rawValue: G_APPLICATION_HANDLES_OPEN.rawValue |
                                                                     G_APPLICATION_HANDLES_COMMAND_LINE.rawValue))
        let gapp: UnsafeMutablePointer<GApplication> = gcast(app)
        g_application_add_main_option(gapp, "version", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                      tr("Show the version and exit"), nil)
        g_application_add_main_option(gapp, "enqueue", CChar(UInt8(ascii: "e")), G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                      tr("Add the files to the queue instead of playing them now"), nil)
        g_application_add_main_option(gapp, "repeat-each", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING,
                                      tr("Play each item N times before moving on (1–100)"), "N")
        g_application_add_main_option(gapp, "gap", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING,
                                      tr("Wait this many seconds between plays (0–60)"), tr("SECONDS"))
        g_application_add_main_option(gapp, "rate", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING,
                                      tr("Play at this speed (0.25–4)"), tr("RATE"))
        g_application_set_option_context_parameter_string(gapp, tr("[FILE|FOLDER|URI…]"))
        g_application_set_option_context_summary(gapp, tr("Play videos and audio files."))

        connectMainSignal(app, "handle-local-options") { args in
            guard let dict = args.pointer(1)?.assumingMemoryBound(to: GVariantDict.self) else { return args.setReturn(Int32(-1)) }
            if g_variant_dict_contains(dict, "version") != 0 {
                print("\(BuildInfo.name) \(BuildInfo.version)")
                return args.setReturn(Int32(0))
            }
            // Checked here, in the process the user started, so the message and the exit status
            // reach them even when another Reel is already running.
            if let problem = Self.options(from: dict).problem {
                FileHandle.standardError.write(Data("reel: \(problem)\n".utf8))
                return args.setReturn(Int32(2))
            }
            args.setReturn(Int32(-1))
        }
        connectMainSignal(app, "startup") { [weak self] _ in self?.startUp() }
        // Where a long file was left, and the queue, are kept when Reel quits, however it quits cleanly.
        connectMainSignal(app, "shutdown") { [weak self] _ in
            self?.player?.model.saveResumePosition()
            self?.savedQueue?.waitUntilWritten()
        }
        connectMainSignal(app, "activate") { [weak self] _ in
            self?.presentWindow()
            self?.restoreQueue()
        }
        connectMainSignal(app, "open") { [weak self] args in
            guard let self, let files = args.pointer(1) else { return }
            let list = files.assumingMemoryBound(to: OpaquePointer?.self)
            let uris = (0..<args.int(2)).compactMap { list[$0].flatMap { takeString(g_file_get_uri($0)) } }
            self.presentWindow()
            self.open(uris)
        }
        connectMainSignal(app, "command-line") { [weak self] args in
            guard let self, let commandLine = args.pointer(1) else { return args.setReturn(Int32(1)) }
            args.setReturn(self.handle(commandLine: commandLine.assumingMemoryBound(to: GApplicationCommandLine.self)))
        }
    }

    private static func options(from dict: UnsafeMutablePointer<GVariantDict>) -> CommandLineOptions {
        func text(_ key: String) -> String? {
            let type = g_variant_type_new("s")
            defer { g_variant_type_free(type) }
            guard let value = g_variant_dict_lookup_value(dict, key, type) else { return nil }
            defer { g_variant_unref(value) }
            return g_variant_get_string(value, nil).map { String(cString: $0) }
        }
        return CommandLineOptions(enqueue: g_variant_dict_contains(dict, "enqueue") != 0, repeatEach: text("repeat-each"),
                                  gap: text("gap"), rate: text("rate"))
    }

    /// A command line, from this process or one started while Reel was running: apply the
    /// options, then play (or queue) the files and folders it names, or just show the window.
    private func handle(commandLine: UnsafeMutablePointer<GApplicationCommandLine>) -> Int32 {
        guard let model = player?.model else { return 1 }
        let options = Self.options(from: g_application_command_line_get_options_dict(commandLine))
        if let problem = options.problem {
            // Only a client that skipped the local check gets here.
            Log.warning(problem)
            return 2
        }
        options.apply(to: model)
        var argc: Int32 = 0
        let argv = g_application_command_line_get_arguments(commandLine, &argc)
        defer { g_strfreev(argv) }
        let uris: [String] = (1..<max(1, Int(argc))).compactMap { index in
            guard let argument = argv?[index], let file = g_application_command_line_create_file_for_arg(commandLine, argument) else {
                return nil
            }
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            return takeString(g_file_get_uri(file))
        }
        presentWindow()
        if uris.isEmpty { restoreQueue() } else { open(uris, enqueue: options.enqueue) }
        return 0
    }

    /// Puts back the queue of the last run, paused where it was, when this run has nothing yet.
    private func restoreQueue() {
        guard let saved = savedQueue?.contents else { return }
        player?.model.restore(saved.uris, current: saved.current)
    }

    /// Plays (or queues) what the user opened, wherever from: folders become their media files.
    func open(_ uris: [String], enqueue: Bool = false) {
        guard let model = player?.model else { return }
        let expansion = MediaFolder.expand(uris)
        for folder in expansion.emptyFolders {
            let message = String(format: tr("“%@” contains no videos or audio files."), folder)
            Log.warning(message)
            window?.showToast(message)
        }
        guard !expansion.uris.isEmpty else { return }
        if enqueue { model.enqueue(expansion.uris) } else { model.open(expansion.uris) }
    }

    func run(arguments: [String]) -> Int32 {
        let argv = arguments.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pointers: [UnsafeMutablePointer<CChar>?] = argv + [nil]
        return pointers.withUnsafeMutableBufferPointer {
            g_application_run(gcast(app), Int32(arguments.count), $0.baseAddress)
        }
    }

    // MARK: Start-up (primary instance only)

    private func startUp() {
        // GTK has opened the display (GtkApplication's own startup ran first); no window yet.
        Renderer.preferCairoOnSoftwareGL()
        let settings = Settings(schemaID: BuildInfo.appID)
        self.settings = settings
        let engine = GstPlayEngine(applicationID: BuildInfo.appID, applicationName: BuildInfo.name)
        let resumePositions = settings.resumePlayback ? ResumePositions(file: .named("positions.json")) : nil
        if let problem = resumePositions?.loadProblem { Log.warning(problem) }
        let model = PlayerModel(engine: engine, scheduler: GLibScheduler(), resumePositions: resumePositions)
        player = (engine, model)
        let savedQueue = SavedQueue(file: .named("queue.json"))
        if let problem = savedQueue.problem { Log.warning(problem) }
        savedQueue.onWriteFailure = { Log.warning($0) }
        self.savedQueue = savedQueue
        // How long a stream may buffer without playing on; tests shorten it.
        if let seconds = ProcessInfo.processInfo.environment["REEL_NETWORK_TIMEOUT"].flatMap(Double.init), seconds > 0 {
            model.bufferingTimeout = seconds
        }
        model.setRate(settings.rate)
        model.setVolume(settings.volume)
        let applySequenceSettings: @MainActor () -> Void = {
            model.continueAfterErrors = settings.continueAfterErrors
            model.setRepeatEach(settings.repeatEach)
            model.setGap(settings.gap)
            model.pausesWhenHiddenByDesktop = settings.minimizeAction == .pause
        }
        applySequenceSettings()
        settings.observe([.continueAfterErrors, .repeatEach, .gap, .minimizeAction], applySequenceSettings)
        settings.observe([.skipInterval]) { [weak self] in
            guard let self else { return }
            self.window?.showSkipInterval(Int(self.skipInterval))
        }
        // Speed and volume are remembered across runs; what was played goes to the desktop's
        // recent files.
        model.observe { change in
            switch change {
            case .item:
                if let uri = model.currentItem?.uri { _ = gtk_recent_manager_add_item(gtk_recent_manager_get_default(), uri) }
                savedQueue.save(model.queue)
            case .queue:
                savedQueue.save(model.queue)
            case .rate: settings.setRate(model.rate)
            case .volume: settings.setVolume(model.volume)
            case .stallRecovery(let recovery, let position):
                let what = recovery == .flushingSeek ? "a flushing seek" : "loading the item again"
                Log.warning("playback of \(model.currentItem?.uri ?? "?") stalled at \(position) s; recovering by \(what)")
            default: break
            }
        }
        CrashReporter.install(model: model)
        installActions(model)
        UI.loadCSS(Style.css)
        startMPRIS(model)
    }

    /// The desktop's media controls; without a session bus Reel plays on without them.
    private func startMPRIS(_ model: PlayerModel) {
        guard let connection = g_application_get_dbus_connection(gcast(app)) else { return }
        debugInterface = player.map {
            DebugInterface(connection: connection, engine: $0.engine) { [weak self] in self?.window }
        } ?? nil
        do {
            mpris = try MPRISServer(connection: connection, model: model, host: self, desktopEntry: BuildInfo.appID,
                                    mimeTypes: MediaTypes.mimeTypes)
        } catch {
            Log.warning("media controls are unavailable: \(error.message)")
        }
    }

    private func presentWindow() {
        guard let player else { return }
        if window == nil {
            let window = PlayerWindow(application: self, model: player.model, frameSink: player.engine.frameSink)
            connectMainSignal(window.window, "destroy") { [weak self] _ in self?.window = nil }
            self.window = window
        }
        window?.present()
        if heldInBackground {
            heldInBackground = false
            g_application_release(gcast(app))
        }
    }

    // MARK: Background playback

    /// Nothing of the video can be seen (minimized, hidden) or it can again.
    func videoVisibilityChanged(visible: Bool, hiddenByDesktop: Bool) {
        player?.model.setVideoVisible(visible, hiddenByDesktop: hiddenByDesktop)
    }

    /// Closing the window while playing keeps the sound going when the user chose so; Raise
    /// (from the desktop's media controls) brings the window back.
    func shouldHideInsteadOfClosing() -> Bool {
        guard let model = player?.model, settings?.closeAction == .keepPlaying, model.status.isPlaying else { return false }
        if !heldInBackground {
            heldInBackground = true
            g_application_hold(gcast(app))
        }
        return true
    }

    // MARK: Actions

    private func installActions(_ model: PlayerModel) {
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
        add("open", accels: ["<Control>o"]) { [weak self] _ in self?.window?.showOpenDialog() }
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
            self.presentOnce("preferences") { PreferencesWindow.present(settings: settings, parent: self.window?.window) }
        }
        add("about") { [weak self] _ in self?.presentOnce("about") { AboutWindow.present(parent: self?.window?.window) } }
        add("start-over") { _ in model.startOver() }
        installQueueActions(model)
        installTrackActions(model)
        add("quit", accels: ["<Control>q"]) { [weak self] _ in
            guard let self else { return }
            g_application_quit(gcast(self.app))
        }
    }

    /// One of each dialog: asked again (keys, menus, D-Bus), the open one comes to the front.
    private func presentOnce(_ name: String, _ make: () -> Widget) {
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
        model.observe { change in
            guard change == .media || change == .item else { return }
            g_simple_action_set_state(audio, g_variant_new_int32(Int32(model.media?.currentAudioTrack ?? 0)))
            g_simple_action_set_state(subtitles, g_variant_new_int32(Int32(model.media?.currentSubtitleTrack ?? -1)))
        }
    }

    /// Adds an application action (reachable from menus, shortcuts and, for tests and scripts,
    /// over D-Bus as org.gtk.Actions); with a `state`, a stateful one menus show checked.
    @discardableResult
    private func add(_ name: String, parameter: String? = nil, state: OpaquePointer? = nil, accels: [String] = [],
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
            withCStringArray(accels) { gtk_application_set_accels_for_action(gcast(app), "app.\(name)", $0) }
        }
        return action
    }
}

extension ReelApplication: MPRISHost {
    func raise() {
        presentWindow()
    }

    func quit() {
        g_application_quit(gcast(app))
    }

    var isFullscreen: Bool { window?.isFullscreen ?? false }

    func setFullscreen(_ fullscreen: Bool) {
        window?.setFullscreen(fullscreen)
    }

    func currentFramePNG() -> [UInt8]? {
        guard let player, let texture = reel_video_paintable_get_texture(player.engine.frameSink.paintable.pointer),
              let bytes = gdk_texture_save_to_png_bytes(texture) else { return nil }
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        guard let data = g_bytes_get_data(bytes, &size) else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// The window reports the queue panel opening and closing here: the action's state shows it.
    func queueShownChanged(_ shown: Bool) {
        guard let action = g_action_map_lookup_action(OpaquePointer(app), "show-queue") else { return }
        g_simple_action_set_state(gcast(action), g_variant_new_boolean(shown ? 1 : 0))
    }

    /// The window reports fullscreen changes here, for MPRIS.
    func windowStateChanged() {
        mpris?.hostChanged()
    }
}
