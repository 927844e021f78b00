/// A factory's context overrides: for each context key, the box of the closure to run and which
/// closure it holds.
///
/// A definition re-applies its overrides on every access (`.onArg("x") { Mock() }`), so a write
/// must be able to tell that it would store the very closure already stored, and then change
/// nothing: nothing is rewritten, and no resolution options go stale. A factory has a handful of
/// overrides at most, so they are kept in a small array and compared without hashing.
@usableFromInline
struct ContextOverrides {
    @usableFromInline
    struct Entry {
        @usableFromInline let key: ContextKey
        @usableFromInline let box: AnyObject
        /// The words of the closure the box runs, as the modifier received it.
        @usableFromInline let words: ClosureWords?
        /// That closure itself, which keeps `words` naming it (see `ClosureWords`).
        @usableFromInline let closure: Any?
        /// The factory's registration when this override was written, by its serial (see
        /// `FactoryRecord.registrationSerial`): if it is still the registration in force when the
        /// override wins, the override was written after it, on purpose, and hides nothing its
        /// writer did not mean to hide (see `warnRegistrationShadowed`). 0 when there was none.
        @usableFromInline var registrationWhenWritten: UInt64 = 0
        /// The function of the first closure stored for this key, which the definition writes on
        /// the factory's first access if it overrides this context, before anything else can.
        @usableFromInline var firstFunction: UInt?
        /// `registrationWhenWritten` of that first write.
        @usableFromInline var registrationAtFirstWrite: UInt64 = 0
    }

    /// In the order the keys were first written; each key at most once.
    @usableFromInline var entries: [Entry] = []

    /// The box stored for `key`, if any.
    subscript(key: ContextKey) -> AnyObject? {
        for entry in entries where entry.key == key { return entry.box }
        return nil
    }

    /// Whether `key` already holds the closure with these words, so that storing it again would
    /// change nothing. `false` when the closure cannot be identified. Always inlined: an `.onArg`
    /// definition's check calls it on every access (S10: 891 instructions called, 867 inlined).
    @inline(__always)
    func holds(_ words: ClosureWords?, for key: ContextKey) -> Bool {
        guard let words else { return false }
        // Through the buffer, so that no entry is copied.
        return entries.withUnsafeBufferPointer { entries in
            for index in entries.indices where entries[index].key == key { return entries[index].words == words }
            return false
        }
    }

    /// Stores `box` for `key`, returning the box it replaces, if any.
    ///
    /// `registration` is the factory's registration at this write, which the override notes as
    /// written after it, with one exception. Without `.once()`, a definition re-applies its
    /// override on every access, and in an unoptimized build each access passes a closure value
    /// of its own (see `ClosureWords`): a write by the closure expression that wrote first for
    /// this key (the same function, whatever it captures), unless `isOnce`, is taken for the
    /// definition putting its own override back, and keeps the note of that first write. After
    /// `.once()` the definition writes nothing more, so every write is someone's override,
    /// written now.
    mutating func set(
        _ box: AnyObject, words: ClosureWords?, closure: Any?, for key: ContextKey, registration: UInt64,
        isOnce: Bool
    ) -> AnyObject? {
        var entry = Entry(key: key, box: box, words: words, closure: closure)
        entry.registrationWhenWritten = registration
        guard let index = entries.firstIndex(where: { $0.key == key }) else {
            entry.firstFunction = words?.function
            entry.registrationAtFirstWrite = registration
            entries.append(entry)
            return nil
        }
        let replaced = entries[index]
        entry.firstFunction = replaced.firstFunction
        entry.registrationAtFirstWrite = replaced.registrationAtFirstWrite
        if !isOnce, let function = words?.function, function == replaced.firstFunction {
            entry.registrationWhenWritten = replaced.registrationAtFirstWrite
        }
        entries[index] = entry
        return replaced.box
    }

    /// Whether the override in `box` was written while `registration` was the factory's
    /// registration, so after it (see `Entry.registrationWhenWritten`).
    func wasWritten(_ box: AnyObject, after registration: UInt64) -> Bool {
        entries.contains { $0.box === box && $0.registrationWhenWritten == registration }
    }
}

/// The two words of a closure value, its function and its context: what tells one closure from
/// another.
///
/// Two closure values with equal words behave the same while both are alive: the same code with
/// the same captured context (or, for a closure that captures nothing, no context at all). So
/// whoever stores a closure's words also keeps that closure: its context stays alive, and no
/// other closure's context can take its address. A closure that captures something therefore
/// matches only the very same value. The value kept may be a reabstraction thunk the compiler
/// made around the modifier's argument; a later argument, thunked anew, then never matches and
/// is stored as before. In optimized builds a definition's closure that captures nothing is the
/// same value on every access, so re-applying it changes nothing.
@usableFromInline
struct ClosureWords: Equatable {
    @usableFromInline let function: UInt
    @usableFromInline let context: UInt

    /// The words of `closure`, a function value; `nil` if it is not laid out as two words.
    /// Inlinable: read in the code that wrote the closure, where it has its own representation.
    @inlinable
    init?<Closure>(of closure: Closure) {
        let word = MemoryLayout<UInt>.size
        guard MemoryLayout<Closure>.size == 2 * word else { return nil }
        (function, context) = withUnsafeBytes(of: closure) { bytes in
            (bytes.loadUnaligned(as: UInt.self), bytes.loadUnaligned(fromByteOffset: word, as: UInt.self))
        }
    }
}
