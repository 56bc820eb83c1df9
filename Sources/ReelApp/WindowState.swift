// SPDX-License-Identifier: GPL-3.0-or-later
import ReelCore

/// The window's own state, with one owner: fullscreen, the side panel's page, the skip interval
/// and whether a text field has the keyboard. Commands, the MPRIS host and the widgets read and
/// write it here; the window makes GTK follow it, and writes back what the desktop or the user
/// changed there (a window manager leaving fullscreen, a click beside the folded panel).
@MainActor
final class WindowState {
    enum Change { case fullscreen, sidePanel, skipInterval, typing }

    var isFullscreen = false { didSet { if isFullscreen != oldValue { tell(.fullscreen) } } }
    /// The side panel's page while it is shown; nil while it is closed.
    var sidePanel: SidePanel.Page? { didSet { if sidePanel != oldValue { tell(.sidePanel) } } }
    /// How far the skip keys and buttons go (Preferences' setting).
    var skipInterval: Seconds { didSet { if skipInterval != oldValue { tell(.skipInterval) } } }
    /// A text field (a search) has the keyboard: the keys it types are its own.
    var isTyping = false { didSet { if isTyping != oldValue { tell(.typing) } } }

    /// True while a change the desktop made (GTK told it) is told: the window need not ask GTK
    /// for it again, and must not act on a late report of its own earlier request.
    private(set) var isFromDesktop = false
    private var observers: [@MainActor (Change) -> Void] = []

    init(skipInterval: Seconds) {
        self.skipInterval = skipInterval
    }

    /// `handler` is called after each change, for as long as the state lives; hold weakly what
    /// it refers to.
    func observe(_ handler: @escaping @MainActor (Change) -> Void) {
        observers.append(handler)
    }

    /// Records what the desktop did (GTK's report), without asking it back.
    func desktopChanged(_ change: (WindowState) -> Void) {
        isFromDesktop = true
        change(self)
        isFromDesktop = false
    }

    /// Shows `page`, or closes the panel if `page` is what it shows.
    func toggleSidePanel(_ page: SidePanel.Page) {
        sidePanel = sidePanel == page ? nil : page
    }

    private func tell(_ change: Change) {
        for observer in observers { observer(change) }
    }
}
