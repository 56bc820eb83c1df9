// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGLibShims

/// A GVariant value as a Swift enum: built and compared in Swift, turned into a GVariant at
/// the D-Bus edge. Only the types Reel's interfaces use.
public indirect enum Variant: Equatable, Sendable {
    case bool(Bool)
    case int32(Int32)
    case int64(Int64)
    case uint32(UInt32)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case strings([String])
    case objectPaths([String])
    /// `a{sv}`, keys in order.
    case dictionary([(String, Variant)])
    /// `aa{sv}`
    case dictionaries([[(String, Variant)]])
    case tuple([Variant])

    public static func == (lhs: Variant, rhs: Variant) -> Bool {
        switch (lhs, rhs) {
        case (.bool(let a), .bool(let b)): return a == b
        case (.int32(let a), .int32(let b)): return a == b
        case (.int64(let a), .int64(let b)): return a == b
        case (.uint32(let a), .uint32(let b)): return a == b
        case (.uint64(let a), .uint64(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)), (.objectPath(let a), .objectPath(let b)): return a == b
        case (.strings(let a), .strings(let b)), (.objectPaths(let a), .objectPaths(let b)): return a == b
        case (.dictionary(let a), .dictionary(let b)): return Self.equal(a, b)
        case (.dictionaries(let a), .dictionaries(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { Self.equal($0, $1) }
        case (.tuple(let a), .tuple(let b)): return a == b
        default: return false
        }
    }

    private static func equal(_ a: [(String, Variant)], _ b: [(String, Variant)]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    /// A new floating GVariant.
    public func gvariant() -> OpaquePointer {
        switch self {
        case .bool(let v): return g_variant_new_boolean(v ? 1 : 0)
        case .int32(let v): return g_variant_new_int32(v)
        case .int64(let v): return g_variant_new_int64(gint64(v))
        case .uint32(let v): return g_variant_new_uint32(v)
        case .uint64(let v): return g_variant_new_uint64(guint64(v))
        case .double(let v): return g_variant_new_double(v)
        case .string(let v): return Self.validUTF8(v).withCString { g_variant_new_string($0) }
        case .objectPath(let v): return g_variant_new_object_path(v)
        case .strings(let v):
            return Self.array("s", v.map { Variant.string($0).gvariant() })
        case .objectPaths(let v):
            return Self.array("o", v.map { g_variant_new_object_path($0) })
        case .dictionary(let entries):
            return Self.array("{sv}", entries.map { key, value in
                g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value.gvariant()))
            })
        case .dictionaries(let list):
            return Self.array("a{sv}", list.map { Variant.dictionary($0).gvariant() })
        case .tuple(let items):
            var children: [OpaquePointer?] = items.map { $0.gvariant() }
            return g_variant_new_tuple(&children, gsize(children.count))
        }
    }

    private static func array(_ elementType: String, _ children: [OpaquePointer?]) -> OpaquePointer {
        let type = g_variant_type_new(elementType)
        defer { g_variant_type_free(type) }
        var children = children
        return g_variant_new_array(type, &children, gsize(children.count))
    }

    /// D-Bus strings must be valid UTF-8 without NUL; media tags are neither promised.
    private static func validUTF8(_ text: String) -> String {
        // Swift strings are valid Unicode already; only embedded NULs need removing.
        text.contains("\0") ? String(text.filter { $0 != "\0" }) : text
    }
}

/// Reading the values of a GVariant tuple that arrived from D-Bus (GDBus has already checked
/// the types against the introspection data).
public enum GVariantReader {
    private static func withChild<R>(_ tuple: OpaquePointer, _ index: Int, _ body: (OpaquePointer) -> R) -> R {
        let child = g_variant_get_child_value(tuple, gsize(index))!
        defer { g_variant_unref(child) }
        return body(child)
    }

    public static func int64(_ tuple: OpaquePointer, _ index: Int) -> Int64 {
        withChild(tuple, index) { Int64(g_variant_get_int64($0)) }
    }

    public static func bool(_ tuple: OpaquePointer, _ index: Int) -> Bool {
        withChild(tuple, index) { g_variant_get_boolean($0) != 0 }
    }

    public static func string(_ tuple: OpaquePointer, _ index: Int) -> String {
        withChild(tuple, index) { string($0) ?? "" }
    }

    /// An `as` or `ao` element of a tuple.
    public static func strings(_ tuple: OpaquePointer, _ index: Int) -> [String] {
        withChild(tuple, index) { array in
            (0..<Int(g_variant_n_children(array))).map { string(array, $0) }
        }
    }

    /// A string, object path or signature value itself.
    public static func string(_ variant: OpaquePointer) -> String? {
        guard let s = g_variant_get_string(variant, nil) else { return nil }
        return String(cString: s)
    }
}
