// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGLibShims

/// The two shapes C object pointers take in Swift: typed (`UnsafeMutablePointer<GtkWidget>`)
/// for structs whose layout is public, `OpaquePointer` for those declared opaque (GstPlay, GdkTexture).
public protocol GObjectPointer {
    init(_ raw: UnsafeMutableRawPointer)
    var raw: UnsafeMutableRawPointer { get }
    /// The GObject type the pointer is to, when Swift's type names one (`GTyped`).
    static var gType: GType? { get }
}

/// A C struct of a GObject class or interface whose pointers `gcast` checks in debug builds.
/// Structs GTK declares opaque (GtkLabel, GtkBox…) come to Swift as `OpaquePointer`, which
/// names no type: casts to those cannot be checked.
public protocol GTyped {
    static var gType: GType { get }
}

extension UnsafeMutablePointer: GObjectPointer {
    public init(_ raw: UnsafeMutableRawPointer) { self = raw.assumingMemoryBound(to: Pointee.self) }
    public var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
    public static var gType: GType? { (Pointee.self as? GTyped.Type)?.gType }
}

extension OpaquePointer: GObjectPointer {
    public var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
    public static var gType: GType? { nil }
}

extension GObject: GTyped { public static var gType: GType { g_object_get_type() } }
extension GApplication: GTyped { public static var gType: GType { g_application_get_type() } }

/// Owns one reference to a GObject: it takes a reference (sinking a floating one) when made,
/// and drops it in `deinit`. Use it wherever Swift keeps a GObject beyond one call.
public final class ObjectRef<Pointer: GObjectPointer>: @unchecked Sendable {
    // @unchecked: GObject reference counting is atomic; what callers do with `pointer`
    // follows the thread rules of the wrapped type, as in C.
    public let pointer: Pointer

    /// Adds a reference to `pointer` (sinking it if floating): for objects Swift borrows.
    public init(retaining pointer: Pointer) {
        self.pointer = pointer
        g_object_ref_sink(pointer.raw)
    }

    /// Takes over the caller's reference (for `transfer full` results); sinks a floating one.
    public init(taking pointer: Pointer) {
        self.pointer = pointer
        if reel_object_is_floating(pointer.raw) != 0 {
            g_object_ref_sink(pointer.raw)
            g_object_unref(pointer.raw)
        }
    }

    public var raw: gpointer { pointer.raw }

    deinit { g_object_unref(pointer.raw) }
}

/// Reinterprets a GObject pointer as another C type in its hierarchy, as `GTK_WIDGET(p)` does;
/// like G_DISABLE_CAST_CHECKS, the type is checked in debug builds only (where Swift names it).
@inline(__always)
public func gcast<T: GObjectPointer>(_ pointer: UnsafeMutableRawPointer?, _: T.Type = T.self,
                                     file: StaticString = #fileID, line: UInt = #line) -> T {
    #if DEBUG
    checkCast(pointer!, to: T.self, file: file, line: line)
    #endif
    return T(pointer!)
}

@inline(__always)
public func gcast<T: GObjectPointer, U: GObjectPointer>(_ pointer: U?, _: T.Type = T.self,
                                                       file: StaticString = #fileID, line: UInt = #line) -> T {
    #if DEBUG
    checkCast(pointer!.raw, to: T.self, file: file, line: line)
    #endif
    return T(pointer!.raw)
}

/// Stops with both types named when `pointer` is not an instance of `T`'s GObject type: a
/// wrong cast fails loudly in the tests rather than corrupting memory later.
public func checkCast<T: GObjectPointer>(_ pointer: UnsafeMutableRawPointer, to: T.Type, file: StaticString, line: UInt) {
    guard !canCast(pointer, to: T.self), let expected = T.gType else { return }
    let actual = pointer.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class
        .map { String(cString: g_type_name($0.pointee.g_type)) } ?? "no GObject"
    fatalError("gcast: a \(actual) is not a \(String(cString: g_type_name(expected)))", file: file, line: line)
}

/// Whether `pointer` is an instance of `T`'s GObject type (true where Swift's type names none).
public func canCast<T: GObjectPointer>(_ pointer: UnsafeMutableRawPointer, to: T.Type) -> Bool {
    guard let expected = T.gType else { return true }
    return g_type_check_instance_is_a(pointer.assumingMemoryBound(to: GTypeInstance.self), expected) != 0
}

/// Takes a `transfer full` C string: returns it as a Swift String and `g_free`s it.
public func takeString(_ cString: UnsafeMutablePointer<gchar>?) -> String? {
    guard let cString else { return nil }
    defer { g_free(cString) }
    return String(cString: cString)
}
