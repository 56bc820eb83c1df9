// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Reel as a screen reader reads it: the accessible tree on the session's accessibility bus
/// (AT-SPI, as Orca reads it), through `meson_helpers/a11y-tree`.
final class AccessibilityTests: XCTestCase {
    struct Node: Decodable {
        let depth: Int
        let role: String
        let name: String
        let description: String
        let checked: Bool
        let value: Double?
    }

    /// Every control has a name in words: no mnemonic underscore, no text said twice, not a
    /// bare time; the empty page's Open button and the duration button in particular.
    func testEveryControlOfTheWindowReadsAsWhatItDoes() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        defer { app.stop() }
        app.waitForPlaying()
        eventually("the length known") { app.metadata["mpris:length"] != nil }
        let nodes = try Self.tree(of: app)
        let controls = nodes.filter { ["push button", "toggle button", "slider", "check box", "radio button"].contains($0.role) }
        XCTAssertGreaterThan(controls.count, 12, "the window's controls were read: \(nodes.map(\.name))")
        for control in controls {
            XCTAssertFalse(control.name.isEmpty, "a \(control.role) without a name")
            XCTAssertFalse(control.name.contains("_"), "“\(control.name)”: a mnemonic's underscore is read out")
            let words = control.name.split(separator: " ")
            XCTAssertFalse(words.count >= 2 && words.count % 2 == 0 && words[..<(words.count / 2)] == words[(words.count / 2)...],
                           "“\(control.name)”: said twice")
            XCTAssertNil(control.name.wholeMatch(of: /[0-9:–-]+/), "“\(control.name)”: a time alone says nothing of what the control does")
        }
        XCTAssertTrue(controls.contains { $0.name == "Open…" && $0.description.isEmpty }, "the empty page's Open button")
        let duration = try XCTUnwrap(controls.first { $0.name.hasPrefix("Total time: ") }, "the duration button")
        XCTAssertEqual(duration.name, "Total time: 0:30")
        XCTAssertEqual(duration.description, "Show Remaining Time", "what a click does")
        // The seek slider's value in words, not a count of seconds.
        let slider = try XCTUnwrap(controls.first { $0.role == "slider" && $0.name == "Position" }, "the seek slider")
        XCTAssertNotNil(slider.description.wholeMatch(of: /[0-9]+:[0-9]{2} of 0:30/), "“\(slider.description)”")

        // A toggle says whether it is on (GTK 4: a button, pressed or not).
        let queueButton = { (nodes: [Node]) in nodes.first { $0.role == "push button" && $0.name == "Show Queue" } }
        XCTAssertEqual(queueButton(nodes)?.checked, false, "the queue's toggle, off")
        app.activate("show-queue")
        eventually("the queue's toggle reads as on") { ((try? Self.tree(of: app)).flatMap(queueButton))?.checked == true }
    }

    /// Preferences (data/ui/preferences.ui) shows the settings as they are, each control named,
    /// and a control pressed as Orca presses it changes its setting.
    func testPreferencesReadAndWriteTheSettings() throws {
        let config = try BackgroundTests.settingsDirectory(["skip-interval": "17", "gap": "1.5", "resume-playback": "false",
                                                            "minimize-action": "'pause'"])
        let app = try ReelApp([Paths.media("tone-30s.webm")], environment: config)
        defer { app.stop() }
        app.waitForPlaying()
        app.activate("preferences")
        let nodes = try Self.tree(of: app, window: "Preferences")
        func control(_ role: String, _ name: String, in nodes: [Node]) -> Node? {
            nodes.first { $0.role == role && $0.name == name }
        }
        XCTAssertEqual(control("spin button", "Skip Interval", in: nodes)?.value, 17)
        XCTAssertEqual(control("spin button", "Pause Between Items", in: nodes)?.value, 1.5)
        XCTAssertEqual(control("check box", "Resume Where You Left Off", in: nodes)?.checked, false)
        XCTAssertEqual(control("check box", "Continue After Errors", in: nodes)?.checked, true, "the schema's default")
        let minimized = try XCTUnwrap(nodes.firstIndex { $0.role == "combo box" && $0.name == "When Minimized" })
        XCTAssertEqual(nodes[(minimized + 1)...].first { $0.role == "label" && $0.name != "When Minimized" }?.name, "Pause",
                       "the choice shown")

        // A switch pressed writes its key; a key changed elsewhere shows at once.
        _ = try Self.tree(of: app, window: "Preferences", press: "check box:Resume Where You Left Off")
        let keyfile = URL(fileURLWithPath: try XCTUnwrap(config["XDG_CONFIG_HOME"])).appendingPathComponent("glib-2.0/settings/keyfile")
        eventually("resume-playback written") { (try? String(contentsOf: keyfile, encoding: .utf8))?.contains("resume-playback=true") == true }
        try "[org/reelplayer/Reel]\nskip-interval=25\n".write(to: keyfile, atomically: true, encoding: .utf8)
        eventually("25 s shown") { (try? Self.tree(of: app, window: "Preferences")).flatMap { control("spin button", "Skip Interval", in: $0)?.value } == 25 }
        for node in nodes where ["spin button", "check box", "combo box", "push button"].contains(node.role) {
            XCTAssertFalse(node.name.isEmpty || node.name.hasPrefix("Gtk"), "a \(node.role) without a name in words: “\(node.name)”")
        }
    }

    static func tree(of app: ReelApp, window: String? = nil, press: String? = nil) throws -> [Node] {
        var arguments = [String(app.process.processIdentifier)]
        if let window { arguments += ["--window", window] }
        if let press { arguments += ["--press", press] }
        let result = shell(Paths.packageRoot.appendingPathComponent("meson_helpers/a11y-tree").path, arguments)
        XCTAssertEqual(result.status, 0, result.output)
        let decoder = JSONDecoder()
        return try result.output.split(separator: "\n").compactMap { line in
            line.hasPrefix("{") ? try decoder.decode(Node.self, from: Data(line.utf8)) : nil
        }
    }
}
