// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGLibShims

/// The two shapes C object pointers take in Swift: typed (`UnsafeMutablePointer<GtkWidget>`)
/// for structs whose layout is public, `OpaquePointer` for those declared opaque (GstPlay, GdkTexture).
public protocol GObjectPointer {
    init(_ raw: UnsafeMutableRawPointer)
    var raw: UnsafeMutableRawPointer { get }
}

extension UnsafeMutablePointer: GObjectPointer {
    public init(_ raw: UnsafeMutableRawPointer) { self = raw.assumingMemoryBound(to: Pointee.self) }
    public var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension OpaquePointer: GObjectPointer {
    public var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

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

/// Reinterprets a GObject pointer as another C type in its hierarchy (what `GTK_WIDGET(p)` does,
/// without the runtime check).
@inline(__always)
public func gcast<T: GObjectPointer>(_ pointer: UnsafeMutableRawPointer?, _: T.Type = T.self) -> T {
    T(pointer!)
}

@inline(__always)
public func gcast<T: GObjectPointer, U: GObjectPointer>(_ pointer: U?, _: T.Type = T.self) -> T {
    T(pointer!.raw)
}

/// Takes a `transfer full` C string: returns it as a Swift String and `g_free`s it.
public func takeString(_ cString: UnsafeMutablePointer<gchar>?) -> String? {
    guard let cString else { return nil }
    defer { g_free(cString) }
    return String(cString: cString)
}
