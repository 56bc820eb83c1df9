// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGtk
import ReelCore
import ReelGLib

/// The table of commands made into application actions (reachable from menus, keys and, as
/// org.gtk.Actions, D-Bus) and accelerators; the window adds the keys it catches itself.
extension ReelApplication {
    func installActions(_ model: PlayerModel) {
        commandTable = commands(model)
        for command in commandTable {
            switch command.effect {
            case .run(let run):
                add(command.name, parameter: command.parameter, state: command.state?(), run)
            case .toggles(let key):
                if let action = settings?.action(key) {
                    g_action_map_add_action(OpaquePointer(app), action)
                    g_object_unref(UnsafeMutableRawPointer(action))
                }
            case .madeElsewhere: break
            }
            if command.catching == .accelerator, !command.allKeys.isEmpty {
                withCStringArray(command.allKeys) { gtk_application_set_accels_for_action(gcast(app), command.action, $0) }
            }
        }
        model.observe { [weak self] change in
            switch change {
            case .position, .subtitle, .gap, .seeked: break
            default: self?.refreshActionStates()
            }
        }
    }

    /// Stateful actions follow what they show (menus check them); GSimpleAction tells only real changes.
    func refreshActionStates() {
        for command in commandTable {
            guard let state = command.state, let action = g_action_map_lookup_action(OpaquePointer(app), command.name) else { continue }
            g_simple_action_set_state(gcast(action), state())
        }
    }

    /// One of each dialog: asked again (keys, menus, D-Bus), the open one comes to the front.
    /// Its window comes too: a dialog asked for while the window is hidden (over D-Bus, Reel
    /// playing on in the background) must not float on its own.
    func presentOnce(_ name: String, _ make: () -> Widget) {
        showWindowIfHidden()
        if let open = openDialogs[name] { return gtk_window_present(gcast(open)) }
        let dialog = make()
        openDialogs[name] = dialog
        connectMainSignal(dialog, "destroy") { [weak self] _ in self?.openDialogs[name] = nil }
    }

    /// Adds an application action; with a `state`, a stateful one menus show checked.
    private func add(_ name: String, parameter: String?, state: OpaquePointer?,
                     _ handler: @escaping @MainActor (OpaquePointer?) -> Void) {
        let type: OpaquePointer? = parameter.flatMap { g_variant_type_new($0) }
        let action = (state.map { g_simple_action_new_stateful(name, type, $0) } ?? g_simple_action_new(name, type))!
        if let type { g_variant_type_free(type) }
        connectMainSignal(UnsafeMutableRawPointer(action), "activate") { args in
            handler(OpaquePointer(args.pointer(1)))
        }
        g_action_map_add_action(OpaquePointer(app), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    /// While a text field (a search) has the keyboard, keys it types are its own: GTK hands
    /// application accelerators a key before the focused widget, so Space, L or P would play,
    /// skip or go back instead of being typed. Keys with Ctrl or Alt, and F-keys, stay.
    func setTyping(_ typing: Bool) {
        for command in commandTable where command.catching == .accelerator && !command.allKeys.isEmpty {
            let kept = typing ? command.allKeys.filter { !Command.isTyped($0) } : command.allKeys
            withCStringArray(kept) { gtk_application_set_accels_for_action(gcast(app), command.action, $0) }
        }
    }
}
