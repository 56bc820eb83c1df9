// SPDX-License-Identifier: GPL-3.0-or-later
import CGio

/// Data for a C callback, with its destroy notify: the C side holds one reference, given by
/// `retained()` and dropped by `CallbackBox.release` (pass both, as GLib's APIs take them).
/// `WeakBox` reaches an object that may be gone before the C side lets go; `ValueBox` holds a
/// value (a closure, a small struct).
public class CallbackBox: @unchecked Sendable {
    // @unchecked: the boxes' fields are a weak reference (atomic in Swift) or a `let`.
    fileprivate init() {}

    /// The pointer to hand C, holding a reference until `release` is called on it.
    public final func retained() -> UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    /// The destroy notify for `retained()`'s pointer; nonisolated, as C may call it on any thread.
    public static let release: GDestroyNotify = { Unmanaged<CallbackBox>.fromOpaque($0!).release() }

    fileprivate static func box(_ data: UnsafeMutableRawPointer?) -> CallbackBox {
        Unmanaged<CallbackBox>.fromOpaque(data!).takeUnretainedValue()
    }
}

/// A weak reference to `Target` as callback data: a call after the target has gone finds nil.
public final class WeakBox<Target: AnyObject>: CallbackBox {
    public weak var target: Target?

    /// Empty, for an owner that sets itself once initialized.
    public init(_ target: Target? = nil) {
        self.target = target
        super.init()
    }

    /// The target behind `data` (made by `retained()` on a `WeakBox<Target>`), nil once gone.
    public static func target(_ data: UnsafeMutableRawPointer?) -> Target? { from(data).target }

    /// The box behind `data`, to keep for a later look at the target (on another thread).
    public static func from(_ data: UnsafeMutableRawPointer?) -> WeakBox<Target> {
        unsafeDowncast(box(data), to: WeakBox<Target>.self)
    }
}

/// A value as callback data.
public final class ValueBox<Value>: CallbackBox {
    public let value: Value

    public init(_ value: Value) {
        self.value = value
        super.init()
    }

    /// The value behind `data` (made by `retained()` on a `ValueBox<Value>`).
    public static func value(_ data: UnsafeMutableRawPointer?) -> Value {
        unsafeDowncast(box(data), to: ValueBox<Value>.self).value
    }
}
