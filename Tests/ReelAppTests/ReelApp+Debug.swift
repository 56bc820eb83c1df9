// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// What Reel tells of itself: its debug interface (counters, the window's read-backs), strict
/// about what it must have, and its CPU time from /proc.
extension ReelApp {
    // MARK: The debug interface (frame counters)

    /// A property of the debug interface, nil when Reel has none by that name (or does not
    /// answer): for comparisons such as `== .bool(false)`, which a missing property fails.
    func debugProperty(_ name: String) -> DBusValue? { try? debugPropertyValue(name) }

    private func debugPropertyValue(_ name: String) throws -> DBusValue? {
        try bus.call("org.reelplayer.Reel", "/org/reelplayer/Reel/Debug", "org.freedesktop.DBus.Properties", "Get",
                     [.string("org.reelplayer.Reel.Debug"), .string(name)]).first?.unwrapped
    }

    /// Calls a method of the debug interface.
    @discardableResult
    func debugCall(_ method: String) throws -> [DBusValue] {
        try bus.call("org.reelplayer.Reel", "/org/reelplayer/Reel/Debug", "org.reelplayer.Reel.Debug", method)
    }

    var messageShown: String { debugString("MessageShown") }
    var bufferingShown: Bool { debugBool("BufferingShown") }

    var framesReceived: UInt64 { debugUInt64("FramesReceived") }
    var framesShown: UInt64 { debugUInt64("FramesShown") }
    /// Frames of the playing video never drawn (gaps in the timestamps of those drawn).
    var framesSkipped: UInt64 { debugUInt64("FramesSkipped") }

    /// A counter of the debug interface. One Reel does not have (renamed, removed, of another
    /// type) or cannot answer fails the test with its name: a broken counter must not read as a
    /// 0 that a "nothing happened" check then passes on. It reads as 0 after failing.
    func debugUInt64(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> UInt64 {
        guard case .uint64(let n)? = requiredDebugProperty(name, type: "t", file: file, line: line) else { return 0 }
        return n
    }

    /// A string of the debug interface; a missing one fails the test (and reads as "").
    func debugString(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        guard case .string(let text)? = requiredDebugProperty(name, type: "s", file: file, line: line) else { return "" }
        return text
    }

    /// A flag of the debug interface; a missing one fails the test (and reads as false).
    func debugBool(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        requiredDebugProperty(name, type: "b", file: file, line: line) == .bool(true)
    }

    private func requiredDebugProperty(_ name: String, type: String, file: StaticString, line: UInt) -> DBusValue? {
        let problem: String
        do {
            guard let value = try debugPropertyValue(name) else { throw DBusCallError(name: "reply", message: "no value") }
            if value.signature == type { return value }
            problem = "is of type \(value.signature), not \(type)"
        } catch {
            problem = "could not be read: \(error)"
        }
        if reportedDebugProperties.insert(name).inserted {
            XCTFail("the debug property \(name) \(problem)", file: file, line: line)
        }
        return nil
    }

    /// CPU time (user + system) the process has used, in seconds.
    var cpuTime: Double { Self.cpuTime(pid: process.processIdentifier) }

    static func cpuTime(pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // Fields after the command: state is [0]; utime and stime are [11] and [12].
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    // MARK: The window's read-backs (the debug interface)

    var controlsShown: Bool { debugBool("ControlsShown") }

    /// Whether a menu of the control bar (speed, subtitles, volume, overflow) is open.
    var menuOpen: Bool { debugBool("MenuOpen") }

    /// Whether the queue panel is drawn, beside the video or over it.
    var queueShown: Bool { debugBool("QueueShown") }

    /// The control bar, its shown controls, and the slider's trough and knob, as the window lays
    /// them out, in the desktop's window coordinates (those of screenshots and clicks).
    var controlBounds: [String: WindowRect] {
        let rects: [String: [Double]] = debugProperty("ControlBounds")?.dictionary.compactMapValues { value in
            guard case .structure(let items) = value.unwrapped else { return nil }
            let numbers = items.compactMap(\.doubleValue)
            return numbers.count == 4 ? numbers : nil
        } ?? [:]
        let offset = desktop.includesSurfaceMargins ? rects["surface-offset"] ?? [0, 0] : [0, 0]
        return rects.filter { $0.key != "surface-offset" }.mapValues {
            WindowRect(x: $0[0] + offset[0], y: $0[1] + offset[1], width: $0[2], height: $0[3])
        }
    }
}
