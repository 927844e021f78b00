#if canImport(Darwin)
    import os
#else
    import Synchronization
#endif

/// State guarded by the cheapest non-recursive lock the platform offers.
///
/// The lock is never held while user code runs: callers look up or publish under it and do
/// everything else outside. A recursive acquisition is a bug in FactoryKit and traps.
@usableFromInline
final class Locked<State>: @unchecked Sendable {
    #if canImport(Darwin)
        // `Mutex` needs macOS 15 / iOS 18; `os_unfair_lock` is as cheap and available everywhere.
        @usableFromInline let lock: UnsafeMutablePointer<os_unfair_lock>
        @usableFromInline @exclusivity(unchecked) var state: State

        @usableFromInline
        init(_ initial: State) {
            lock = .allocate(capacity: 1)
            lock.initialize(to: os_unfair_lock())
            state = initial
        }

        deinit {
            lock.deinitialize(count: 1)
            lock.deallocate()
        }

        @inlinable @inline(__always)
        func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            return try body(&state)
        }
    #else
        // A `Mutex` of nothing beside the state, not a `Mutex<State>`: destroying a generic
        // class's `Mutex<State>` looks up that type's metadata at run time, twice, about 660
        // instructions each time a container goes away.
        @usableFromInline let mutex = Mutex(())
        // Copied from the global hooks so a lock reads them without a lazy-global check.
        @usableFromInline let acquireHook = ThreadSanitizerHooks.acquire
        @usableFromInline let releaseHook = ThreadSanitizerHooks.release
        // Last, so the fields above sit at the same offsets whatever `State` is.
        @usableFromInline @exclusivity(unchecked) var state: State

        @usableFromInline
        init(_ initial: State) {
            state = initial
        }

        @inlinable @inline(__always)
        func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            try mutex.withLock { _ throws -> sending Result in
                let token = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
                if let acquireHook { acquireHook(token) }
                defer { if let releaseHook { releaseHook(token) } }
                // The state never leaves the lock; the result is the caller's to share or not.
                nonisolated(unsafe) let result = try body(&state)
                return result
            }
        }
    #endif
}
