// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Reel follows the locale in each of its languages: its help, and the desktop file and
/// metainfo installed with it (the window in each language: ReviewTests and RightToLeftTests).
final class LocalizationTests: XCTestCase {
    func testEveryLanguageSpeaksInItsHelpDesktopFileAndMetainfo() throws {
        let prefix = try XCTUnwrap(ProcessInfo.processInfo.environment["REEL_TEST_PREFIX"], "run in meson_helpers/run-tests")
        let desktopFile = try String(contentsOfFile: prefix + "/share/applications/org.reelplayer.Reel.desktop", encoding: .utf8)
        let metainfo = try String(contentsOfFile: prefix + "/share/metainfo/org.reelplayer.Reel.metainfo.xml", encoding: .utf8)
        for (language, locale) in ReviewTests.languages where language != "en" {
            let expected = try translation(of: "Show the version and exit", in: language)
            XCTAssertNotEqual(expected, "Show the version and exit", "\(language): translated")
            let help = shell(Paths.reel.path, ["--help"], environment: ["LANG": locale, "LC_ALL": locale, "LANGUAGE": ""])
            XCTAssertTrue(help.output.contains(expected), "\(language): the help in the language: \(help.output.prefix(400))")
            for key in ["GenericName", "Comment", "Keywords"] {
                XCTAssertTrue(desktopFile.contains("\n\(key)[\(language)]="), "\(language): the desktop file's \(key)")
            }
            XCTAssertTrue(metainfo.contains("<summary xml:lang=\"\(language)\">"), "\(language): the metainfo's summary")
            XCTAssertTrue(metainfo.contains("<p xml:lang=\"\(language)\">"), "\(language): the metainfo's description")
        }
    }

    /// The msgstr of a one-line msgid in po/LANG.po.
    private func translation(of msgid: String, in language: String) throws -> String {
        let po = try String(contentsOf: Paths.packageRoot.appendingPathComponent("po/\(language).po"), encoding: .utf8)
        let lines = po.components(separatedBy: "\n")
        let index = try XCTUnwrap(lines.firstIndex(of: "msgid \"\(msgid)\""), "\(language): \(msgid) in its .po")
        let msgstr = lines[index + 1]
        XCTAssertTrue(msgstr.hasPrefix("msgstr \""), msgstr)
        return String(msgstr.dropFirst("msgstr \"".count).dropLast())
    }
}
