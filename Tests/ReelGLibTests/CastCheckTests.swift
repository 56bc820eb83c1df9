// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import ReelGLib
import XCTest

/// `gcast`'s check in debug builds: an object is castable to its own type and its ancestors,
/// not to another type; a pointer whose Swift type names no GObject type is not checked.
final class CastCheckTests: XCTestCase {
    func testAnObjectCastsToItsAncestorsAndNotToOtherTypes() throws {
        let application = try XCTUnwrap(g_application_new("org.reelplayer.CastCheck", G_APPLICATION_NON_UNIQUE))
        defer { g_object_unref(application) }
        let plain = try XCTUnwrap(g_object_new_with_properties(g_object_get_type(), 0, nil, nil))
        defer { g_object_unref(plain) }
        XCTAssertTrue(canCast(UnsafeMutableRawPointer(application), to: UnsafeMutablePointer<GObject>.self))
        XCTAssertTrue(canCast(UnsafeMutableRawPointer(application), to: UnsafeMutablePointer<GApplication>.self))
        XCTAssertFalse(canCast(plain, to: UnsafeMutablePointer<GApplication>.self), "a plain GObject is no GApplication")
        XCTAssertTrue(canCast(plain, to: OpaquePointer.self), "an opaque pointer names no type to check")
        #if DEBUG
        XCTAssertEqual(UnsafeMutablePointer<GApplication>.gType, g_application_get_type(), "debug builds check gcast")
        #endif
    }
}
