// SPDX-License-Identifier: GPL-3.0-or-later
import ReelCore

/// One command of the app, everything about it in one place: its action, its keys and how they
/// are caught, its row in the shortcuts window, what it does and, for a stateful action, its
/// state. The actions, the accelerators, the window's own keys and the shortcuts window are
/// all made from the one table (`ReelApplication.commands`); a test holds the README's key
/// table to it.
@MainActor
struct Command {
    /// How the command's keys reach it.
    enum Catching {
        /// Application accelerators: GTK hands them a key before the focused widget sees it.
        case accelerator
        /// The window's capture phase: before the focused widget's own key bindings as well
        /// (GTK's text bindings took Ctrl+Left as accelerators; the slider took Page Up/Down).
        case capture
        /// The window's bubble phase: only when the focused widget does not want the key
        /// (Escape leaves fullscreen unless a popover or a search has it).
        case bubble
        /// GTK's own key, handled without us (F10 opens the main menu): listed only.
        case gtk
    }

    /// The shortcuts window's groups, in its order.
    enum Section: CaseIterable {
        case playback, pictureAndSound, subtitles, queue, window

        var title: String {
            switch self {
            case .playback: tr("Playback")
            case .pictureAndSound: tr("Picture and Sound")
            case .subtitles: tr("Subtitles")
            case .queue: tr("Queue")
            case .window: tr("Window")
            }
        }
    }

    /// A row of the shortcuts window: commands with the same title share one, their keys together.
    struct Row {
        let section: Section
        /// Asked for when the shortcuts window is built: some titles name a setting (the skip interval).
        let title: @MainActor () -> String

        init(_ section: Section, _ title: @autoclosure @escaping @MainActor () -> String) {
            self.section = section
            self.title = title
        }
    }

    /// What activating it does.
    enum Effect {
        case run(@MainActor (OpaquePointer?) -> Void)
        /// Toggles a boolean setting: GSettings makes the action, and keeps its state.
        case toggles(SettingKey)
        /// The action is made elsewhere (the window's help overlay) or the key is GTK's own.
        case madeElsewhere
    }

    /// The detailed action name, e.g. "app.play-pause".
    let action: String
    /// Its keys as GTK names them, shown in the shortcuts window and the README.
    let keys: [String]
    /// Further accelerators that neither lists: media keys, the keypad's.
    let alternativeKeys: [String]
    let catching: Catching
    let row: Row?
    /// A GVariant type string when the action takes a parameter ("d", "s", "i").
    let parameter: String?
    /// The action's state as it should be now (a new GVariant); nil for a stateless action.
    let state: (@MainActor () -> OpaquePointer)?
    let effect: Effect

    init(_ action: String, keys: [String] = [], alternativeKeys: [String] = [], catching: Catching = .accelerator,
         row: Row? = nil, effect: Effect) {
        self.init(action, keys: keys, alternativeKeys: alternativeKeys, catching: catching, row: row, parameter: nil,
                  state: nil, effect: effect)
    }

    /// A command that takes no parameter.
    init(_ action: String, keys: [String] = [], alternativeKeys: [String] = [], catching: Catching = .accelerator,
         row: Row? = nil, state: (@MainActor () -> OpaquePointer)? = nil, _ run: @escaping @MainActor () -> Void) {
        self.init(action, keys: keys, alternativeKeys: alternativeKeys, catching: catching, row: row, parameter: nil,
                  state: state, effect: .run { _ in run() })
    }

    /// A command that takes a parameter of GVariant type `parameter`, reached from menus and D-Bus.
    init(_ action: String, parameter: String, state: (@MainActor () -> OpaquePointer)? = nil,
         _ run: @escaping @MainActor (OpaquePointer) -> Void) {
        self.init(action, keys: [], alternativeKeys: [], catching: .accelerator, row: nil, parameter: parameter, state: state,
                  effect: .run { value in if let value { run(value) } })
    }

    private init(_ action: String, keys: [String], alternativeKeys: [String], catching: Catching, row: Row?,
                 parameter: String?, state: (@MainActor () -> OpaquePointer)?, effect: Effect) {
        self.action = action
        self.keys = keys
        self.alternativeKeys = alternativeKeys
        self.catching = catching
        self.row = row
        self.parameter = parameter
        self.state = state
        self.effect = effect
    }

    /// All keys that trigger it.
    var allKeys: [String] { keys + alternativeKeys }

    /// The name in its action group, without the "app." or "win." prefix.
    var name: String { String(action.split(separator: ".", maxSplits: 1).last ?? "") }

    /// A key a text field would type (no Ctrl or Alt, not a media or F-key): set aside while
    /// one has the keyboard.
    static func isTyped(_ key: String) -> Bool {
        !(key.contains("<Control>") || key.contains("<Primary>") || key.contains("<Alt>") || key.hasPrefix("Audio")
            || (key.first == "F" && key.count > 1 && key.dropFirst().allSatisfy(\.isNumber)))
    }
}
