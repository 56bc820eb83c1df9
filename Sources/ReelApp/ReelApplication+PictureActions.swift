import CGio
import CGtk
import ReelCore
import ReelGLib

/// The picture's and the sound's adjustments as actions (menus, keys, D-Bus): turning,
/// aspect, filling the window, colours, deinterlacing and the sound's delay. Aspect, fill and
/// deinterlacing are stateful, so the menu shows the choice of the item playing.
extension ReelApplication {
    func installPictureActions(_ model: PlayerModel) {
        add("rotate-clockwise", accels: ["r"]) { _ in model.adjustPicture { $0.turn(clockwise: true) } }
        add("rotate-counterclockwise", accels: ["<Shift>r"]) { _ in model.adjustPicture { $0.turn(clockwise: false) } }
        add("flip", accels: ["<Shift>h"]) { _ in model.adjustPicture { $0.mirror() } }
        let aspect = add("aspect", parameter: "s", state: g_variant_new_string(Picture.Aspect.automatic.rawValue)) { value in
            guard let value, let name = g_variant_get_string(value, nil).map({ String(cString: $0) }),
                  let choice = Picture.Aspect(rawValue: name) else { return }
            model.adjustPicture { $0.aspect = choice }
        }
        add("next-aspect", accels: ["a"]) { _ in
            model.adjustPicture { picture in
                let all = Picture.Aspect.allCases
                picture.aspect = all[((all.firstIndex(of: picture.aspect) ?? 0) + 1) % all.count]
            }
        }
        let fill = add("fill-window", state: g_variant_new_boolean(0), accels: ["w"]) { _ in
            model.adjustPicture { $0.fillsWindow.toggle() }
        }
        let deinterlacing = add("deinterlacing", parameter: "s",
                                state: g_variant_new_string(Picture.Deinterlacing.automatic.rawValue)) { value in
            guard let value, let name = g_variant_get_string(value, nil).map({ String(cString: $0) }),
                  let choice = Picture.Deinterlacing(rawValue: name) else { return }
            model.adjustPicture { $0.deinterlacing = choice }
        }
        let colourKeys: [(String, WritableKeyPath<Picture.Colour, Double>, String, String)] = [
            ("contrast", \.contrast, "1", "2"), ("brightness", \.brightness, "3", "4"),
            ("hue", \.hue, "5", "6"), ("saturation", \.saturation, "7", "8"),
        ]
        for (name, key, down, up) in colourKeys {
            add("less-\(name)", accels: [down]) { _ in model.adjustPicture { $0.colour[keyPath: key] -= Self.colourStep } }
            add("more-\(name)", accels: [up]) { _ in model.adjustPicture { $0.colour[keyPath: key] += Self.colourStep } }
        }
        add("reset-colours", accels: ["0"]) { _ in model.adjustPicture { $0.colour = Picture.Colour() } }
        add("reset-picture") { _ in model.setPicture(Picture()) }
        add("audio-later", accels: ["<Control>plus", "<Control>equal", "<Control>KP_Add"]) { _ in
            model.setAudioDelay(model.audioDelay + PlayerModel.audioDelayStep)
        }
        add("audio-earlier", accels: ["<Control>minus", "<Control>KP_Subtract"]) { _ in
            model.setAudioDelay(model.audioDelay - PlayerModel.audioDelayStep)
        }
        add("audio-no-delay") { _ in model.setAudioDelay(0) }
        model.observe { change in
            guard change == .picture else { return }
            g_simple_action_set_state(aspect, g_variant_new_string(model.picture.aspect.rawValue))
            g_simple_action_set_state(fill, g_variant_new_boolean(model.picture.fillsWindow ? 1 : 0))
            g_simple_action_set_state(deinterlacing, g_variant_new_string(model.picture.deinterlacing.rawValue))
        }
    }

    /// One press of a colour key: 5 % of the way from neutral to either end.
    static let colourStep = 0.05
}
