// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A value shared between GStreamer's streaming threads and the main thread, behind a pthread
/// mutex. Swift's `Mutex` locks with bare futex calls on Linux, which ThreadSanitizer cannot
/// see: every hand-off through it was reported as a race. This lock it sees, so the sanitizer
/// run checks the hand-offs that matter.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
