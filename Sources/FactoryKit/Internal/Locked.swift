#if canImport(Darwin)
    import os
#else
    import Synchronization
#endif

/// State guarded by the cheapest non-recursive lock the platform offers.
///
/// The lock is never held while user code runs: callers look up or publish under it and do
/// everything else outside. A recursive acquisition is a bug in FactoryKit and traps.
///
/// The state is a stored property beside the lock, not inside a `Mutex<State>`: a generic class's
/// `deinit` would look up `Mutex<State>`'s metadata at run time, twice, about 660 instructions
/// each time a container goes away.
@usableFromInline
final class Locked<State>: @unchecked Sendable {
    #if canImport(Darwin)
        // `Mutex` needs macOS 15 / iOS 18; `os_unfair_lock` is as cheap and available everywhere.
        @usableFromInline let lock: UnsafeMutablePointer<os_unfair_lock>
    #else
        @usableFromInline let mutex = Mutex(())
        // Copied from the global hooks so a lock reads them without a lazy-global check.
        @usableFromInline let acquireHook = ThreadSanitizerHooks.acquire
        @usableFromInline let releaseHook = ThreadSanitizerHooks.release
    #endif
    // Last, so the fields above sit at the same offsets whatever `State` is.
    @usableFromInline @exclusivity(unchecked) var state: State

    @usableFromInline
    init(_ initial: State) {
        #if canImport(Darwin)
            lock = .allocate(capacity: 1)
            lock.initialize(to: os_unfair_lock())
        #endif
        state = initial
    }

    #if canImport(Darwin)
        deinit {
            lock.deinitialize(count: 1)
            lock.deallocate()
        }
    #endif

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            return try withState(body)
        #else
            return try mutex.withLock { _ throws -> sending Result in
                let token = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
                if let acquireHook { acquireHook(token) }
                defer { if let releaseHook { releaseHook(token) } }
                // The state never leaves the lock; the result is the caller's to share or not.
                nonisolated(unsafe) let result = try withState(body)
                return result
            }
        #endif
    }

    /// Runs `body` on the state; under the lock. A state with nothing in it (a lock guarding
    /// code, not data) is not accessed at all: such a property has no storage of its own, and
    /// ThreadSanitizer sees an access to it as one to the object's header, which other threads
    /// read without the lock.
    func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        if MemoryLayout<State>.size == 0 {
            var nothing = unsafeBitCast((), to: State.self)
            return try body(&nothing)
        }
        return try body(&state)
    }
}
