import FactoryKitAtomics

/// A word of memory read and written atomically, through the C11 atomics of `FactoryKitAtomics`,
/// which every platform and OS version FactoryKit supports provides.
///
/// Unqualified operations are sequentially consistent; the others say their ordering.
@usableFromInline
typealias AtomicWord = UnsafeMutablePointer<fk_word>

extension UnsafeMutablePointer where Pointee == fk_word {
    @inlinable @inline(__always) func load() -> UInt { fk_load(self) }
    @inlinable @inline(__always) func loadRelaxed() -> UInt { fk_load_relaxed(self) }
    @inlinable @inline(__always) func loadAcquiring() -> UInt { fk_load_acquire(self) }
    @inlinable @inline(__always) func storeRelaxed(_ value: UInt) { fk_store_relaxed(self, value) }
    @inlinable @inline(__always) func storeReleasing(_ value: UInt) { fk_store_release(self, value) }
    @inlinable @inline(__always) func exchange(_ value: UInt) -> UInt { fk_exchange(self, value) }
    /// Adds `delta`, wrapping, and returns the word as it was.
    @inlinable @inline(__always) func fetchAdd(_ delta: UInt) -> UInt { fk_fetch_add(self, delta) }
    /// Subtracts `delta`, wrapping, and returns the word as it was.
    @inlinable @inline(__always) func fetchSubtract(_ delta: UInt) -> UInt { fk_fetch_sub(self, delta) }

    /// Stores `desired` if the word holds `expected`; returns what it held.
    @inlinable @inline(__always)
    func compareExchange(expected: UInt, desired: UInt) -> (exchanged: Bool, original: UInt) {
        var original = expected
        let exchanged = fk_compare_exchange(self, &original, desired)
        return (exchanged, original)
    }

    /// The words an object keeps as its first stored properties, which must be `fk_word`s.
    @inlinable @inline(__always)
    init(firstStoredPropertiesOf object: AnyObject) {
        self = _getUnsafePointerToStoredProperties(object).assumingMemoryBound(to: fk_word.self)
    }
}

/// The process-wide atomic words, one cache line each where writers and readers differ, so a
/// word written on every resolution never shares a line with one only read.
@usableFromInline
enum ProcessWords {
    /// The read-section generation, followed by `LockFreeReads.stripeCount` lines of counters.
    @inlinable static var generation: AtomicWord { fk_process_line(0) }
    /// The first line of reader counters; stripe `n` is `n` lines further.
    @inlinable static var stripes: AtomicWord { fk_process_line(1) }
    /// The two lists of objects waiting to be released, one per generation parity, then how many
    /// batches are retired and not yet released.
    @inlinable static var retired: AtomicWord { fk_process_line(17) }
    /// `Scope.Singleton`'s counters and addresses.
    @inlinable static var singletons: AtomicWord { fk_process_line(18) }
    /// Diagnostics' switch and the thread-local key.
    @inlinable static var diagnostics: AtomicWord { fk_process_line(19) }
    /// Container types seen not to conform to `AutoRegistering` (see `AutoRegisteringTypes`).
    static var plainContainerTypes: AtomicWord { fk_process_line(20) }
}
