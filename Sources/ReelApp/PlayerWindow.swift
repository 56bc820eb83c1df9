// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGio
import CGtk
import CShims
import Foundation
import ReelCore
import ReelEngine
import ReelGLib

/// The main window: header bar with the media title, the video with its controls over it,
/// an empty state with an Open button, toasts for errors, drag and drop of files and URIs.
@MainActor
final class PlayerWindow {
    let window: Widget
    let model: PlayerModel
    private let header: (bar: Widget, title: Widget, menu: MainMenu)
    let toasts: Toasts
    /// The empty state, or the player.
    let content: Widget
    let stage: PlayerStage
    let side: SidePanel
    var queuePanel: QueuePanel { side.queue }
    private let queueFlap: Widget
    private var idleInhibitor: IdleInhibitor!
    private var opening: FileOpening!
    private var observation: PlayerModel.Observation?
    private var visibility: VisibilityWatcher?
    private weak var application: ReelApplication?
    /// Fullscreen, the side panel, the skip interval: GTK is made to follow it.
    private let state: WindowState

    init(application: ReelApplication, model: PlayerModel, frameSink: FrameSink) {
        self.model = model
        self.application = application
        state = application.windowState
        window = adw_application_window_new(gcast(application.app))!
        UI.addClasses(window, "reel-window")
        gtk_window_set_default_size(gcast(window), 960, 600)  // the schema's defaults, remembered from then on:
        for (key, property) in [(SettingKey.windowWidth, "default-width"), (.windowHeight, "default-height")] {
            application.settings?.bind(key, to: UnsafeMutableRawPointer(window), property: property)
        }
        gtk_window_set_title(gcast(window), BuildInfo.name)
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(gcast(window), &width, &height)
        frameSink.expectRoom(width: width, height: height)

        // The header bar and the empty page; its objects live while it does, till parented below.
        let ui = UIDefinition("window.ui")
        header = (ui.object("header_bar"), ui.object("window_title"), MainMenu(button: ui.object("main_menu_button")))
        stage = PlayerStage(model: model, paintable: frameSink.paintable.pointer, skipInterval: { [state] in state.skipInterval })
        content = gtk_stack_new()!
        gtk_stack_add_named(gcast(content), Self.emptyPage(ui), "empty")
        RecentList.show(application.history.recent, in: ui)
        gtk_stack_add_named(gcast(content), stage.widget, "player")
        gtk_widget_set_vexpand(content, 1)
        side = SidePanel(model: model) { [state] page in
            if state.sidePanel != nil { state.sidePanel = page }
        }
        queueFlap = Self.flap(content: content, flap: side.widget)

        toasts = Toasts(child: UI.box(GTK_ORIENTATION_VERTICAL, [header.bar, queueFlap]))
        adw_application_window_set_content(gcast(window), toasts.overlay)
        withExtendedLifetime(ui) {}

        opening = FileOpening(window: window, open: { [weak application] uris in application?.open(uris) },
                              openSubtitles: { uri in model.openSubtitles(uri: uri) },
                              refused: { [weak self] message in self?.showToast(message) })
        installFullscreenGestures(on: stage.widget)
        installKeys(application.commandTable)
        stage.hiding.watchKeyboardNavigation(in: window)
        idleInhibitor = IdleInhibitor(application: gcast(application.app), window: window)
        installShortcutsAction()
        observation = model.observe { [weak self] change in self?.modelChanged(change) }
        followState()
        connectMainSignal(window, "close-request") { [weak self, weak application] args in
            let hide = application?.shouldHideInsteadOfClosing() ?? false
            if hide, let self { gtk_widget_set_visible(self.window, 0) }
            args.setReturn(hide)
        }
        visibility = VisibilityWatcher(window: window, videoPaintable: frameSink.paintable.pointer) { [weak self] visible in
            guard let self else { return }
            model.setVideoVisible(visible, hiddenByDesktop: self.visibility?.isHiddenByDesktop ?? false)
            self.updateIdleInhibit()
        }
        refresh()
        stage.update(.status)
    }

    func present() { gtk_window_present(gcast(window)) }
    var isShown: Bool { gtk_widget_get_visible(window) != 0 }
    func showOpenDialog() { opening.showOpenDialog() }
    func showOpenFolderDialog() { opening.showOpenFolderDialog() }
    func showOpenSubtitlesDialog() { opening.showOpenSubtitlesDialog() }

    /// The queue as a playlist file: what the panel shows of each item, titles included. Written
    /// off the main thread (a library of 100,000 takes a moment); the result is told in a toast.
    func showSaveQueueDialog() {
        guard !model.queue.items.isEmpty else { return showToast(tr("The queue is empty: there is nothing to save.")) }
        opening.showSaveQueueDialog { [weak self] path, format in
            guard let self else { return }
            let entries = self.model.queue.items.map { PlaylistContents.Entry(uri: $0.uri, title: self.queuePanel.title(of: $0)) }
            let name = (path as NSString).lastPathComponent
            DispatchQueue.global(qos: .userInitiated).async {
                let message: String
                do throws(PlaylistFile.PlaylistError) {
                    try PlaylistFile.write(entries, to: path, format: format, title: BuildInfo.name)
                    message = String(format: tr("Queue saved as “%@”"), name)
                } catch {
                    message = String(format: tr("The queue could not be saved as “%@”: %@"), name, error.message)
                    Log.warning(message)
                }
                runSoon { [weak self] in self?.showToast(message) }
            }
        }
    }
    func showSecondSubtitlesDialog() { opening.showSecondSubtitlesDialog { [model] uri in model.setSecondSubtitles(uri: uri) } }

    /// The empty page of data/ui/window.ui.
    private static func emptyPage(_ ui: UIDefinition) -> Widget {
        let page: Widget = ui.object("empty_page")
        AccessibleNames.nameButtons(under: page)
        return page
    }

    /// The queue: a flap beside the video on wide windows, over it on narrow ones.
    private static func flap(content: Widget, flap: Widget) -> Widget {
        let queueFlap = adw_flap_new()!
        adw_flap_set_content(gcast(queueFlap), content)
        adw_flap_set_flap(gcast(queueFlap), flap)
        adw_flap_set_flap_position(gcast(queueFlap), GTK_PACK_END)
        adw_flap_set_reveal_flap(gcast(queueFlap), 0)
        adw_flap_set_swipe_to_open(gcast(queueFlap), 0)
        // The user opens and closes the queue: resizing across the fold must not do it for them.
        adw_flap_set_locked(gcast(queueFlap), 1)
        return queueFlap
    }


    /// GTK follows the window state, and what the desktop or the user changes in GTK goes back
    /// to it: a window manager leaving fullscreen, a click beside the folded panel closing it.
    private func followState() {
        state.observe { [weak self] change in self?.show(change) }
        for change in [WindowState.Change.fullscreen, .sidePanel, .skipInterval] { show(change) }
        connectMainSignal(window, "notify::fullscreened") { [weak self] _ in
            guard let self else { return }
            let fullscreen = gtk_window_is_fullscreen(gcast(self.window)) != 0
            // Fullscreen is the video alone: no header bar; the controls come and go as usual.
            gtk_widget_set_visible(self.header.bar, fullscreen ? 0 : 1)
            self.state.desktopChanged { $0.isFullscreen = fullscreen }
        }
        connectMainSignal(queueFlap, "notify::reveal-flap") { [weak self] _ in
            guard let self else { return }
            self.state.sidePanel = adw_flap_get_reveal_flap(gcast(self.queueFlap)) != 0 ? self.side.page : nil
        }
        connectMainSignal(window, "notify::focus-widget") { [weak self] _ in
            guard let self else { return }
            let focus = gtk_window_get_focus(gcast(self.window))
            self.state.isTyping = focus.map { g_type_check_instance_is_a(gcast($0), gtk_editable_get_type()) != 0 } ?? false
        }
    }

    private func show(_ change: WindowState.Change) {
        switch change {
        case .fullscreen:
            // Asked each time (GTK's answer comes later, and a second ask is harmless).
            guard !state.isFromDesktop else { return }
            if state.isFullscreen { gtk_window_fullscreen(gcast(window)) } else { gtk_window_unfullscreen(gcast(window)) }
        case .sidePanel:
            if let page = state.sidePanel { side.page = page }
            adw_flap_set_reveal_flap(gcast(queueFlap), state.sidePanel == nil ? 0 : 1)
        case .skipInterval:
            // The control bar's tooltips and the shortcuts window name it.
            stage.controls.showSkipInterval(Int(state.skipInterval))
            if gtk_application_window_get_help_overlay(gcast(window)) != nil { buildShortcuts() }
        case .typing:
            break
        }
    }

    /// GtkApplicationWindow's win.show-help-overlay, with the shortcuts window built when it is
    /// first asked for: building it was a third of the window's start-up (~10 ms of CPU).
    private func installShortcutsAction() {
        // Added before any help overlay is set, it is the one GTK keeps.
        let action = g_simple_action_new("show-help-overlay", nil)!
        connectMainSignal(UnsafeMutableRawPointer(action), "activate") { [weak self] _ in
            guard let self else { return }
            if gtk_application_window_get_help_overlay(gcast(window)) == nil { buildShortcuts() }
            if let shortcuts = gtk_application_window_get_help_overlay(gcast(window)) { gtk_window_present(gcast(shortcuts)) }
        }
        g_action_map_add_action(OpaquePointer(window), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    private func buildShortcuts() {
        guard let application, let shortcuts = ShortcutsWindow.make(application.commandTable) else { return }
        gtk_application_window_set_help_overlay(gcast(window), shortcuts)
        // Asked for while the window is hidden (its action over D-Bus), it brings the window back.
        connectMainSignal(UnsafeMutableRawPointer(shortcuts), "show") { [weak application] _ in
            application?.showWindowIfHidden()
        }
        g_object_unref(UnsafeMutableRawPointer(shortcuts))
    }

    /// What GTK shows, for the diagnostics (the window state says what it should show).
    var isQueueShown: Bool { adw_flap_get_reveal_flap(gcast(queueFlap)) != 0 && side.page == .queue }
    var isTranscriptShown: Bool { adw_flap_get_reveal_flap(gcast(queueFlap)) != 0 && side.page == .transcript }

    /// Ctrl+F: the search field of the queue, while it is shown; otherwise of the transcript.
    func find() {
        if state.sidePanel == .queue { return side.queue.focusSearch() }
        state.sidePanel = .transcript
        gtk_widget_grab_focus(side.transcript.search)
    }

    // MARK: Model → view

    private func modelChanged(_ change: PlayerModel.Change) {
        stage.update(change)
        side.update(change)
        switch change {
        case .item, .media, .status:
            refresh()
            updateIdleInhibit()
        case .abLoop:
            showLoopToast()
        case .chapters:
            refresh()
            header.menu.show(chapters: model.chapters)
        case .sleep:
            header.menu.show(sleep: model.sleep, remaining: model.sleepRemaining)
        case .subtitleDelay:
            showToast(String(format: tr("Subtitle delay: %@ s"), String(format: "%+.1f", model.subtitleDelay)))
        case .audioDelay:
            showToast(String(format: tr("Sound delay: %@ s"), String(format: "%+.2f", model.audioDelay)))
        case .resumed(let position):
            showToast(String(format: tr("Resumed at %@"), TimeFormat.string(position)),
                      button: tr("_Start Over"), action: "app.start-over")
        case .warning(let item, let problem):
            Log.warning("\(item.uri): \(problem.message)")
            showToast(problem.message)
        case .failed(let item, let error):
            Log.warning("\(item.uri): \(error.detail ?? error.message)")
            // The failed item's page says what went wrong; once the queue has moved on past it,
            // a toast does.
            runSoon { [weak self] in
                guard let self, self.model.currentItem?.id != item.id else { return }
                self.showToast(error.message)
            }
        default:
            break
        }
    }

    private func refresh() {
        let title = model.currentItem == nil ? BuildInfo.name : model.title
        adw_window_title_set_title(gcast(header.title), title)
        // Under the title: the radio station, or the chapter playing.
        adw_window_title_set_subtitle(gcast(header.title), model.station ?? model.currentChapter?.title ?? "")
        gtk_window_set_title(gcast(window), title)
        gtk_stack_set_visible_child_name(gcast(content), model.currentItem == nil ? "empty" : "player")
    }

    /// The header bar's subtitle: the station, or the chapter playing.
    var subtitleShown: String { adw_window_title_get_subtitle(gcast(header.title)).map { String(cString: $0) } ?? "" }

    private func updateIdleInhibit() {
        idleInhibitor?.update(model: model, windowVisible: visibility?.isVisible ?? true)
    }

    /// What the A-B loop key did, in words: the stretch's ends are marks on the slider.
    private func showLoopToast() {
        switch model.abLoop {
        case let loop? where loop.end == nil:
            showToast(String(format: tr("Loop from %@: press Shift+L again at its end"), TimeFormat.string(loop.start)))
        case let loop?:
            showToast(String(format: tr("Looping %@ – %@"), TimeFormat.string(loop.start), TimeFormat.string(loop.end)))
        case nil:
            showToast(tr("Loop cleared"))
        }
    }

    func showToast(_ message: String, button: String? = nil, action: String? = nil) {
        toasts.show(message, button: button, action: action)
    }

    /// Double-click on the video toggles fullscreen (Escape leaves it: a command).
    private func installFullscreenGestures(on widget: Widget) {
        let click = gtk_gesture_click_new()!
        connectMainSignal(UnsafeMutableRawPointer(click), "pressed") { [weak self] args in
            // Every second press: quick double-clicks in a row count on (3, 4…) in GTK.
            let presses = args.int(1)
            if presses >= 2, presses % 2 == 0 { self?.state.isFullscreen.toggle() }
        }
        gtk_widget_add_controller(widget, gcast(click))
    }

    /// The keys of the table's commands that the window catches itself (see `Command.Catching`).
    private func installKeys(_ commands: [Command]) {
        for phase in [Command.Catching.capture, .bubble] {
            let keys = gtk_shortcut_controller_new()!
            gtk_event_controller_set_propagation_phase(keys, phase == .capture ? GTK_PHASE_CAPTURE : GTK_PHASE_BUBBLE)
            for command in commands where command.catching == phase {
                for key in command.allKeys {
                    gtk_shortcut_controller_add_shortcut(gcast(keys), gtk_shortcut_new(gtk_shortcut_trigger_parse_string(key),
                                                                                      gtk_named_action_new(command.action)))
                }
            }
            gtk_widget_add_controller(window, keys)
        }
    }
}
