// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGLibShims
import Synchronization

/// The arguments of one signal emission, read by position (0 is the emitting instance).
/// Valid only during the emission, on the emitting thread (`@unchecked Sendable` so a handler
/// can hand it synchronously to `MainActor.assumeIsolated` on that same thread).
public struct SignalArguments: @unchecked Sendable {
    let values: UnsafePointer<GValue>
    public let count: Int
    let returnValue: UnsafeMutablePointer<GValue>?

    public func pointer(_ i: Int) -> UnsafeMutableRawPointer? {
        let v = values + i
        let type = reel_value_type(v)
        if reel_type_is_a(type, reel_type_object()) != 0 { return g_value_get_object(v) }
        if reel_type_is_a(type, reel_type_boxed()) != 0 { return g_value_get_boxed(v) }
        if type == reel_type_string() { return UnsafeMutableRawPointer(mutating: g_value_get_string(v)) }
        if type == reel_type_variant() { return g_value_get_variant(v).map { UnsafeMutableRawPointer($0) } }
        return g_value_get_pointer(v)
    }
    public func string(_ i: Int) -> String? { g_value_get_string(values + i).map { String(cString: $0) } }
    public func uint64(_ i: Int) -> UInt64 { UInt64(g_value_get_uint64(values + i)) }
    public func double(_ i: Int) -> Double { g_value_get_double(values + i) }
    public func int(_ i: Int) -> Int {
        let v = values + i
        let type = reel_value_type(v)
        if reel_type_is_a(type, reel_type_enum()) != 0 { return Int(g_value_get_enum(v)) }
        if reel_type_is_a(type, reel_type_flags()) != 0 { return Int(g_value_get_flags(v)) }
        if type == reel_type_uint() { return Int(g_value_get_uint(v)) }
        return Int(g_value_get_int(v))
    }

    /// For signals whose handlers return a gboolean (e.g. "close-request", "query-tooltip").
    public func setReturn(_ value: Bool) {
        if let returnValue { g_value_set_boolean(returnValue, value ? 1 : 0) }
    }

    /// For signals whose handlers return a gint (e.g. GApplication's "handle-local-options").
    public func setReturn(_ value: Int32) {
        if let returnValue { g_value_set_int(returnValue, value) }
    }
}

// Made on the main thread, called on whichever emits: a streaming thread's first emission is
// ordered after the connection by GLib's signal lock, which ThreadSanitizer cannot see (GLib is
// not built for it); the release/acquire pair on `published` states the order where it can, as
// for TimeoutBox below.
private final class SignalHandlerBox: @unchecked Sendable {
    private let handler: (SignalArguments) -> Void
    private let published = Atomic<Bool>(false)

    init(_ handler: @escaping (SignalArguments) -> Void) {
        self.handler = handler
        published.store(true, ordering: .releasing)
    }

    func call(_ arguments: SignalArguments) {
        _ = published.load(ordering: .acquiring)
        handler(arguments)
    }
}

/// Connects `handler` to `signal` on `instance` through a GClosure with one generic marshaller,
/// so one function serves every signal signature. The closure box is released by the closure's
/// finalize notifier, i.e. when the handler is disconnected or the instance is finalized.
/// Handlers run on the thread that emits the signal; GTK and GstPlay's signal adapter emit on
/// the main thread.
@discardableResult
public func connectSignal(_ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false,
                          _ handler: @escaping (SignalArguments) -> Void) -> gulong {
    let box = Unmanaged.passRetained(SignalHandlerBox(handler)).toOpaque()
    let closure = g_closure_new_simple(guint(MemoryLayout<GClosure>.size), box)!
    g_closure_add_finalize_notifier(closure, box) { data, _ in
        Unmanaged<SignalHandlerBox>.fromOpaque(data!).release()
    }
    g_closure_set_marshal(closure) { closure, returnValue, count, values, _, _ in
        let box = Unmanaged<SignalHandlerBox>.fromOpaque(closure!.pointee.data!).takeUnretainedValue()
        box.call(SignalArguments(values: values!, count: Int(count), returnValue: returnValue))
    }
    return g_signal_connect_closure(instance, signal, closure, after ? 1 : 0)
}

/// `connectSignal` for handlers that are main-actor code; GTK emits its signals on the main thread.
@discardableResult
public func connectMainSignal(_ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false,
                              _ handler: @escaping @MainActor (SignalArguments) -> Void) -> gulong {
    connectSignal(instance, signal, after: after) { args in
        MainActor.assumeIsolated { handler(args) }
    }
}

/// Runs `body` on the main thread's GLib loop after `milliseconds`, repeating while it returns true.
/// The body box is released by the source's destroy notify.
@discardableResult
public func addTimeout(milliseconds: UInt32, _ body: @escaping @MainActor () -> Bool) -> guint {
    let box = Unmanaged.passRetained(TimeoutBox(body)).toOpaque()
    return g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { data in
        let box = Unmanaged<TimeoutBox>.fromOpaque(data!).takeUnretainedValue()
        return MainActor.assumeIsolated { box.run() } ? 1 : 0
    }, box, { data in Unmanaged<TimeoutBox>.fromOpaque(data!).release() })
}

// Made on any thread (runSoon from a streaming thread), run on the main thread. GLib's
// main-context lock orders the two, but GLib is not built for ThreadSanitizer, which cannot
// see that lock: the release/acquire pair on `published` states the same order where it can.
private final class TimeoutBox: @unchecked Sendable {
    private let body: @MainActor () -> Bool
    private let published = Atomic<Bool>(false)

    init(_ body: @escaping @MainActor () -> Bool) {
        self.body = body
        published.store(true, ordering: .releasing)
    }

    @MainActor func run() -> Bool {
        _ = published.load(ordering: .acquiring)
        return body()
    }
}

/// Runs `body` once on the main thread's GLib loop, after the current event.
public func runSoon(_ body: @escaping @MainActor () -> Void) {
    addTimeout(milliseconds: 0) { body(); return false }
}
