// SPDX-License-Identifier: GPL-3.0-or-later
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
        add("next-aspect", accels: ["a"]) { [weak self] _ in
            model.adjustPicture { picture in
                let all = Picture.Aspect.allCases
                picture.aspect = all[((all.firstIndex(of: picture.aspect) ?? 0) + 1) % all.count]
            }
            let aspect = model.picture.aspect
            self?.window?.showToast(String(format: tr("Aspect ratio: %@"), aspect == .automatic ? tr("Automatic") : aspect.rawValue))
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
        add("next-deinterlacing", accels: ["d"]) { [weak self] _ in
            let all = Picture.Deinterlacing.allCases
            model.adjustPicture { $0.deinterlacing = all[((all.firstIndex(of: $0.deinterlacing) ?? 0) + 1) % all.count] }
            let names: [Picture.Deinterlacing: String] = [.automatic: tr("Deinterlace: Automatic"), .off: tr("Deinterlace: Off"),
                                                          .forced: tr("Deinterlace: Always")]
            self?.window?.showToast(names[model.picture.deinterlacing] ?? "")
        }
        // The toast says each value as a percentage away from unchanged.
        let colourKeys: [(String, WritableKeyPath<Picture.Colour, Double>, Double, String, String, String)] = [
            ("contrast", \.contrast, 1, tr("Contrast: %@"), "1", "2"), ("brightness", \.brightness, 0, tr("Brightness: %@"), "3", "4"),
            ("hue", \.hue, 0, tr("Hue: %@"), "5", "6"), ("saturation", \.saturation, 1, tr("Saturation: %@"), "7", "8"),
        ]
        for (name, key, neutral, format, down, up) in colourKeys {
            for (prefix, step, accel) in [("less", -Self.colourStep, down), ("more", Self.colourStep, up)] {
                add("\(prefix)-\(name)", accels: [accel]) { [weak self] _ in
                    model.adjustPicture { $0.colour[keyPath: key] += step }
                    let percent = Int(((model.picture.colour[keyPath: key] - neutral) * 100).rounded())
                    self?.window?.showToast(String(format: format, String(format: "%+d %%", percent)))
                }
            }
        }
        add("reset-colours", accels: ["0"]) { [weak self] _ in
            model.adjustPicture { $0.colour = Picture.Colour() }
            self?.window?.showToast(tr("Colours reset"))
        }
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
