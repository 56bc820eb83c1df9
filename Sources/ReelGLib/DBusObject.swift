// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGLibShims

/// A D-Bus error answered to a method call or a property write.
public struct DBusError: Error, Sendable {
    public var name: String
    public var message: String
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }
    public static func invalidArgs(_ message: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }
    public static func notSupported(_ message: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.NotSupported", message: message)
    }
    static func failed(_ message: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.Failed", message: message)
    }
}

/// What an exported object does with calls; runs on the main thread (GDBus dispatches to the
/// thread-default context the object was registered from).
@MainActor
public protocol DBusObjectHandler: AnyObject {
    /// Returns the reply's values (an empty array for no reply values), or throws a D-Bus error.
    func call(interface: String, method: String, parameters: OpaquePointer) throws(DBusError) -> [Variant]
    func property(interface: String, name: String) -> Variant?
    func setProperty(interface: String, name: String, value: OpaquePointer) throws(DBusError)
}

/// One object exported on a D-Bus connection with GDBus: it registers every interface of an
/// introspection XML at a path, routes calls to its handler, and emits signals.
@MainActor
public final class DBusObject {
    public let path: String
    private let connection: OpaquePointer
    private var registrations: [guint] = []
    private let nodeInfo: UnsafeMutablePointer<GDBusNodeInfo>

    public init(connection: OpaquePointer, path: String, introspectionXML: String, handler: DBusObjectHandler) throws(DBusError) {
        self.connection = connection
        self.path = path
        var error: UnsafeMutablePointer<GError>?
        guard let info = g_dbus_node_info_new_for_xml(introspectionXML, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "bad introspection XML"
            g_clear_error(&error)
            throw DBusError.failed(message)
        }
        nodeInfo = info
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, interface, method, parameters, invocation, data in
            let box = Unmanaged<HandlerBox>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated {
                box.handleCall(String(cString: interface!), String(cString: method!), parameters!, invocation!)
            }
        }
        vtable.get_property = { _, _, _, interface, name, error, data in
            let box = Unmanaged<HandlerBox>.fromOpaque(data!).takeUnretainedValue()
            // The GVariant is handed straight back to GDBus on this same thread.
            nonisolated(unsafe) var result: OpaquePointer?
            MainActor.assumeIsolated {
                result = box.property(String(cString: interface!), String(cString: name!), error)
            }
            return result
        }
        vtable.set_property = { _, _, _, interface, name, value, error, data in
            let box = Unmanaged<HandlerBox>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated {
                box.setProperty(String(cString: interface!), String(cString: name!), value!, error)
            }
        }
        var index = 0
        while let interface = info.pointee.interfaces[index] {
            let box = Unmanaged.passRetained(HandlerBox(handler)).toOpaque()
            var registerError: UnsafeMutablePointer<GError>?
            let id = g_dbus_connection_register_object(connection, path, interface, &vtable, box,
                                                       { Unmanaged<HandlerBox>.fromOpaque($0!).release() },
                                                       &registerError)
            if id == 0 {
                let message = registerError.map { String(cString: $0.pointee.message) } ?? "cannot export \(path)"
                g_clear_error(&registerError)
                throw DBusError.failed(message)
            }
            registrations.append(id)
            index += 1
        }
    }

    isolated deinit {
        for id in registrations { g_dbus_connection_unregister_object(connection, id) }
        g_dbus_node_info_unref(nodeInfo)
    }

    public func emitSignal(interface: String, name: String, _ arguments: [Variant]) {
        let parameters = Variant.tuple(arguments).gvariant()
        g_dbus_connection_emit_signal(connection, nil, path, interface, name, parameters, nil)
    }

    /// org.freedesktop.DBus.Properties.PropertiesChanged with values, never invalidations.
    public func emitPropertiesChanged(interface: String, _ changed: [(String, Variant)]) {
        guard !changed.isEmpty else { return }
        emitSignal(interface: "org.freedesktop.DBus.Properties", name: "PropertiesChanged",
                   [.string(interface), .dictionary(changed), .strings([])])
    }
}

/// The handler as seen from C callbacks; holds it weakly so the exported object never keeps
/// the model's observers alive.
@MainActor
private final class HandlerBox {
    weak var handler: DBusObjectHandler?
    init(_ handler: DBusObjectHandler) { self.handler = handler }

    func handleCall(_ interface: String, _ method: String, _ parameters: OpaquePointer, _ invocation: OpaquePointer) {
        guard let handler else {
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.Failed", "The player is gone")
            return
        }
        do {
            let reply = try handler.call(interface: interface, method: method, parameters: parameters)
            g_dbus_method_invocation_return_value(invocation, reply.isEmpty ? nil : Variant.tuple(reply).gvariant())
        } catch {
            g_dbus_method_invocation_return_dbus_error(invocation, error.name, error.message)
        }
    }

    func property(_ interface: String, _ name: String, _ error: UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> OpaquePointer? {
        if let value = handler?.property(interface: interface, name: name) { return value.gvariant() }
        g_set_error_literal(error, g_dbus_error_quark(), Int32(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue), "No such property: \(name)")
        return nil
    }

    func setProperty(_ interface: String, _ name: String, _ value: OpaquePointer,
                     _ error: UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> gboolean {
        do {
            try handler?.setProperty(interface: interface, name: name, value: value)
            return 1
        } catch let failure {
            let code = failure.name.hasSuffix("NotSupported") ? G_DBUS_ERROR_NOT_SUPPORTED : G_DBUS_ERROR_INVALID_ARGS
            g_set_error_literal(error, g_dbus_error_quark(), Int32(code.rawValue), failure.message)
            return 0
        }
    }
}
