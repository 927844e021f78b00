import FactoryKitAtomics

/// A process-wide count read on hot paths and changed rarely: one relaxed atomic load of a
/// statically allocated word (see `ProcessWords`).
@usableFromInline
struct AtomicCounter {
    @usableFromInline let word: AtomicWord

    init(_ word: AtomicWord) { self.word = word }

    var value: Int { Int(bitPattern: word.loadRelaxed()) }

    func add(_ delta: Int) { _ = fk_fetch_add_relaxed(word, UInt(bitPattern: delta)) }
}
