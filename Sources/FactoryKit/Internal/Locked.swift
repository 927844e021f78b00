#if canImport(Darwin)
    import os
#else
    import FactoryKitAtomics
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif
#endif

/// State guarded by the cheapest non-recursive lock the platform offers, which readers may share.
///
/// The lock is never held while user code runs: callers look up or publish under it and do
/// everything else outside. A recursive acquisition is a bug in FactoryKit and traps (a write
/// inside a read section would wait for itself: read sections take no lock).
///
/// `withLock` holds it alone; `withSharedLock` shares it with other readers on Linux, and holds
/// it alone on Apple platforms, which offer no futex on the OS versions FactoryKit supports.
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
        // A futex lock (`fk_shared_lock`): `Synchronization.Mutex` on Linux reads the thread's id
        // from thread-local storage on each acquisition, uses priority-inheritance futexes, which
        // enter the kernel on any contention, and has no shared mode; this one is an atomic
        // instruction each way for a reader, two for a writer.
        @usableFromInline let lock: UnsafeMutablePointer<fk_shared_lock>
        // Copied from the global hooks so a lock reads them without a lazy-global check.
        @usableFromInline let acquireHook = ThreadSanitizerHooks.acquire
        @usableFromInline let releaseHook = ThreadSanitizerHooks.release
    #endif
    // Last, so the fields above sit at the same offsets whatever `State` is.
    @usableFromInline @exclusivity(unchecked) var state: State

    @usableFromInline
    init(_ initial: State) {
        lock = .allocate(capacity: 1)
        #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
        #else
            lock.initialize(to: fk_shared_lock())
        #endif
        state = initial
    }

    deinit {
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            return try withState(body)
        #else
            let me = fk_thread_id()
            // os_unfair_lock traps on a recursive acquisition; so does this one.
            precondition(fk_shared_lock_owner(lock) != me, "FactoryKit took one of its locks recursively")
            fk_exclusive_acquire(lock)
            fk_shared_lock_set_owner(lock, me)
            let token = UnsafeRawPointer(lock)
            if let acquireHook { acquireHook(token) }
            defer {
                if let releaseHook { releaseHook(token) }
                fk_shared_lock_set_owner(lock, 0)
                fk_exclusive_release(lock)
            }
            return try withState(body)
        #endif
    }

    /// Runs `body` while other readers may run too, and no writer (`withLock`) does. `body` must
    /// only read what `withLock` writes, and must take no FactoryKit lock.
    func withSharedLock<Result>(_ body: () -> Result) -> Result {
        #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            return body()
        #else
            // A read inside the thread's own write would wait for itself.
            precondition(fk_shared_lock_owner(lock) != fk_thread_id(), "FactoryKit took one of its locks recursively")
            fk_shared_acquire(lock)
            let token = UnsafeRawPointer(lock)
            if let acquireHook { acquireHook(token) }
            defer {
                if let releaseHook { releaseHook(token) }
                fk_shared_release(lock)
            }
            return body()
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
