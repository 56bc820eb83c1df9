// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import Foundation
import ReelGLib
import ReelTestSupport
import XCTest

/// A D-Bus daemon of the test's own, and connections to it: the server's and a client's. Nothing
/// else is on the bus, and the test's main loop serves both ends.
@MainActor
final class PrivateBus {
    private let daemon = Process()
    let address: String

    init() throws {
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--nofork", "--print-address=1"]
        let output = Pipe()
        daemon.standardOutput = output
        try daemon.run()
        // The daemon prints its address once it listens.
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BusError("dbus-daemon ended before giving its address") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        address = text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() {
        daemon.terminate()
        daemon.waitUntilExit()
    }

    func connect() throws -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue |
                                         G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            defer { g_error_free(error) }
            throw BusError(error.map { String(cString: $0.pointee.message) } ?? "no connection")
        }
        return connection
    }
}

struct BusError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Turns the main loop for up to `timeout` seconds until `condition` holds.
@MainActor
func eventually(_ what: String, timeout: TimeInterval = 3, file: StaticString = #filePath, line: UInt = #line,
                _ condition: () -> Bool) {
    wait(for: what, timeout: timeout, file: file, line: line,
         between: { if g_main_context_iteration(nil, 0) == 0 { usleep(1000) } }, condition)
}

/// A client of the MPRIS server: calls go out asynchronously and the main loop turns (serving the
/// server) until the answer is in. Replies and signals are read in GVariant's text form, with
/// types (`int64 5`, `objectpath '/…'`).
@MainActor
final class MPRISClient {
    static let name = "org.mpris.MediaPlayer2.Reel"
    static let path = "/org/mpris/MediaPlayer2"
    static let player = "org.mpris.MediaPlayer2.Player"
    let connection: OpaquePointer
    /// Signals received, as "Interface.Member (arguments)".
    private(set) var signals: [String] = []
    private var subscription: guint = 0

    init(connection: OpaquePointer) {
        self.connection = connection
        let me = Unmanaged.passUnretained(self).toOpaque()
        subscription = g_dbus_connection_signal_subscribe(
            connection, nil, nil, nil, Self.path, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, interface, member, parameters, data in
                let client = Unmanaged<MPRISClient>.fromOpaque(data!).takeUnretainedValue()
                let text = takeString(g_variant_print(parameters, 1)) ?? ""
                let name = "\(String(cString: interface!)).\(String(cString: member!))"
                MainActor.assumeIsolated { client.signals.append("\(name) \(text)") }
            }, me, nil)
    }

    func close() { g_dbus_connection_signal_unsubscribe(connection, subscription) }

    func clearSignals() { signals.removeAll() }

    /// The reply in text form, or the error's message; `arguments` in GVariant's text form,
    /// e.g. "(int64 5000000,)".
    func call(_ interface: String, _ method: String, _ arguments: String? = nil) -> Result<String, BusError> {
        final class Answer { var value: Result<String, BusError>? }
        let answer = Answer()
        let parameters = arguments.map { g_variant_parse(nil, $0, nil, nil, nil)! }
        g_dbus_connection_call(connection, Self.name, Self.path, interface, method, parameters, nil,
                               G_DBUS_CALL_FLAGS_NONE, 5000, nil, { source, result, data in
            let answer = Unmanaged<Answer>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            if let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) {
                answer.value = .success(takeString(g_variant_print(reply, 1)) ?? "")
                g_variant_unref(reply)
            } else {
                answer.value = .failure(BusError(error.map { String(cString: $0.pointee.message) } ?? "?"))
                g_error_free(error)
            }
        }, Unmanaged.passRetained(answer).toOpaque())
        eventually("an answer to \(method)") { answer.value != nil }
        return answer.value ?? .failure(BusError("no answer"))
    }

    /// A property's value in text form, e.g. "'Playing'" or "1.5".
    func get(_ property: String, interface: String = player) -> String {
        let reply = (try? call("org.freedesktop.DBus.Properties", "Get", "('\(interface)', '\(property)')").get()) ?? ""
        // "(<'Playing'>,)" → "'Playing'"
        guard reply.hasPrefix("(<"), reply.hasSuffix(">,)") else { return reply }
        return String(reply.dropFirst(2).dropLast(3))
    }

    func set(_ property: String, _ value: String, interface: String = player) -> Result<String, BusError> {
        call("org.freedesktop.DBus.Properties", "Set", "('\(interface)', '\(property)', <\(value)>)")
    }
}
