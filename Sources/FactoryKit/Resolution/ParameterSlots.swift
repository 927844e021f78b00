/// The key of a `scopeOnParameters` value: the parameter, with its hash taken once, when the key
/// is made, with no lock held.
///
/// A parameter's `hash(into:)`, `==` and `deinit` are user code, which must never run under a
/// FactoryKit lock: keys are hashed when made, compared only by lookups in a `ParameterTable`,
/// which run with no lock held, and released only after a lock is given up.
@usableFromInline
struct ParameterKey: Hashable, @unchecked Sendable {
    let value: AnyHashable
    let precomputedHash: Int

    /// The key of `parameter`, or `nil` when it is not `Hashable` (its values then share a slot).
    init?<P>(_ parameter: P) {
        guard let value = parameter as? AnyHashable else { return nil }
        self.value = value
        precomputedHash = value.hashValue
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(precomputedHash)
    }

    @usableFromInline
    static func == (lhs: ParameterKey, rhs: ParameterKey) -> Bool {
        lhs.precomputedHash == rhs.precomputedHash && lhs.value == rhs.value
    }
}

/// The cache slot of one parameter value; guarded by the lock of the cache that holds its table.
@usableFromInline
final class ParameterSlot: @unchecked Sendable {
    @exclusivity(unchecked) var slot: CacheSlot?
}

/// The slots of a `scopeOnParameters` factory, by parameter: never changed once made, so it is
/// looked up with no lock held. A cache adds a parameter by replacing its table with a larger
/// copy (made with no lock held, and swapped in under the lock only if the table is still the one
/// it copied), and drops its values by handing the whole table to be released after the lock.
final class ParameterTable: @unchecked Sendable {
    let slots: [ParameterKey: ParameterSlot]

    init(_ slots: [ParameterKey: ParameterSlot]) {
        self.slots = slots
    }

    /// Whether any slot holds a finished value.
    var isEmpty: Bool { slots.values.allSatisfy { $0.slot == nil } }
}

/// Which parameter slot a resolution uses, chosen with no lock held from the table its cache held
/// (`expected`): a slot of that table, or a new one in `replacement`, a copy of it. Under the lock,
/// the choice stands only if the cache still holds `expected`.
struct ParameterChoice {
    let expected: ParameterTable?
    let slot: ParameterSlot
    let replacement: ParameterTable?

    /// The slot of `key` in `table`, or a new table with a new slot for it. Runs with no lock
    /// held: hashing and comparing keys is user code.
    init(key: ParameterKey, in table: ParameterTable?) {
        expected = table
        if let found = table?.slots[key] {
            slot = found
            replacement = nil
        } else {
            let made = ParameterSlot()
            var slots = table?.slots ?? [:]
            slots[key] = made
            slot = made
            replacement = ParameterTable(slots)
        }
    }

    /// The slot to use in `group`, installing `replacement` first; `nil` when `group` no longer
    /// holds `expected` and the choice must be made again. Under the lock of `group`'s owner; the
    /// table it replaces goes to `dropped`, to be released after the lock.
    func slot(in group: inout SlotGroup, dropping dropped: inout [StoredValue]) -> ParameterSlot? {
        guard group.parameters === expected else { return nil }
        if let replacement {
            if let expected { dropped.append(.released(expected)) }
            group.parameters = replacement
        }
        return slot
    }
}

/// The parameter slot one `scopeOnParameters` resolution uses. Planning, under a lock, asks for
/// it (`slot(in:dropped:)`); when there is no choice yet, or the cache changed since it was made,
/// the resolver makes one with no lock held (`choose()`) and plans again.
@usableFromInline
final class ParameterLookup {
    let key: ParameterKey?
    private var choice: ParameterChoice?
    private var table: ParameterTable?
    private var mustChoose = false

    init(key: ParameterKey?) {
        self.key = key
    }

    /// Under the lock of `group`'s owner: the slot to use (`.some(nil)` for a parameter that is
    /// not `Hashable`, whose values share the group's own slot), or `nil` when a choice must be
    /// made first. A table this replaces goes to `dropped`.
    func slot(in group: inout SlotGroup, dropped: DroppedValues) -> ParameterSlot?? {
        guard key != nil else { return .some(nil) }
        var released: [StoredValue] = []
        if let choice, let slot = choice.slot(in: &group, dropping: &released) {
            dropped.keep(released)
            return .some(slot)
        }
        table = group.parameters
        // A stale choice may hold the last reference to a table a write drained (and its keys):
        // released after the lock, like everything else a section drops.
        dropped.keep(choice)
        choice = nil
        mustChoose = true
        return nil
    }

    /// Chooses the slot from the table planning saw; with no lock held.
    func choose() {
        guard mustChoose, let key else { return }
        choice = ParameterChoice(key: key, in: table)
        table = nil
        mustChoose = false
    }
}
