// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Reel without a pointer: Tab and Shift+Tab go through every control in the order they are
/// seen, the focus is drawn, the control bar stays while it holds the focus, and menus and
/// dialogs open, work and close from the keyboard. The focus is read as Orca reads it (AT-SPI).
final class KeyboardTests: XCTestCase {
    typealias Node = AccessibilityTests.Node

    func testTabGoesThroughEveryControlInTheOrderTheyAreSeen() throws {
        let app = try ReelApp([Paths.media("long-4min.webm")])
        defer { app.stop() }
        app.waitForPlaying()
        _ = app.windowID
        app.revealControls()
        let nodes = try AccessibilityTests.tree(of: app)
        let frame = nodes.first { $0.role == "frame" }?.bounds ?? [0, 0, 0, 0]
        // The window manager's buttons are out of the Tab order in GNOME, as in GTK.
        let windowButtons: Set = ["Minimize", "Maximize", "Close"]
        let onScreen = nodes.filter {
            $0.focusable && AccessibilityTests.interactiveRoles.contains($0.role) && $0.isShown(in: (frame[2], frame[3]))
                && !windowButtons.contains($0.name)
        }
        XCTAssertGreaterThan(onScreen.count, 8, "the window's controls: \(onScreen.map(\.name))")

        let forward = focusChain(app, key: "Tab")
        XCTAssertEqual(Set(forward.compactMap(\.bounds)), Set(onScreen.compactMap(\.bounds)),
                       "Tab reaches every control on screen, and only those: \(forward.map(\.name)), not \(onScreen.map(\.name))")
        XCTAssertEqual(forward.map(\.name), Self.inReadingOrder(forward).map(\.name), "Tab goes left to right, top to bottom")
        let backward = focusChain(app, key: "shift+Tab")
        XCTAssertEqual(Self.rotated(backward.reversed(), toStartWith: forward.first).compactMap(\.bounds), forward.compactMap(\.bounds),
                       "Shift+Tab goes the same way back: \(backward.map(\.name))")
        XCTAssertTrue(app.debugBool("FocusVisible"), "the focus is drawn")

        // The bar holds the focus: it stays over playing video past the time it hides in.
        XCTAssertTrue(forward.contains { $0.name == "Position" }, "the seek slider is reached")
        _ = focusChain(app, key: "Tab", until: "Position")
        _ = app.screenshot("keyboard-focus-on-the-slider")
        let heldSince = Date()
        eventually("the bar still shown 4 s on", timeout: 6) {
            XCTAssertTrue(app.controlsShown, "the bar hid under the keyboard's focus")
            return Date().timeIntervalSince(heldSince) > 4
        }
        // The pointer moved: the bar hides as usual, and Tab brings it back.
        app.desktop.pointerMove(app.windowID, x: 200, y: 150)
        eventually("the bar hides once the pointer is used", timeout: 8) { !app.controlsShown }
        app.key("Tab")
        eventually("Tab shows the bar") { app.controlsShown }
    }

    func testMenusAndDialogsWorkWithoutAPointer() throws {
        let server = try Fixture("media-server.py", [Paths.media.path], waitForFirstLine: true)
        let app = try ReelApp([Paths.media("long-4min.webm")])
        defer { app.stop() }
        app.waitForPlaying()
        _ = app.windowID

        // The main menu: F10, the arrows to Preferences, Enter; Escape closes it.
        app.key("F10")
        moveFocus(app, key: "Down", to: "Preferences", role: "menu item")
        app.key("Return")
        eventually("Preferences open") { app.otherWindows.contains { app.desktop.title($0) == "Preferences" } }
        app.pressKey("Escape")
        eventually("Preferences closed") { app.otherWindows.isEmpty }

        // The speed menu, reached with Tab, opened with Enter (Space plays and pauses, everywhere),
        // a speed chosen with the arrows.
        _ = focusChain(app, key: "Tab", until: "Playback Speed 1×")
        app.key("Return")
        moveFocus(app, key: "Down", to: "1.5×", role: "menu item")
        app.key("Return")
        eventually("1.5× chosen") { (try? app.property("Rate").doubleValue) == 1.5 }

        // Open Location: Ctrl+L, an address typed, Enter plays it.
        app.key("ctrl+l")
        eventually("Open Location open") { app.otherWindows.contains { app.desktop.title($0) == "Open Location" } }
        app.desktop.type("http://127.0.0.1:\(server.firstLine)/media/short-2.webm")
        app.pressKey("Return")
        app.waitForPlaying("short-2")
        XCTAssertTrue(app.otherWindows.isEmpty, "the dialog closed")

        // The shortcuts: Ctrl+?, Escape.
        app.key("ctrl+question")
        eventually("the shortcuts shown") { app.otherWindows.contains { app.desktop.title($0) == "Keyboard Shortcuts" } }
        app.pressKey("Escape")
        eventually("the shortcuts closed") { app.otherWindows.isEmpty }
    }

    // MARK: The focus, as AT-SPI reads it

    private func focused(_ app: ReelApp) -> Node? {
        (try? AccessibilityTests.tree(of: app, focusedOnly: true))?.last { $0.focused && AccessibilityTests.interactiveRoles.contains($0.role) }
    }

    /// Presses `key` until the focus comes back round (or reaches `until`): the controls it went
    /// through, in order.
    private func focusChain(_ app: ReelApp, key: String, until target: String? = nil,
                            file: StaticString = #filePath, line: UInt = #line) -> [Node] {
        var chain: [Node] = []
        var last = focused(app)
        for _ in 0..<40 {
            app.key(key)
            var now: Node?
            eventually("the focus moves on with \(key)", file: file, line: line) {
                now = self.focused(app)
                return now != nil && (now?.name != last?.name || now?.bounds != last?.bounds)
            }
            guard let node = now else { break }
            if let target, node.name == target { return chain + [node] }
            if chain.contains(where: { $0.name == node.name && $0.bounds == node.bounds }) { return chain }
            chain.append(node)
            last = node
        }
        XCTFail(target.map { "\($0) never reached with \(key)" } ?? "the focus never came back round with \(key)", file: file, line: line)
        return chain
    }

    private func moveFocus(_ app: ReelApp, key: String, to name: String, role: String,
                           file: StaticString = #filePath, line: UInt = #line) {
        eventually("the focus on “\(name)”", timeout: 30, file: file, line: line) {
            let node = self.focused(app)
            if node?.name == name && node?.role == role { return true }
            app.pressKey(key)
            return false
        }
    }

    /// Top to bottom in rows (centres within 16 px), left to right in each.
    static func inReadingOrder(_ nodes: [Node]) -> [Node] {
        func centre(_ node: Node) -> (x: Int, y: Int) {
            let b = node.bounds ?? [0, 0, 0, 0]
            return (b[0] + b[2] / 2, b[1] + b[3] / 2)
        }
        let sorted = nodes.sorted { a, b in
            let (ca, cb) = (centre(a), centre(b))
            return abs(ca.y - cb.y) > 16 ? ca.y < cb.y : ca.x < cb.x
        }
        return rotated(sorted, toStartWith: nodes.first)
    }

    static func rotated<C: Collection>(_ nodes: C, toStartWith first: Node?) -> [Node] where C.Element == Node {
        let array = Array(nodes)
        guard let first, let start = array.firstIndex(where: { $0.name == first.name && $0.bounds == first.bounds }) else { return array }
        return Array(array[start...] + array[..<start])
    }
}
