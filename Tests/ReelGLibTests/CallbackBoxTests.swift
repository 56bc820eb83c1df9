// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import ReelGLib
import XCTest

/// Callback data as C holds it: the box lives until its destroy notify, and a weak box's
/// target may go first.
final class CallbackBoxTests: XCTestCase {
    final class Target {}

    func testAWeakBoxOutlivesItsTargetAndIsFreedByItsDestroyNotify() {
        var target: Target? = Target()
        weak var box: WeakBox<Target>?
        let data: UnsafeMutableRawPointer = {
            let made = WeakBox(target)
            box = made
            return made.retained()
        }()
        XCTAssertTrue(WeakBox<Target>.target(data) === target, "the target, while it lives")
        target = nil
        XCTAssertNil(WeakBox<Target>.target(data), "nil once the target has gone")
        XCTAssertNotNil(box, "the C side's reference keeps the box")
        CallbackBox.release(data)
        XCTAssertNil(box, "freed by the destroy notify")
    }

    func testAValueBoxHandsItsValueBack() {
        let data = ValueBox({ (x: Int) in x * 2 }).retained()
        defer { CallbackBox.release(data) }
        XCTAssertEqual(ValueBox<(Int) -> Int>.value(data)(21), 42)
    }
}
