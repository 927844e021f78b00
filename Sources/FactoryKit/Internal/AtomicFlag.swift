#if canImport(Darwin)
    /// A Boolean read on every resolution and rarely written. On Apple platforms `Atomic` needs
    /// macOS 15 / iOS 18, so it falls back to the lock there.
    @usableFromInline
    final class AtomicFlag: @unchecked Sendable {
        @usableFromInline let storage = Locked(false)

        @usableFromInline
        init() {}

        @inlinable
        var value: Bool { storage.withLock { $0 } }

        @usableFromInline
        func set(_ newValue: Bool) { storage.withLock { $0 = newValue } }
    }
#else
    import Synchronization

    /// A Boolean read on every resolution and rarely written: one relaxed atomic load.
    @usableFromInline
    final class AtomicFlag: @unchecked Sendable {
        @usableFromInline let storage = Atomic<Bool>(false)

        @usableFromInline
        init() {}

        @inlinable
        var value: Bool { storage.load(ordering: .relaxed) }

        @usableFromInline
        func set(_ newValue: Bool) { storage.store(newValue, ordering: .relaxed) }
    }
#endif
