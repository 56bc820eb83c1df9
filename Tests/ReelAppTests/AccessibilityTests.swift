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
        let focused: Bool
        let focusable: Bool
        let value: Double?
        /// In the window's coordinates. GTK 4.8 reads hidden widgets too (a stack's other pages, a
        /// closed side panel), with no size or outside the window, and marks nothing "showing".
        let bounds: [Int]?

        /// Whether it is on screen in a window of `size`.
        func isShown(in size: (width: Int, height: Int)) -> Bool {
            guard let bounds, bounds.count == 4, bounds[2] > 0, bounds[3] > 0 else { return false }
            return bounds[0] < size.width && bounds[1] < size.height && bounds[0] + bounds[2] > 0 && bounds[1] + bounds[3] > 0
        }
    }

    /// What a user acts on. List rows are read through their contents (GTK 4.8 gives a row no name).
    static let interactiveRoles: Set = ["push button", "toggle button", "slider", "check box", "radio button", "menu item",
                                        "check menu item", "radio menu item", "spin button", "combo box", "entry", "page tab"]

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
        for control in controls { Self.checkName(control, on: "the window") }
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

    /// Every surface, as Orca reads it: the window empty, playing, paused, fullscreen and with
    /// an error; each menu and popover; the queue and the transcript; Preferences, the shortcuts
    /// and Open Location; a toast. Each control on screen has a name that says what it does.
    func testEverySurfaceReadsAsWhatItDoes() throws {
        let empty = try ReelApp([])
        var nodes = try readSurface("the empty window", of: empty)
        XCTAssertTrue(nodes.contains { $0.role == "push button" && $0.name == "Open…" }, "the empty page's Open button")
        empty.stop()

        let app = try ReelApp([Paths.media("talk.webm")])
        defer { app.stop() }
        app.waitForPlaying()
        _ = app.windowID  // found now, while it is the app's only window
        nodes = try readSurface("the window playing", of: app)
        XCTAssertTrue(nodes.contains { $0.role == "push button" && $0.name == "Playback Speed 1×" }, "the speed button: what it is, then its value")
        _ = try app.player("Pause")
        eventually("paused") { app.status == "Paused" }
        nodes = try readSurface("the window paused", of: app)
        XCTAssertTrue(nodes.contains { $0.role == "push button" && $0.name == "Play" }, "the play button says what it does now")

        // Each menu and popover, opened as Orca opens them.
        let closed = Self.controlCount(nodes)
        func open(_ menu: String) throws -> [Node] {
            _ = try Self.tree(of: app, press: "push button:\(menu)")
            eventually("\(menu): its contents read") { Self.controlCount((try? Self.tree(of: app)) ?? []) > closed }
            return try readSurface("the menu “\(menu)”", of: app)
        }
        func close(_ menu: String) {
            app.key("Escape")
            eventually("\(menu) closed") { Self.controlCount((try? Self.tree(of: app)) ?? []) == closed }
        }
        for menu in ["Main Menu", "Playback Speed 1×", "Subtitles and Sound Tracks", "Volume"] {
            _ = try open(menu)
            close(menu)
        }
        // A toggle in a menu says whether it is on.
        app.activate("night-mode")
        nodes = try open("Main Menu")
        XCTAssertEqual(nodes.first { $0.role == "menu item" && $0.name == "Night Mode" }?.checked, true, "Night Mode reads as on")
        close("Main Menu")

        for panel in ["show-queue", "show-transcript"] {
            app.activate(panel)
            nodes = try readSurface(panel, of: app)
        }
        XCTAssertTrue(nodes.contains { $0.role == "entry" && $0.name == "Search the Transcript" && ($0.bounds?[2] ?? 0) > 0 },
                      "the transcript's search field")
        app.activate("show-transcript")

        // A toast: its text is an alert, which screen readers announce; its close button is named.
        app.activate("reset-colours")
        eventually("the toast shown") { app.debugProperty("ToastShown")?.stringValue == "Colours reset" }
        nodes = try readSurface("a toast", of: app)
        XCTAssertTrue(nodes.contains { $0.role == "alert" && $0.name == "Colours reset" }, "the toast reads as an alert")

        for (action, title) in [("preferences", "Preferences"), ("open-location", "Open Location"), ("win.show-help-overlay", "Keyboard Shortcuts")] {
            app.activateQuietly(action)
            _ = try readSurface(title, of: app, window: title)
            app.closeDialogs()
        }

        app.activate("toggle-fullscreen")
        eventually("fullscreen") { app.isFullscreen }
        app.revealControls()
        _ = try readSurface("fullscreen", of: app)
        app.activate("toggle-fullscreen")

        app.activate("open-uri", "'\(Paths.mediaURI("random.mp4"))'")
        eventually("the error page") { app.debugProperty("MessageShown")?.stringValue?.contains("random.mp4") == true }
        nodes = try readSurface("the error page", of: app)
        XCTAssertTrue(nodes.contains { $0.role == "label" && $0.name.contains("random.mp4") }, "the error read")
    }

    private static func controlCount(_ nodes: [Node]) -> Int { nodes.filter { interactiveRoles.contains($0.role) }.count }

    /// Reads one surface and checks the name of every control on screen in it.
    private func readSurface(_ surface: String, of app: ReelApp, window: String? = nil, press: String? = nil,
                             file: StaticString = #filePath, line: UInt = #line) throws -> [Node] {
        let nodes = try Self.tree(of: app, window: window, press: press)
        // The window's own size (its frame, or the dialog read).
        let frame = nodes.first { $0.bounds != nil }?.bounds ?? [0, 0, 0, 0]
        let size = (width: frame[2], height: frame[3])
        let controls = nodes.filter { Self.interactiveRoles.contains($0.role) && $0.isShown(in: size) }
        XCTAssertFalse(controls.isEmpty, "\(surface): no control read", file: file, line: line)
        for control in controls { Self.checkName(control, on: surface, file: file, line: line) }
        return nodes
    }

    /// A name in words: not empty, no mnemonic underscore, not said twice, not a type's name,
    /// not a bare time.
    static func checkName(_ control: Node, on surface: String, file: StaticString = #filePath, line: UInt = #line) {
        let name = control.name
        XCTAssertFalse(name.isEmpty, "\(surface): a \(control.role) without a name", file: file, line: line)
        XCTAssertFalse(name.contains("_"), "\(surface): “\(name)”: a mnemonic's underscore is read out", file: file, line: line)
        XCTAssertFalse(name.hasPrefix("Gtk") || name.hasPrefix("Adw"),
                       "\(surface): a \(control.role) “\(name)” at \(control.bounds ?? []) is a type's name", file: file, line: line)
        let words = name.split(separator: " ")
        XCTAssertFalse(words.count >= 2 && words.count % 2 == 0 && words[..<(words.count / 2)] == words[(words.count / 2)...],
                       "\(surface): “\(name)”: said twice", file: file, line: line)
        XCTAssertNil(name.wholeMatch(of: /[0-9:–-]+/), "\(surface): “\(name)”: a time alone says nothing of what the control does",
                     file: file, line: line)
    }

    static func tree(of app: ReelApp, window: String? = nil, press: String? = nil, focusedOnly: Bool = false) throws -> [Node] {
        var arguments = [String(app.process.processIdentifier)]
        if focusedOnly { arguments.append("--focused") }
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
