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
    /// Held while the window is hidden and sound plays on in the background.
    private var heldInBackground = false
    var skipInterval: Seconds { settings?.skipInterval ?? 10 }

    init() {
        g_set_application_name(BuildInfo.name)
        g_set_prgname("reel")
        app = adw_application_new(BuildInfo.appID, G_APPLICATION_HANDLES_OPEN)
        let gapp: UnsafeMutablePointer<GApplication> = gcast(app)
        g_application_add_main_option(gapp, "version", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                      tr("Show the version and exit"), nil)
        g_application_set_option_context_parameter_string(gapp, tr("[FILE|URI…]"))
        g_application_set_option_context_summary(gapp, tr("Play videos and audio files."))

        connectMainSignal(app, "handle-local-options") { args in
            let options = args.pointer(1)?.assumingMemoryBound(to: GVariantDict.self)
            if let options, g_variant_dict_contains(options, "version") != 0 {
                print("\(BuildInfo.name) \(BuildInfo.version)")
                args.setReturn(Int32(0))
                return
            }
            args.setReturn(Int32(-1))
        }
        connectMainSignal(app, "startup") { [weak self] _ in self?.startUp() }
        connectMainSignal(app, "activate") { [weak self] _ in self?.presentWindow() }
        connectMainSignal(app, "open") { [weak self] args in
            guard let self, let files = args.pointer(1) else { return }
            let list = files.assumingMemoryBound(to: OpaquePointer?.self)
            let uris = (0..<args.int(2)).compactMap { list[$0].flatMap { takeString(g_file_get_uri($0)) } }
            self.presentWindow()
            self.player?.model.open(uris)
        }
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
        let engine = GstPlayEngine(applicationID: BuildInfo.appID, applicationName: BuildInfo.name)
        let model = PlayerModel(engine: engine)
        player = (engine, model)
        let settings = Settings(schemaID: BuildInfo.appID)
        self.settings = settings
        model.setRate(settings.rate)
        model.setVolume(settings.volume)
        model.continueAfterErrors = settings.continueAfterErrors
        // Speed and volume are remembered across runs.
        model.observe { change in
            switch change {
            case .rate: settings.setRate(model.rate)
            case .volume: settings.setVolume(model.volume)
            default: break
            }
        }
        installActions(model)
        UI.loadCSS(Style.css)
        startMPRIS(model)
    }

    /// The desktop's media controls; without a session bus Reel plays on without them.
    private func startMPRIS(_ model: PlayerModel) {
        guard let connection = g_application_get_dbus_connection(gcast(app)) else { return }
        debugInterface = player.map {
            DebugInterface(connection: connection, engine: $0.engine) { [weak self] in self?.window?.controlsShown ?? false }
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
    func videoVisibilityChanged(visible: Bool, minimized: Bool) {
        guard let model = player?.model else { return }
        if !visible, minimized, settings?.minimizeAction == .pause {
            model.pause()
        }
        // Unseen video is not decoded, converted or uploaded; the sound plays on.
        model.setVideoVisible(visible)
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
        add("skip-forward", accels: ["Right", "l"]) { [weak self] _ in model.skip(by: self?.skipInterval ?? 10) }
        add("skip-backward", accels: ["Left", "j"]) { [weak self] _ in model.skip(by: -(self?.skipInterval ?? 10)) }
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
        add("open-uri", parameter: "s") { value in
            if let value, let uri = g_variant_get_string(value, nil) { model.open([String(cString: uri)]) }
        }
        add("open", accels: ["<Control>o"]) { [weak self] _ in self?.window?.showOpenDialog() }
        add("preferences", accels: ["<Control>comma"]) { [weak self] _ in
            guard let self, let settings = self.settings else { return }
            PreferencesWindow.present(settings: settings, parent: self.window?.window)
        }
        add("about") { [weak self] _ in self?.showAbout() }
        add("quit", accels: ["<Control>q"]) { [weak self] _ in
            guard let self else { return }
            g_application_quit(gcast(self.app))
        }
    }

    private func showAbout() {
        let about = adw_about_window_new()!
        adw_about_window_set_application_name(gcast(about), BuildInfo.name)
        adw_about_window_set_application_icon(gcast(about), BuildInfo.appID)
        adw_about_window_set_version(gcast(about), BuildInfo.version)
        adw_about_window_set_developer_name(gcast(about), tr("The Reel developers"))
        adw_about_window_set_comments(gcast(about), UI.escapeMarkup(tr("Play videos and audio files.")))
        adw_about_window_set_license_type(gcast(about), GTK_LICENSE_GPL_3_0)
        if let window { gtk_window_set_transient_for(gcast(about), gcast(window.window)) }
        gtk_window_present(gcast(about))
    }

    /// Adds an application action (reachable from menus, shortcuts and, for tests and scripts,
    /// over D-Bus as org.gtk.Actions).
    private func add(_ name: String, parameter: String? = nil, accels: [String] = [],
                     _ handler: @escaping @MainActor (OpaquePointer?) -> Void) {
        let type: OpaquePointer? = parameter.flatMap { g_variant_type_new($0) }
        let action = g_simple_action_new(name, type)!
        if let type { g_variant_type_free(type) }
        connectMainSignal(UnsafeMutableRawPointer(action), "activate") { args in
            handler(OpaquePointer(args.pointer(1)))
        }
        g_action_map_add_action(OpaquePointer(app), action)
        g_object_unref(UnsafeMutableRawPointer(action))
        if !accels.isEmpty {
            withCStringArray(accels) { gtk_application_set_accels_for_action(gcast(app), "app.\(name)", $0) }
        }
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

    /// The window reports fullscreen changes here, for MPRIS.
    func windowStateChanged() {
        mpris?.hostChanged()
    }
}
