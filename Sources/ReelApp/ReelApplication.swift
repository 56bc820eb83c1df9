// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGio
import CGtk
import CShims
import Foundation
import ReelCore
import ReelDiagnostics
import ReelEngine
import ReelGLib
import ReelMPRIS

/// The GApplication: single instance, command line, actions and their shortcuts. It owns the
/// engine and the model and hands the model to the window and to the desktop integrations.
@MainActor
final class ReelApplication {
    let app: UnsafeMutablePointer<AdwApplication>
    private var player: (engine: GstPlayEngine, model: PlayerModel)?
    var window: PlayerWindow?
    private var mpris: MPRISServer?
    /// The tests' window into Reel, when switched on (see `Diagnostics`).
    private var diagnostics: AnyObject?
    private(set) var settings: Settings?
    private(set) var history = History()
    /// Held while the window is hidden and sound plays on in the background.
    private var heldInBackground = false
    var openDialogs: [String: Widget] = [:]
    /// Every command, its keys and its action (`ReelApplication+Commands`).
    var commandTable: [Command] = []
    /// Fullscreen, the side panel, the skip interval, typing: the window's state, owned here.
    let windowState = WindowState(skipInterval: Seconds(Settings.defaultSkipInterval))
    var isNightModeAvailable: Bool { player?.engine.isNightModeAvailable ?? false }

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
        g_application_add_main_option(gapp, "ab-loop", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING,
                                      tr("Loop the stretch from A to B seconds in the first file (e.g. 12.5-15)"), "A-B")
        g_application_add_main_option(gapp, "sub-delay", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING,
                                      tr("Show subtitles this many seconds later (earlier when negative)"), tr("SECONDS"))
        g_application_add_main_option(gapp, "audio-delay", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING,
                                      tr("Play the sound this many seconds later (earlier when negative)"), tr("SECONDS"))
        g_application_add_main_option(gapp, "loop-lines", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                      tr("Play each subtitle line as a stretch of its own, repeat-each times"), nil)
        g_application_add_main_option(gapp, "pause-after-lines", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                      tr("Pause at the end of every subtitle line until Play, to speak it back"), nil)
        g_application_add_main_option(gapp, "sleep", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING,
                                      tr("Pause after this many minutes, the sound fading out"), tr("MINUTES"))
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
            self?.history.savedQueue?.waitUntilWritten()
            self?.history.recent.saved()
        }
        connectMainSignal(app, "activate") { [weak self] _ in
            self?.presentWindow()
            self?.restoreQueue()
        }
        connectMainSignal(app, "open") { [weak self] args in
            guard let self, let files = args.pointer(1) else { return }
            let list = files.assumingMemoryBound(to: OpaquePointer?.self)
            let uris = (0..<args.int(2)).compactMap { list[$0].flatMap { takeString(g_file_get_uri($0)) } }
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
        var options = CommandLineOptions(enqueue: g_variant_dict_contains(dict, "enqueue") != 0, repeatEach: text("repeat-each"),
                                         gap: text("gap"), rate: text("rate"), abLoop: text("ab-loop"), subtitleDelay: text("sub-delay"),
                                         audioDelay: text("audio-delay"), sleep: text("sleep"))
        options.loopLines = g_variant_dict_contains(dict, "loop-lines") != 0
        options.pauseAfterLines = g_variant_dict_contains(dict, "pause-after-lines") != 0
        return options
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
        // Before the first item loads, so that it starts at the speed asked for (a change once
        // it plays holds the reported position for the sound sink's latency); and again once it
        // has started, so that the command line wins over what was remembered for that file.
        options.apply(to: model)
        let started: @MainActor () -> Void = {
            options.apply(to: model)
            if let loop = options.abLoop, let end = loop.end { model.setABLoop(start: loop.start, end: end) }
        }
        if uris.isEmpty {
            presentWindow()
            restoreQueue()
            started()
        } else {
            open(uris, enqueue: options.enqueue, started: started)
        }
        return 0
    }

    /// Puts back the queue of the last run, paused where it was, when this run has nothing yet.
    private func restoreQueue() {
        history.savedQueue?.whenLoaded { [weak self] saved in
            guard let saved else { return }
            self?.player?.model.restore(saved.uris, current: saved.current)
        }
    }

    /// Plays (or queues) what the user opened, wherever from, and shows the window; `started`
    /// runs once its first item is loading. The item starts loading before a first window is
    /// built, so that its first frame is ready about when the window is. Folders become their
    /// media files, listed off the main thread: the first plays as soon as it is found and the
    /// rest of the library fills in behind it.
    func open(_ uris: [String], enqueue: Bool = false, started: @escaping @MainActor () -> Void = {}) {
        guard let model = player?.model else { return }
        guard uris.contains(where: MediaFolder.isFolder) else {
            if enqueue { model.enqueue(uris) } else { model.open(uris) }
            presentWindow()
            return started()
        }
        // The listing's items stay together, in order, whatever else is queued meanwhile.
        var last: Int?
        MediaFolder.listInBackground(uris, recursive: settings?.recurseFolders ?? true, found: { batch in
            if let previous = last {
                last = model.add(batch, after: previous).last?.id
            } else {
                last = (enqueue ? model.enqueue(batch) : model.open(batch)).last?.id
                started()
            }
        }, done: { [weak self] problems in self?.report(problems) })
        presentWindow()
    }

    /// What a folder listing skipped, in words: in the log, and the first in a toast.
    private func report(_ problems: MediaFolder.Problems) {
        var messages = problems.emptyFolders.map { folder in
            String(format: folder.hadFolders ? tr("“%@” and the folders in it contain no videos or audio files.")
                                             : tr("“%@” contains no videos or audio files."), folder.name)
        }
        messages += problems.unreadable.map { String(format: tr("The folder “%@” could not be read; it was skipped."), $0) }
        messages += problems.loops.map { String(format: tr("“%@” leads back to a folder already opened; it was skipped."), $0) }
        for message in messages { Log.warning(message) }
        // One toast at a time: the first says it, the log has them all.
        if let first = messages.first { window?.showToast(messages.count == 1 ? first : "\(first) (+\(messages.count - 1))") }
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
        GTKMediaModules.restoreUserPath()
        let settings = Settings(schemaID: BuildInfo.appID)
        self.settings = settings
        let engine = GstPlayEngine(applicationID: BuildInfo.appID, applicationName: BuildInfo.name)
        let resumePositions = settings.resumePlayback ? ResumePositions(file: .named("positions.json")) : nil
        if let problem = resumePositions?.loadProblem { Log.warning(problem) }
        let model = PlayerModel(engine: engine, scheduler: GLibScheduler(), resumePositions: resumePositions)
        player = (engine, model)
        let savedQueue = SavedQueue(file: .named("queue.json"))
        savedQueue.onProblem = { Log.warning($0) }
        history.savedQueue = savedQueue
        let recentItems = history.recent
        if let problem = recentItems.loadProblem { Log.warning(problem) }
        recentItems.onProblem = { Log.warning($0) }
        model.setRate(settings.rate)
        model.setVolume(settings.volume)
        let applySequenceSettings: @MainActor () -> Void = {
            model.continueAfterErrors = settings.continueAfterErrors
            model.setRepeatEach(settings.repeatEach)
            model.setGap(settings.gap)
            model.pausesWhenHiddenByDesktop = settings.minimizeAction == .pause
            model.setLineMargins(leadIn: settings.lineMargins.leadIn, leadOut: settings.lineMargins.leadOut)
        }
        applySequenceSettings()
        settings.observe([.continueAfterErrors, .repeatEach, .gap, .minimizeAction, .lineLeadIn, .lineLeadOut],
                         applySequenceSettings)
        let applyNightMode: @MainActor () -> Void = { engine.setNightMode(settings.nightMode) }
        applyNightMode()
        settings.observe([.nightMode], applyNightMode)
        let windowState = windowState
        windowState.skipInterval = settings.skipInterval
        settings.observe([.skipInterval]) { windowState.skipInterval = settings.skipInterval }
        // Speed and volume are remembered across runs; what was played goes to the desktop's
        // recent files.
        model.observe { change in
            switch change {
            case .item:
                if let uri = model.currentItem?.uri { _ = gtk_recent_manager_add_item(gtk_recent_manager_get_default(), uri) }
                savedQueue.save(model.queue)
            case .status, .media:
                // Once it plays, under the title it plays with (a station's name for a stream).
                if model.status == .playing, let uri = model.currentItem?.uri {
                    recentItems.add(uri: uri, title: model.isLive ? model.media?.album ?? model.title : model.title)
                }
            case .queue:
                savedQueue.save(model.queue)
            case .rate: settings.setRate(model.rate)
            case .volume: settings.setVolume(model.volume)
            case .stallRecovery(let recovery, let position):
                let what = switch recovery {
                case .flushingSeek: "a flushing seek"
                case .reload: "loading the item again"
                case .end: "taking it as the item's end"
                case .reconnect: "connecting again"
                }
                Log.warning("playback of \(model.currentItem?.uri ?? "?") stalled at \(position) s; recovering by \(what)")
            default: break
            }
        }
        CrashReporter.install(model: model)
        installActions(model)
        UI.loadCSS(Style.css)
        startMPRIS(model)
        windowState.observe { [weak self] change in
            guard let self else { return }
            switch change {
            case .sidePanel: self.refreshActionStates()
            case .fullscreen: self.mpris?.hostChanged()
            case .typing: self.setTyping(self.windowState.isTyping)
            case .skipInterval: break
            }
        }
        if let connection = g_application_get_dbus_connection(gcast(app)) {
            diagnostics = Diagnostics.start(connection: connection, engine: engine, model: model) { [weak self] in self?.window }
        }
    }

    /// The desktop's media controls; without a session bus Reel plays on without them.
    private func startMPRIS(_ model: PlayerModel) {
        guard let connection = g_application_get_dbus_connection(gcast(app)) else { return }
        do {
            mpris = try MPRISServer(connection: connection, model: model, host: self, desktopEntry: BuildInfo.appID,
                                    mimeTypes: MediaTypes.mimeTypes)
        } catch {
            Log.warning("media controls are unavailable: \(error.message)")
        }
    }

    /// Brings the window back if it is hidden (or not made yet), without raising it over a
    /// dialog of its own that is being shown.
    func showWindowIfHidden() {
        if window?.isShown != true { presentWindow() }
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
}

extension ReelApplication: MPRISHost {
    func raise() {
        presentWindow()
    }

    func quit() {
        g_application_quit(gcast(app))
    }

    var isFullscreen: Bool { windowState.isFullscreen }

    func setFullscreen(_ fullscreen: Bool) {
        windowState.isFullscreen = fullscreen
    }

    func currentFramePNG() -> [UInt8]? {
        guard let player, let texture = reel_video_paintable_get_texture(player.engine.frameSink.paintable.pointer),
              let bytes = gdk_texture_save_to_png_bytes(texture) else { return nil }
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        guard let data = g_bytes_get_data(bytes, &size) else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }
}

extension ReelApplication {
    /// What Reel keeps from run to run beside the settings.
    @MainActor
    struct History {
        /// The queue as it was left, put back when Reel starts without files (once per run).
        var savedQueue: SavedQueue?
        /// What was played last, for the empty window (`RecentList`).
        let recent = RecentItems(file: .named("recent.json"))
    }
}
