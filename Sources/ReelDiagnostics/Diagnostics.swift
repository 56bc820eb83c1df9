// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import Foundation
import ReelCore
import ReelEngine

/// The tests' and the benchmark's window into a running Reel, switched on by the environment
/// variable REEL_DEBUG_DBUS (never by default): the debug D-Bus interface, the frame counters
/// and the test-only knobs. Without the switch, `start` registers nothing and counts nothing.
@MainActor
public enum Diagnostics {
    public static var isEnabled: Bool { ProcessInfo.processInfo.environment["REEL_DEBUG_DBUS"] != nil }

    /// Starts the diagnostics for this process when switched on; the returned object keeps them.
    public static func start(connection: OpaquePointer, engine: GstPlayEngine, model: PlayerModel,
                             window: @escaping @MainActor () -> DiagnosableWindow?) -> AnyObject? {
        guard isEnabled else { return nil }
        // How long a stream may buffer without playing on: the network tests shorten it.
        if let seconds = ProcessInfo.processInfo.environment["REEL_NETWORK_TIMEOUT"].flatMap(Double.init), seconds > 0 {
            model.bufferingTimeout = seconds
        }
        return DebugInterface(connection: connection, engine: engine, window: window)
    }

    /// A crash in Reel's own code, for the crash report's test. Never inlined, so the report's
    /// stack names it.
    @inline(never)
    static func crashForTesting() {
        UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = 1
    }
}
