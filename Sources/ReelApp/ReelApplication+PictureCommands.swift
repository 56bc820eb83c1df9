// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGtk
import ReelCore
import ReelGLib

/// The picture's and the sound's adjustments in the table of commands: turning, aspect,
/// filling the window, colours, deinterlacing, the sound's delay and night mode. Aspect, fill
/// and deinterlacing are stateful, so the menu shows the choice of the item playing.
extension ReelApplication {
    func pictureCommands(_ model: PlayerModel) -> [Command] {
        let row = { (title: String) in Command.Row(.pictureAndSound, title) }
        var commands = [
            Command("app.rotate-clockwise", keys: ["r"], row: row(tr("Rotate clockwise or counterclockwise"))) {
                model.adjustPicture { $0.turn(clockwise: true) }
            },
            Command("app.rotate-counterclockwise", keys: ["<Shift>r"], row: row(tr("Rotate clockwise or counterclockwise"))) {
                model.adjustPicture { $0.turn(clockwise: false) }
            },
            Command("app.flip", keys: ["<Shift>h"], row: row(tr("Flip horizontally"))) { model.adjustPicture { $0.mirror() } },
            Command("app.aspect", parameter: "s", state: { g_variant_new_string(model.picture.aspect.rawValue) }) { value in
                guard let name = g_variant_get_string(value, nil).map({ String(cString: $0) }),
                      let choice = Picture.Aspect(rawValue: name) else { return }
                model.adjustPicture { $0.aspect = choice }
            },
            Command("app.next-aspect", keys: ["a"], row: row(tr("Next aspect ratio"))) { [weak self] in
                model.adjustPicture { picture in
                    let all = Picture.Aspect.allCases
                    picture.aspect = all[((all.firstIndex(of: picture.aspect) ?? 0) + 1) % all.count]
                }
                let aspect = model.picture.aspect
                self?.window?.showToast(String(format: tr("Aspect ratio: %@"), aspect == .automatic ? tr("Automatic") : aspect.rawValue))
            },
            Command("app.fill-window", keys: ["w"], row: row(tr("Fill the window (crop the black bars)")),
                    state: { g_variant_new_boolean(model.picture.fillsWindow ? 1 : 0) }) {
                model.adjustPicture { $0.fillsWindow.toggle() }
            },
        ]
        commands += colourCommands(model)
        commands += [
            Command("app.reset-picture") { model.setPicture(Picture()) },
            Command("app.deinterlacing", parameter: "s", state: { g_variant_new_string(model.picture.deinterlacing.rawValue) }) {
                guard let name = g_variant_get_string($0, nil).map({ String(cString: $0) }),
                      let choice = Picture.Deinterlacing(rawValue: name) else { return }
                model.adjustPicture { $0.deinterlacing = choice }
            },
            Command("app.next-deinterlacing", keys: ["d"], row: row(tr("Deinterlace: automatic, off or always"))) { [weak self] in
                let all = Picture.Deinterlacing.allCases
                model.adjustPicture { $0.deinterlacing = all[((all.firstIndex(of: $0.deinterlacing) ?? 0) + 1) % all.count] }
                let names: [Picture.Deinterlacing: String] = [.automatic: tr("Deinterlace: Automatic"), .off: tr("Deinterlace: Off"),
                                                              .forced: tr("Deinterlace: Always")]
                self?.window?.showToast(names[model.picture.deinterlacing] ?? "")
            },
            Command("app.audio-earlier", keys: ["<Control>minus"], alternativeKeys: ["<Control>KP_Subtract"],
                    row: row(tr("Sound 10 ms earlier or later"))) {
                model.setAudioDelay(model.audioDelay - PlayerModel.audioDelayStep)
            },
            Command("app.audio-later", keys: ["<Control>plus"], alternativeKeys: ["<Control>equal", "<Control>KP_Add"],
                    row: row(tr("Sound 10 ms earlier or later"))) {
                model.setAudioDelay(model.audioDelay + PlayerModel.audioDelayStep)
            },
            Command("app.audio-no-delay") { model.setAudioDelay(0) },
        ]
        // Kept in the settings, as Preferences' switch is; missing (greyed out in the menu)
        // where its compressor is not installed.
        if isNightModeAvailable { commands.append(Command("app.night-mode", effect: .toggles(.nightMode))) }
        return commands
    }

    /// Less and more of each colour, a toast saying the value as a percentage away from unchanged.
    private func colourCommands(_ model: PlayerModel) -> [Command] {
        let colours: [(String, WritableKeyPath<Picture.Colour, Double>, Double, String, String, String, String)] = [
            ("contrast", \.contrast, 1, tr("Contrast: %@"), "1", "2", tr("Less or more contrast")),
            ("brightness", \.brightness, 0, tr("Brightness: %@"), "3", "4", tr("Darker or brighter")),
            ("hue", \.hue, 0, tr("Hue: %@"), "5", "6", tr("Hue back or forward")),
            ("saturation", \.saturation, 1, tr("Saturation: %@"), "7", "8", tr("Less or more saturation")),
        ]
        var commands: [Command] = []
        for (name, key, neutral, format, down, up, title) in colours {
            for (prefix, step, accel) in [("less", -Self.colourStep, down), ("more", Self.colourStep, up)] {
                commands.append(Command("app.\(prefix)-\(name)", keys: [accel], row: .init(.pictureAndSound, title)) { [weak self] in
                    model.adjustPicture { $0.colour[keyPath: key] += step }
                    let percent = Int(((model.picture.colour[keyPath: key] - neutral) * 100).rounded())
                    self?.window?.showToast(String(format: format, String(format: "%+d %%", percent)))
                })
            }
        }
        commands.append(Command("app.reset-colours", keys: ["0"], row: .init(.pictureAndSound, tr("Reset the colours"))) {
            [weak self] in
            model.adjustPicture { $0.colour = Picture.Colour() }
            self?.window?.showToast(tr("Colours reset"))
        })
        return commands
    }

    /// One press of a colour key: 5 % of the way from neutral to either end.
    static let colourStep = 0.05
}
