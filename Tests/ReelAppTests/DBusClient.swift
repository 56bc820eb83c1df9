// SPDX-License-Identifier: GPL-3.0-or-later
import CDBus
import Foundation

/// A D-Bus value as libdbus reads it, keeping its exact signature.
indirect enum DBusValue: Equatable, CustomStringConvertible {
    case byte(UInt8), bool(Bool), int16(Int16), uint16(UInt16), int32(Int32), uint32(UInt32)
    case int64(Int64), uint64(UInt64), double(Double)
    case string(String), objectPath(String), signature(String)
    case array(elementSignature: String, [DBusValue])
    case dictEntry(DBusValue, DBusValue)
    case structure([DBusValue])
    case variant(DBusValue)

    var signature: String {
        switch self {
        case .byte: return "y"
        case .bool: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .array(let element, _): return "a" + element
        case .dictEntry(let k, let v): return "{" + k.signature + v.signature + "}"
        case .structure(let items): return "(" + items.map(\.signature).joined() + ")"
        case .variant: return "v"
        }
    }

    var description: String {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): return "\"\(s)\""
        case .variant(let v): return "<\(v)>"
        case .array(_, let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .dictEntry(let k, let v): return "\(k): \(v)"
        case .structure(let items): return "(" + items.map(\.description).joined(separator: ", ") + ")"
        case .bool(let b): return "\(b)"
        case .int64(let n): return "\(n)"
        case .int32(let n): return "\(n)"
        case .uint32(let n): return "\(n)"
        case .double(let d): return "\(d)"
        default: return "\(signature)"
        }
    }

    /// `a{sv}` as a Swift dictionary of the variants' contents.
    var dictionary: [String: DBusValue] {
        guard case .array(_, let entries) = unwrapped else { return [:] }
        var result: [String: DBusValue] = [:]
        for case .dictEntry(.string(let key), let value) in entries {
            if case .variant(let inner) = value { result[key] = inner } else { result[key] = value }
        }
        return result
    }

    var unwrapped: DBusValue { if case .variant(let v) = self { return v.unwrapped } else { return self } }
    var stringValue: String? {
        switch unwrapped { case .string(let s), .objectPath(let s): return s; default: return nil }
    }
    var int64Value: Int64? { if case .int64(let n) = unwrapped { return n } else { return nil } }
    var doubleValue: Double? { if case .double(let d) = unwrapped { return d } else { return nil } }
    var boolValue: Bool? { if case .bool(let b) = unwrapped { return b } else { return nil } }
    var strings: [String]? {
        guard case .array(_, let items) = unwrapped else { return nil }
        return items.compactMap(\.stringValue)
    }
}

/// Arguments this client sends.
enum DBusArgument {
    case string(String), objectPath(String), int64(Int64), int32(Int32), uint32(UInt32), bool(Bool)
    case variantDouble(Double), variantString(String), variantBool(Bool), variantInt32(Int32)
    case objectPaths([String])
}

struct DBusCallError: Error, CustomStringConvertible {
    let name: String
    let message: String
    var description: String { "\(name): \(message)" }
}

struct DBusSignal {
    let path: String
    let interface: String
    let member: String
    let arguments: [DBusValue]
    let time: Date
}

/// An independent D-Bus client on libdbus-1 (the reference C library, not GDBus), so the MPRIS
/// checks share no code with the server they check.
final class DBusClient {
    private let connection: OpaquePointer
    private(set) var signals: [DBusSignal] = []

    init() throws {
        var error = DBusError()
        dbus_error_init(&error)
        guard let connection = dbus_bus_get_private(DBUS_BUS_SESSION, &error) else {
            defer { dbus_error_free(&error) }
            throw DBusCallError(name: "connect", message: error.message.map { String(cString: $0) } ?? "no session bus")
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        self.connection = connection
    }

    deinit {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    func call(_ destination: String, _ path: String, _ interface: String, _ method: String,
              _ arguments: [DBusArgument] = [], timeout: Int32 = 5000) throws -> [DBusValue] {
        guard let message = dbus_message_new_method_call(destination, path, interface, method) else {
            throw DBusCallError(name: "message", message: "cannot build \(method)")
        }
        defer { dbus_message_unref(message) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for argument in arguments { Self.append(argument, to: &iter) }
        var error = DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(connection, message, timeout, &error) else {
            defer { dbus_error_free(&error) }
            throw DBusCallError(name: error.name.map { String(cString: $0) } ?? "?",
                                message: error.message.map { String(cString: $0) } ?? "")
        }
        defer { dbus_message_unref(reply) }
        collectQueuedSignals()
        return Self.read(reply)
    }

    func addMatch(_ rule: String) {
        var error = DBusError()
        dbus_error_init(&error)
        dbus_bus_add_match(connection, rule, &error)
        dbus_error_free(&error)
        dbus_connection_flush(connection)
    }

    /// Reads incoming messages for `seconds`, keeping the signals.
    func pump(for seconds: TimeInterval) {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            _ = dbus_connection_read_write(connection, 50)
            collectQueuedSignals()
        }
    }

    /// Pumps until `condition` holds of the signals kept so far (consuming none), or `timeout`
    /// passes; says whether it held.
    @discardableResult
    func pump(until condition: ([DBusSignal]) -> Bool, timeout: TimeInterval = 5) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        collectQueuedSignals()
        while !condition(signals) {
            guard Date() < end else { return false }
            _ = dbus_connection_read_write(connection, 50)
            collectQueuedSignals()
        }
        return true
    }

    /// Pumps until a signal matching `predicate` (among those not yet consumed) arrives.
    @discardableResult
    func waitForSignal(timeout: TimeInterval = 5, _ predicate: (DBusSignal) -> Bool) -> DBusSignal? {
        let end = Date().addingTimeInterval(timeout)
        repeat {
            if let index = signals.firstIndex(where: predicate) { return signals.remove(at: index) }
            _ = dbus_connection_read_write(connection, 50)
            collectQueuedSignals()
        } while Date() < end
        return signals.firstIndex(where: predicate).map { signals.remove(at: $0) }
    }

    func clearSignals() {
        collectQueuedSignals()
        signals.removeAll()
    }

    private func collectQueuedSignals() {
        while let message = dbus_connection_pop_message(connection) {
            defer { dbus_message_unref(message) }
            guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_SIGNAL else { continue }
            signals.append(DBusSignal(path: dbus_message_get_path(message).map { String(cString: $0) } ?? "",
                                      interface: dbus_message_get_interface(message).map { String(cString: $0) } ?? "",
                                      member: dbus_message_get_member(message).map { String(cString: $0) } ?? "",
                                      arguments: Self.read(message), time: Date()))
        }
    }

    // MARK: Marshalling

    private static func append(_ argument: DBusArgument, to iter: inout DBusMessageIter) {
        func basic<T>(_ type: Character, _ value: T, _ iter: inout DBusMessageIter) {
            withUnsafeBytes(of: value) { _ = dbus_message_iter_append_basic(&iter, Int32(type.asciiValue!), $0.baseAddress) }
        }
        func string(_ type: Character, _ value: String, _ iter: inout DBusMessageIter) {
            value.withCString { cString in
                var pointer: UnsafePointer<CChar>? = cString
                _ = dbus_message_iter_append_basic(&iter, Int32(type.asciiValue!), &pointer)
            }
        }
        func variant(_ signature: String, _ iter: inout DBusMessageIter, _ body: (inout DBusMessageIter) -> Void) {
            var sub = DBusMessageIter()
            _ = dbus_message_iter_open_container(&iter, Int32(Character("v").asciiValue!), signature, &sub)
            body(&sub)
            _ = dbus_message_iter_close_container(&iter, &sub)
        }
        switch argument {
        case .string(let s): string("s", s, &iter)
        case .objectPath(let s): string("o", s, &iter)
        case .int64(let n): basic("x", n, &iter)
        case .int32(let n): basic("i", n, &iter)
        case .uint32(let n): basic("u", n, &iter)
        case .bool(let b): basic("b", UInt32(b ? 1 : 0), &iter)
        case .variantDouble(let d): variant("d", &iter) { basic("d", d, &$0) }
        case .variantString(let s): variant("s", &iter) { string("s", s, &$0) }
        case .variantBool(let b): variant("b", &iter) { basic("b", UInt32(b ? 1 : 0), &$0) }
        case .variantInt32(let n): variant("i", &iter) { basic("i", n, &$0) }
        case .objectPaths(let paths):
            var sub = DBusMessageIter()
            _ = dbus_message_iter_open_container(&iter, Int32(Character("a").asciiValue!), "o", &sub)
            for p in paths { string("o", p, &sub) }
            _ = dbus_message_iter_close_container(&iter, &sub)
        }
    }

    private static func read(_ message: OpaquePointer) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        return readAll(&iter)
    }

    private static func readAll(_ iter: inout DBusMessageIter) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != 0 {
            values.append(readOne(&iter))
            dbus_message_iter_next(&iter)
        }
        return values
    }

    private static func readOne(_ iter: inout DBusMessageIter) -> DBusValue {
        func basic<T>(_ initial: T) -> T {
            var value = initial
            withUnsafeMutableBytes(of: &value) { dbus_message_iter_get_basic(&iter, $0.baseAddress) }
            return value
        }
        let type = UInt8(dbus_message_iter_get_arg_type(&iter))
        switch Character(UnicodeScalar(type)) {
        case "y": return .byte(basic(UInt8(0)))
        case "b": return .bool(basic(UInt32(0)) != 0)
        case "n": return .int16(basic(Int16(0)))
        case "q": return .uint16(basic(UInt16(0)))
        case "i": return .int32(basic(Int32(0)))
        case "u": return .uint32(basic(UInt32(0)))
        case "x": return .int64(basic(Int64(0)))
        case "t": return .uint64(basic(UInt64(0)))
        case "d": return .double(basic(Double(0)))
        case "s", "o", "g":
            let pointer: UnsafePointer<CChar>? = basic(nil)
            let text = pointer.map { String(cString: $0) } ?? ""
            return type == UInt8(ascii: "s") ? .string(text) : type == UInt8(ascii: "o") ? .objectPath(text) : .signature(text)
        case "a":
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            let signature = dbus_message_iter_get_signature(&iter).map { s -> String in
                defer { dbus_free(s) }
                return String(String(cString: s).dropFirst())
            } ?? ""
            return .array(elementSignature: signature, readAll(&sub))
        case "e":
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            let items = readAll(&sub)
            return .dictEntry(items[0], items[1])
        case "r":
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .structure(readAll(&sub))
        case "v":
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .variant(readOne(&sub))
        default:
            return .signature("?")
        }
    }
}
