// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// The README's key table and Reel's shortcuts window, which is made from the table of
/// commands (as the actions' accelerators and the window's own keys are), name the same keys.
final class KeyTableTests: XCTestCase {
    func testTheReadmeAndTheShortcutsWindowNameTheSameKeys() throws {
        let app = try ReelApp([Paths.media("tone-30s.webm")])
        defer { app.stop() }
        app.waitForPlaying()
        app.key("ctrl+question")
        let rows = { app.debugProperty("ShortcutKeys")?.strings ?? [] }
        eventually("the shortcuts window built") { !rows().isEmpty }
        let listed = Set(rows().flatMap { $0.split(separator: " ").map(String.init) })
        let readme = try Self.readmeKeys()
        XCTAssertGreaterThan(readme.count, 40, "the README's key table was read: \(readme.sorted())")
        XCTAssertEqual(readme.subtracting(listed).sorted(), [], "in the README's table, not in Reel's shortcuts window")
        XCTAssertEqual(listed.subtracting(readme).sorted(), [], "in Reel's shortcuts window, not in the README's table")
    }

    /// The keys in the first column of the README's table (under "| Key | Does |"), as GTK names
    /// them: "Ctrl+Shift+O" is "<Control><Shift>o", "`[`" is "bracketleft", "1 2" two keys.
    static func readmeKeys() throws -> Set<String> {
        let readme = try String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        guard let header = lines.firstIndex(of: "| Key | Does |") else { throw XCTSkip("README.md has no key table") }
        var keys = Set<String>()
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("| ") else { break }
            let cell = line.dropFirst(2).components(separatedBy: " | ")[0]
            for chunk in cell.components(separatedBy: ", ") {
                let words = ["Page Up", "Page Down"].contains(chunk) ? [chunk] : chunk.components(separatedBy: " ")
                keys.formUnion(words.map(gtkName))
            }
        }
        return keys
    }

    private static func gtkName(_ written: String) -> String {
        var rest = written.replacingOccurrences(of: "`", with: ""), modifiers = ""
        for (prefix, modifier) in [("Ctrl+", "<Control>"), ("Shift+", "<Shift>"), ("Alt+", "<Alt>")] where rest.hasPrefix(prefix) {
            modifiers += modifier
            rest.removeFirst(prefix.count)
        }
        let names = ["Space": "space", "Backspace": "BackSpace", "Comma": "comma", "Period": "period", "[": "bracketleft",
                     "]": "bracketright", "?": "question", "Page Up": "Page_Up", "Page Down": "Page_Down"]
        let key = names[rest] ?? (rest.count == 1 ? rest.lowercased() : rest)
        return modifiers + key
    }
}
