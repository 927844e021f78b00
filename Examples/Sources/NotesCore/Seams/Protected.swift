import Foundation

/// A value guarded by a lock, for state that many tasks touch.
///
/// It locks with `NSLock`, which ThreadSanitizer understands on every platform. On Linux,
/// `Synchronization.Mutex` is built on futexes that ThreadSanitizer does not see, so it reports
/// races on state a `Mutex` does protect, whenever two threads happen to meet there.
public final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Guards `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value with the lock held.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
