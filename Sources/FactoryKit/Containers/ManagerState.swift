/// Whether a container's `autoRegister()` has run.
@usableFromInline
enum AutoRegistrationPhase {
    case pending
    case running(InFlight)
    case done
}

/// Everything a `ContainerManager` guards with its lock.
@usableFromInline
struct ManagerState {
    @usableFromInline var records: [FactoryKey: FactoryRecord] = [:]
    /// Whether this is a subtree's child, which reads through to its parent (`ContainerManager.parent`).
    var isChild = false
    /// Whether SwiftUI ever routed this manager to a subtree's child (see `ManagerRoutes`).
    var isRouted = false
    /// The records most lookups find without hashing a name.
    var shortcuts = RecordShortcuts()
    @usableFromInline var autoRegistration = AutoRegistrationPhase.pending {
        didSet {
            if case .done = autoRegistration { isAutoRegistered = true } else { isAutoRegistered = false }
        }
    }
    /// Whether `autoRegistration` is `.done`: the one check every locked operation makes.
    @usableFromInline private(set) var isAutoRegistered = false
    // Every record's frozen resolution options include these two.
    @usableFromInline var defaultScope: Scope? {
        willSet { dropped.keep(defaultScope) }
        didSet { invalidateResolutions() }
    }
    @usableFromInline var decorator: ((Any) -> Void)? {
        willSet { dropped.keep(decorator) }
        didSet { invalidateResolutions() }
    }
    @usableFromInline var promiseTriggersError = FactoryContext.promiseTriggersErrorByDefault
    /// What writes took out of the container, released once the lock is given up: releasing a
    /// value may run its `deinit`, which may use this container.
    @usableFromInline let dropped = DroppedValues()
    var snapshots: [Snapshot] = []
    /// Factories already warned about a registration hidden by a context override.
    var shadowedRegistrationsWarned: Set<FactoryKey> = []

    /// What `push()` saves and `pop()` restores.
    struct Snapshot {
        let records: [FactoryKey: (options: FactoryRecord.Options, cache: SlotGroup, cacheScope: ObjectIdentifier?)]
        let autoRegistrationDone: Bool
        let defaultScope: Scope?
        let decorator: ((Any) -> Void)?
        let promiseTriggersError: Bool
    }

    @usableFromInline
    init() {
        // Room for a typical container's factories, so the first registrations do not rehash.
        records = Dictionary(minimumCapacity: 16)
    }

    /// Keeps `values`, dropped from a cache, until the write unlocks (see `dropped`).
    @usableFromInline
    func release(_ values: [StoredValue]) {
        dropped.keep(values)
    }

    /// Empties `record`'s cache, keeping its values until the write unlocks.
    @usableFromInline
    func releaseCache(of record: FactoryRecord) {
        if !record.cache.isEmpty { release(record.cache.drain()) }
    }

    @usableFromInline
    var isAutoRegistering: Bool {
        if case .running = autoRegistration { return true }
        return false
    }

    func invalidateResolutions() {
        for record in records.values { record.invalidateResolution() }
    }

    /// The record of `key`, created on first use.
    @usableFromInline
    mutating func record(for key: FactoryKey) -> FactoryRecord {
        if let record = shortcuts.record(for: key) { return record }
        // Through the defaulting subscript's modify accessor: one hash lookup finds the record
        // or inserts a new one.
        let record = Self.identity(&records[key, default: FactoryRecord(key: key, dropped: dropped)])
        shortcuts.remember(record)
        return record
    }

    /// Runs `body` on the record of `key`, created on first use.
    mutating func withRecord<Result>(for key: FactoryKey, _ body: (FactoryRecord, inout ManagerState) -> Result)
        -> Result
    {
        let record = record(for: key)
        return body(record, &self)
    }

    private static func identity(_ record: inout FactoryRecord) -> FactoryRecord { record }

    /// The record of `key` if it has one, without creating it.
    func existingRecord(for key: FactoryKey) -> FactoryRecord? {
        shortcuts.record(for: key) ?? records[key]
    }
}
