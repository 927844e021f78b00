#if canImport(Darwin)
    import os
#else
    import FactoryKitAtomics
#endif

/// State guarded by the cheapest non-recursive lock the platform offers.
///
/// The lock is never held while user code runs: callers look up or publish under it and do
/// everything else outside. A recursive acquisition is a bug in FactoryKit and traps.
///
/// The state is a stored property beside the lock, not inside a `Mutex<State>`: `Mutex` needs
/// macOS 15 / iOS 18, and a generic class's `deinit` would look up `Mutex<State>`'s metadata at
/// run time each time a container goes away.
@usableFromInline
package final class Locked<State>: @unchecked Sendable {
    #if canImport(Darwin)
        // Traps on a recursive acquisition by itself.
        let lock: UnsafeMutablePointer<os_unfair_lock>
    #else
        // A futex lock (`fk_lock`): one atomic instruction each way when uncontended; it sleeps,
        // never spins. ThreadSanitizer cannot see a futex, so the lock tells it (the hooks).
        let lock: UnsafeMutablePointer<fk_lock>
        let acquireHook = ThreadSanitizerHooks.acquire
        let releaseHook = ThreadSanitizerHooks.release
    #endif
    @usableFromInline @exclusivity(unchecked) var state: State

    package init(_ initial: State) {
        lock = .allocate(capacity: 1)
        #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
        #else
            lock.initialize(to: fk_lock())
        #endif
        state = initial
    }

    deinit {
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
        #else
            let me = fk_thread_id()
            precondition(fk_lock_owner(lock) != me, "FactoryKit took one of its locks recursively")
            fk_lock_acquire(lock)
            fk_lock_set_owner(lock, me)
            if let acquireHook { acquireHook(UnsafeRawPointer(lock)) }
            defer {
                if let releaseHook { releaseHook(UnsafeRawPointer(lock)) }
                fk_lock_set_owner(lock, 0)
                fk_lock_release(lock)
            }
        #endif
        return try body(&state)
    }
}
