import FactoryKitAtomics

/// A Boolean read on every resolution and rarely written: one relaxed atomic load.
@usableFromInline
final class AtomicFlag: @unchecked Sendable {
    /// Read and written only through `word`, as the object's first stored property.
    private var storage = fk_word()

    @usableFromInline
    init() {}

    @inlinable @inline(__always)
    var word: AtomicWord { AtomicWord(firstStoredPropertiesOf: self) }

    @inlinable
    var value: Bool { word.loadRelaxed() != 0 }

    @usableFromInline
    func set(_ newValue: Bool) { word.storeRelaxed(newValue ? 1 : 0) }
}
