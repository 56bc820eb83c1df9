// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Reel follows the locale: Japanese and Traditional Chinese (the seed apps' developers' own).
final class LocalizationTests: XCTestCase {
    private func check(_ locale: String, help expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let environment = ["LANG": locale, "LC_ALL": locale, "LANGUAGE": ""]
        let help = shell(Paths.reel.path, ["--help"], environment: environment)
        XCTAssertTrue(help.output.contains(expected), help.output, file: file, line: line)
        // The window in that language, for people to look at.
        let app = try ReelApp([], environment: environment)
        eventually("the window drawn", file: file, line: line) {
            (app.screenshot()?.mean(x0: 0.1, y0: 0.3, x1: 0.9, y1: 0.7).r ?? 0) > 150
        }
        XCTAssertNotNil(app.screenshot("empty-state-\(locale)"), file: file, line: line)
    }

    func testJapanese() throws {
        try check("ja_JP.UTF-8", help: "バージョンを表示して終了する")
    }

    func testTraditionalChinese() throws {
        try check("zh_TW.UTF-8", help: "顯示版本後結束")
    }
}
