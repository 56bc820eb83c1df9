// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Polls `condition` until it holds or `timeout` passes (then fails the test).
@discardableResult
func eventually(_ description: String, timeout: TimeInterval = 10, interval: TimeInterval = 0.05,
                file: StaticString = #filePath, line: UInt = #line, _ condition: () throws -> Bool) -> Bool {
    wait(for: description, timeout: timeout, file: file, line: line, between: { Thread.sleep(forTimeInterval: interval) }, condition)
}

/// Polls `condition` until it holds or `timeout` passes, and says whether it held: for waits
/// whose running out is not the test's failure.
@discardableResult
func within(_ timeout: TimeInterval, interval: TimeInterval = 0.05, _ condition: () throws -> Bool) -> Bool {
    poll(timeout: timeout, between: { Thread.sleep(forTimeInterval: interval) }, condition)
}
