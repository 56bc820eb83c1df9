import CAdwaita
import CGio
import CGtk
import CShims
import ReelCore
import ReelEngine
import ReelGLib

/// The main window: header bar with the media title, the video with its controls over it,
/// an empty state with an Open button, toasts for errors, drag and drop of files and URIs.
@MainActor
final class PlayerWindow {
    let window: Widget
    private let model: PlayerModel
    private(set) var lastToast: String?
    private let frameSink: FrameSink
    private let titleWidget: Widget
    private let toasts: Widget
    private let content: Widget
    let videoView: VideoView
    let controls: ControlBar
    let queuePanel: QueuePanel
    private let queueFlap: Widget
    let controlsRevealer: Widget
    private let subtitleLabel: Widget
    private let header: Widget
    let bufferingIndicator: Widget
    private let bufferingLabel: Widget
    private var idleInhibitor: IdleInhibitor!
    private var hideControlsTimer: guint = 0
    private var opening: FileOpening!
    private var observation: PlayerModel.Observation?
    private var visibility: VisibilityWatcher?
    private weak var application: ReelApplication?

    static let controlsHideDelay: UInt32 = 3000

    init(application: ReelApplication, model: PlayerModel, frameSink: FrameSink) {
        self.model = model
        self.frameSink = frameSink
        self.application = application
        window = adw_application_window_new(gcast(application.app))!
        gtk_window_set_default_size(gcast(window), 960, 600)  // the schema's defaults, remembered from then on:
        for (key, property) in [(SettingKey.windowWidth, "default-width"), (.windowHeight, "default-height")] {
            application.settings?.bind(key, to: UnsafeMutableRawPointer(window), property: property)
        }
        gtk_window_set_title(gcast(window), BuildInfo.name)

        titleWidget = adw_window_title_new(BuildInfo.name, nil)!
        header = adw_header_bar_new()!
        adw_header_bar_set_title_widget(gcast(header), titleWidget)
        adw_header_bar_pack_start(gcast(header), UI.iconButton("document-open-symbolic", tooltip: tr("Open…"), action: "app.open"))
        adw_header_bar_pack_end(gcast(header), Self.mainMenuButton())
        let queueButton = gtk_toggle_button_new()!
        gtk_button_set_icon_name(gcast(queueButton), "view-list-symbolic")
        gtk_actionable_set_action_name(gcast(queueButton), "app.show-queue")
        UI.setTooltip(queueButton, tr("Show Queue"))
        adw_header_bar_pack_end(gcast(header), queueButton)

        videoView = VideoView(paintable: frameSink.paintable.pointer)
        controls = ControlBar(model: model, skipInterval: { [weak application] in application?.skipInterval ?? Seconds(Settings.defaultSkipInterval) })
        controlsRevealer = gtk_revealer_new()!
        gtk_revealer_set_transition_type(gcast(controlsRevealer), GTK_REVEALER_TRANSITION_TYPE_CROSSFADE)
        gtk_revealer_set_child(gcast(controlsRevealer), controls.widget)
        gtk_revealer_set_reveal_child(gcast(controlsRevealer), 1)
        gtk_widget_set_valign(controlsRevealer, GTK_ALIGN_END)
        subtitleLabel = UI.label(classes: ["reel-subtitle"])
        gtk_label_set_wrap(gcast(subtitleLabel), 1)
        gtk_label_set_justify(gcast(subtitleLabel), GTK_JUSTIFY_CENTER)
        gtk_widget_set_valign(subtitleLabel, GTK_ALIGN_END)
        gtk_widget_set_halign(subtitleLabel, GTK_ALIGN_CENTER)
        gtk_widget_set_can_target(subtitleLabel, 0)
        gtk_widget_set_visible(subtitleLabel, 0)
        let spinner = gtk_spinner_new()!
        gtk_spinner_start(gcast(spinner))
        gtk_widget_set_size_request(spinner, 32, 32)
        bufferingLabel = UI.label("")
        bufferingIndicator = UI.box(GTK_ORIENTATION_VERTICAL, spacing: 12, [spinner, bufferingLabel])
        gtk_widget_set_halign(bufferingIndicator, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(bufferingIndicator, GTK_ALIGN_CENTER)
        gtk_widget_set_can_target(bufferingIndicator, 0)
        gtk_widget_set_visible(bufferingIndicator, 0)
        UI.addClasses(bufferingIndicator, "osd", "reel-buffering-indicator")
        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(gcast(overlay), videoView.widget)
        gtk_overlay_add_overlay(gcast(overlay), subtitleLabel)
        gtk_overlay_add_overlay(gcast(overlay), bufferingIndicator)
        gtk_overlay_add_overlay(gcast(overlay), controlsRevealer)
        // The control bar fits the video area's width; what sits above the bar makes room for it
        // (onLayoutChange, from the first fit on).
        gtk_overlay_add_overlay(gcast(overlay), Self.widthWatcher { [controls] width in controls.fit(width: width) })

        let empty = adw_status_page_new()!
        adw_status_page_set_icon_name(gcast(empty), "video-x-generic-symbolic")
        adw_status_page_set_title(gcast(empty), tr("Play a Video"))
        adw_status_page_set_description(gcast(empty), UI.escapeMarkup(tr("Drop a video or audio file here, or open one.")))
        let openButton = gtk_button_new_with_mnemonic(tr("_Open…"))!
        gtk_actionable_set_action_name(gcast(openButton), "app.open")
        UI.addClasses(openButton, "pill", "suggested-action")
        gtk_widget_set_halign(openButton, GTK_ALIGN_CENTER)
        adw_status_page_set_child(gcast(empty), openButton)

        content = gtk_stack_new()!
        gtk_stack_add_named(gcast(content), empty, "empty")
        gtk_stack_add_named(gcast(content), overlay, "player")
        gtk_widget_set_vexpand(content, 1)

        queuePanel = QueuePanel(model: model)
        // A flap beside the video on wide windows, over it on narrow ones.
        queueFlap = adw_flap_new()!
        adw_flap_set_content(gcast(queueFlap), content)
        adw_flap_set_flap(gcast(queueFlap), queuePanel.widget)
        adw_flap_set_flap_position(gcast(queueFlap), GTK_PACK_END)
        adw_flap_set_reveal_flap(gcast(queueFlap), 0)
        adw_flap_set_swipe_to_open(gcast(queueFlap), 0)
        // The user opens and closes the queue: resizing across the fold must not do it for them.
        adw_flap_set_locked(gcast(queueFlap), 1)
        let body = queueFlap

        toasts = adw_toast_overlay_new()!
        adw_toast_overlay_set_child(gcast(toasts), UI.box(GTK_ORIENTATION_VERTICAL, [header, body]))
        adw_application_window_set_content(gcast(window), toasts)

        opening = FileOpening(window: window, open: { [weak application] uris in application?.open(uris) },
                              openSubtitles: { uri in model.openSubtitles(uri: uri) },
                              refused: { [weak self] message in self?.showToast(message) })
        installPointerWatch(on: overlay)
        installFullscreenGestures(on: overlay)
        idleInhibitor = IdleInhibitor(application: gcast(application.app), window: window)
        showSkipInterval(Int(application.skipInterval))
        observation = model.observe { [weak self] change in self?.modelChanged(change) }
        controls.onLayoutChange = { [weak self] in
            guard let self else { return }
            gtk_widget_set_margin_bottom(self.subtitleLabel, self.controls.height + Self.subtitleClearance)
            self.videoView.setBottomInset(self.controls.height)
        }
        connectMainSignal(window, "notify::fullscreened") { [weak self, weak application] _ in
            // Fullscreen is the video alone: no header bar; the controls come and go as usual.
            if let self { gtk_widget_set_visible(self.header, self.isFullscreen ? 0 : 1) }
            application?.windowStateChanged()
        }
        // A folded queue also closes by a click beside it: the action's state follows the flap.
        connectMainSignal(queueFlap, "notify::reveal-flap") { [weak self, weak application] _ in
            if let self { application?.queueShownChanged(self.isQueueShown) }
        }
        connectMainSignal(window, "close-request") { [weak self, weak application] args in
            let hide = application?.shouldHideInsteadOfClosing() ?? false
            if hide, let self { gtk_widget_set_visible(self.window, 0) }
            args.setReturn(hide)
        }
        visibility = VisibilityWatcher(window: window, videoPaintable: frameSink.paintable.pointer) { [weak self, weak application] visible in
            application?.videoVisibilityChanged(visible: visible, hiddenByDesktop: self?.visibility?.isHiddenByDesktop ?? false)
            self?.updateIdleInhibit()
        }
        refresh()
    }

    func present() { gtk_window_present(gcast(window)) }
    func showOpenDialog() { opening.showOpenDialog() }
    func showOpenSubtitlesDialog() { opening.showOpenSubtitlesDialog() }

    /// Space between a subtitle and the control bar.
    private static let subtitleClearance: Int32 = 12

    /// An invisible overlay child the size of the video area that reports its width. GTK 4.8
    /// has no size-allocate signal; a drawing area's "resize" is the allocation. The report
    /// waits for the layout pass to end, since it changes what the bar shows.
    private static func widthWatcher(_ changed: @escaping @MainActor (Int32) -> Void) -> Widget {
        let area = gtk_drawing_area_new()!
        gtk_widget_set_can_target(area, 0)
        connectMainSignal(area, "resize") { args in
            let width = Int32(args.int(1))
            runSoon { changed(width) }
        }
        return area
    }

    private static func mainMenuButton() -> Widget {
        let menu = g_menu_new()!
        g_menu_append(menu, tr("Open _Location…"), "app.open-location")
        g_menu_append(menu, tr("_Preferences"), "app.preferences")
        g_menu_append(menu, tr("_Keyboard Shortcuts"), "win.show-help-overlay")
        g_menu_append(menu, tr("_About Reel"), "app.about")
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(gcast(button), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(gcast(button), gcast(menu))
        g_object_unref(UnsafeMutableRawPointer(menu))
        UI.setTooltip(button, tr("Main Menu"))
        return button
    }

    /// The control bar's tooltips and the shortcuts window name the skip interval (a setting).
    func showSkipInterval(_ seconds: Int) {
        controls.showSkipInterval(seconds)
        if let shortcuts = ShortcutsWindow.make(skipInterval: seconds) {
            gtk_application_window_set_help_overlay(gcast(window), shortcuts)
            g_object_unref(UnsafeMutableRawPointer(shortcuts))
        }
    }

    var isQueueShown: Bool { adw_flap_get_reveal_flap(gcast(queueFlap)) != 0 }

    func setQueueShown(_ shown: Bool) {
        adw_flap_set_reveal_flap(gcast(queueFlap), shown ? 1 : 0)
    }

    var isFullscreen: Bool { gtk_window_is_fullscreen(gcast(window)) != 0 }

    func setFullscreen(_ fullscreen: Bool) {
        if fullscreen { gtk_window_fullscreen(gcast(window)) } else { gtk_window_unfullscreen(gcast(window)) }
    }

    // MARK: Model → view

    private func modelChanged(_ change: PlayerModel.Change) {
        controls.update(change)
        queuePanel.update(change)
        switch change {
        case .item, .media, .status:
            refresh()
            updateIdleInhibit()
            updateBuffering()
        case .subtitle:
            showSubtitle(model.subtitle)
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
        adw_window_title_set_title(gcast(titleWidget), title)
        gtk_window_set_title(gcast(window), title)
        gtk_stack_set_visible_child_name(gcast(content), model.currentItem == nil ? "empty" : "player")
        if case .failed(let error) = model.status {
            videoView.show(error: error)
        } else {
            videoView.show(media: model.media, title: model.title)
        }
        scheduleControlsHide()
    }

    private func updateIdleInhibit() {
        idleInhibitor?.update(model: model, windowVisible: visibility?.isVisible ?? true)
    }

    /// A spinner over the video while a stream fills its buffer (or a stream is still connecting).
    private func updateBuffering() {
        var text: String?
        switch model.status {
        case .buffering(let percent): text = String(format: tr("Buffering… %d%%"), percent)
        case .loading where !(model.currentItem?.isLocalFile ?? true): text = tr("Connecting…")
        default: text = nil
        }
        gtk_label_set_text(gcast(bufferingLabel), text ?? "")
        gtk_widget_set_visible(bufferingIndicator, text == nil ? 0 : 1)
    }

    /// Subtitle markup comes from the subtitle parser (italics, bold); anything that does not
    /// parse as markup is shown as the plain text it is.
    private func showSubtitle(_ line: SubtitleLine?) {
        guard let line, !line.text.isEmpty else { return gtk_widget_set_visible(subtitleLabel, 0) }
        if line.isMarkup, pango_parse_markup(line.text, -1, 0, nil, nil, nil, nil) != 0 {
            gtk_label_set_markup(gcast(subtitleLabel), line.text)
        } else {
            gtk_label_set_text(gcast(subtitleLabel), line.text)
        }
        gtk_widget_set_visible(subtitleLabel, 1)
    }

    func showToast(_ message: String, button: String? = nil, action: String? = nil) {
        // Toast titles are Pango markup: escape, so file names and tags show literally.
        lastToast = message
        let toast = adw_toast_new(UI.escapeMarkup(message))
        adw_toast_set_timeout(toast, 8)
        if let button, let action {
            adw_toast_set_button_label(toast, button)
            adw_toast_set_action_name(toast, action)
        }
        adw_toast_overlay_add_toast(gcast(toasts), toast)
    }

    func toggleFullscreen() { setFullscreen(!isFullscreen) }

    /// Double-click on the video toggles fullscreen; Escape leaves it (only in this window, and
    /// only when nothing focused wants Escape for itself).
    private func installFullscreenGestures(on widget: Widget) {
        let click = gtk_gesture_click_new()!
        connectMainSignal(UnsafeMutableRawPointer(click), "pressed") { [weak self] args in
            // Every second press: quick double-clicks in a row count on (3, 4…) in GTK.
            let presses = args.int(1)
            if presses >= 2, presses % 2 == 0 { self?.toggleFullscreen() }
        }
        gtk_widget_add_controller(widget, gcast(click))
        let escape = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_add_shortcut(gcast(escape), gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"),
                                                                            gtk_named_action_new("app.leave-fullscreen")))
        gtk_widget_add_controller(window, escape)
    }

    // MARK: Controls that hide while watching

    private func installPointerWatch(on widget: Widget) {
        let motion = gtk_event_controller_motion_new()!
        var last: (x: Double, y: Double)?
        connectMainSignal(UnsafeMutableRawPointer(motion), "motion") { [weak self] args in
            // Only a pointer that moved: GTK (4.8) also reports motion at a resting pointer
            // whenever the layout under it changes — on Wayland with every tick of the time label.
            let point = (x: args.double(1), y: args.double(2))
            defer { last = point }
            if let last, abs(last.x - point.x) < 1, abs(last.y - point.y) < 1 { return }
            self?.showControls()
        }
        gtk_widget_add_controller(widget, motion)
    }

    private func showControls() {
        gtk_revealer_set_reveal_child(gcast(controlsRevealer), 1)
        gtk_widget_set_cursor_from_name(window, nil)
        scheduleControlsHide()
    }

    private func scheduleControlsHide() {
        if hideControlsTimer != 0 { g_source_remove(hideControlsTimer) }
        hideControlsTimer = addTimeout(milliseconds: Self.controlsHideDelay) { [weak self] in
            guard let self else { return false }
            self.hideControlsTimer = 0
            // Only over playing video; paused or audio-only media keep their controls.
            if self.model.status.isPlaying, !(self.model.media?.isAudioOnly ?? false) {
                gtk_revealer_set_reveal_child(gcast(self.controlsRevealer), 0)
                gtk_widget_set_cursor_from_name(self.window, "none")
            }
            return false
        }
    }
}
