#if canImport(Darwin)
    /// A count read on hot paths and changed rarely. On Apple platforms `Atomic` needs macOS 15 /
    /// iOS 18, so it falls back to the lock there.
    @usableFromInline
    final class AtomicCounter: @unchecked Sendable {
        @usableFromInline let storage = Locked(0)

        @usableFromInline
        init() {}

        @inlinable
        var value: Int { storage.withLock { $0 } }

        @usableFromInline
        func add(_ delta: Int) { storage.withLock { $0 += delta } }
    }
#else
    import Synchronization

    /// A count read on hot paths and changed rarely: one relaxed atomic load. A struct, so a
    /// `static let` of one is stored statically and reading it needs no lazy-initialization check.
    @usableFromInline
    struct AtomicCounter: ~Copyable, Sendable {
        @usableFromInline let storage = Atomic<Int>(0)

        @inlinable
        init() {}

        @inlinable
        var value: Int { storage.load(ordering: .relaxed) }

        @usableFromInline
        func add(_ delta: Int) { storage.add(delta, ordering: .relaxed) }
    }
#endif
