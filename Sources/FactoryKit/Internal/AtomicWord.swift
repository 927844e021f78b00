import FactoryKitAtomics

/// A word of memory read and written atomically, through the C11 atomics of `FactoryKitAtomics`,
/// which every platform and OS version FactoryKit supports provides.
///
/// Unqualified operations are sequentially consistent; the others say their ordering.
@usableFromInline
typealias AtomicWord = UnsafeMutablePointer<fk_word>

extension UnsafeMutablePointer where Pointee == fk_word {
    @inlinable
    func loadRelaxed() -> UInt { fk_load_relaxed(self) }
    func loadAcquiring() -> UInt { fk_load_acquire(self) }
    func storeRelaxed(_ value: UInt) { fk_store_relaxed(self, value) }

    /// Stores `desired` if the word holds `expected`; returns what it held.
    func compareExchange(expected: UInt, desired: UInt) -> (exchanged: Bool, original: UInt) {
        var original = expected
        let exchanged = fk_compare_exchange(self, &original, desired)
        return (exchanged, original)
    }
}

/// The process-wide atomic words: flags read often and written rarely, one cache line.
@usableFromInline
enum ProcessWords {
    /// Diagnostics' switch and the thread-local key (words 0 and 1).
    @inlinable
    static var diagnostics: AtomicWord { fk_process_line(0) }
}
