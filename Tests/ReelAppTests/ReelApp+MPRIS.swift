// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Driving Reel over D-Bus as a desktop does: MPRIS, and GApplication's actions (org.gtk.Actions).
extension ReelApp {
    // MARK: MPRIS

    @discardableResult
    func player(_ method: String, _ arguments: [DBusArgument] = []) throws -> [DBusValue] {
        try bus.call(Self.busName, Self.mprisPath, Self.playerInterface, method, arguments)
    }

    func property(_ name: String, interface: String = ReelApp.playerInterface) throws -> DBusValue {
        let reply = try bus.call(Self.busName, Self.mprisPath, "org.freedesktop.DBus.Properties", "Get",
                                 [.string(interface), .string(name)])
        return reply.first ?? .string("")
    }

    func setProperty(_ name: String, _ value: DBusArgument, interface: String = ReelApp.playerInterface) throws {
        _ = try bus.call(Self.busName, Self.mprisPath, "org.freedesktop.DBus.Properties", "Set",
                         [.string(interface), .string(name), value])
    }

    func getAll(_ interface: String = ReelApp.playerInterface) throws -> [DBusValue] {
        try bus.call(Self.busName, Self.mprisPath, "org.freedesktop.DBus.Properties", "GetAll", [.string(interface)])
    }

    var status: String { (try? property("PlaybackStatus"))?.stringValue ?? "" }
    var position: Double { Double((try? property("Position"))?.int64Value ?? -1) / 1_000_000 }
    var metadata: [String: DBusValue] { (try? property("Metadata"))?.dictionary ?? [:] }
    var title: String { metadata["xesam:title"]?.stringValue ?? "" }

    func waitForPlaying(_ title: String? = nil, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) {
        eventually("playing \(title ?? "")", timeout: timeout, file: file, line: line) {
            self.status == "Playing" && (title == nil || self.title == title) && self.position > 0.1
        }
    }

    // MARK: GApplication actions (org.gtk.Actions on the app's own bus name)

    func activate(_ action: String, _ parameter: String? = nil) {
        let result = shell("gdbus", ["call", "--session", "--dest", "org.reelplayer.Reel", "--object-path", "/org/reelplayer/Reel",
                                   "--method", "org.gtk.Actions.Activate", action, parameter.map { "[<\($0)>]" } ?? "[]", "{}"])
        XCTAssertEqual(result.status, 0, "action \(action): \(result.output)")
    }

    /// An action's state as GVariant text (`1`, `true`), "" when it has none.
    func actionState(_ action: String) -> String {
        let result = shell("gdbus", ["call", "--session", "--dest", "org.reelplayer.Reel", "--object-path", "/org/reelplayer/Reel",
                                   "--method", "org.gtk.Actions.Describe", action])
        // ((true, 'i', [<1>]),)
        guard let open = result.output.range(of: "[<", options: .backwards),
              let close = result.output.range(of: ">]", options: .backwards), open.upperBound <= close.lowerBound else { return "" }
        return String(result.output[open.upperBound..<close.lowerBound])
    }
}
