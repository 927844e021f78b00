extension Scope {
    /// Keeps one value per factory for the whole process, whichever container resolves it.
    ///
    /// Singletons belong to the `Singleton` instance, not to a container, so container resets,
    /// `push()` and `pop()` leave them alone. Clear them with `Scope.singleton.reset()`, or give a
    /// test its own with `Scope.$singleton.withValue(Scope.singleton.clone()) { ... }` (the
    /// `.container` test trait does this).
    ///
    /// One definition gives one singleton, even when it lives in a `SharedContainer` extension and
    /// is resolved from several container types; two definitions that merely share a name and
    /// type on different containers get one each.
    public final class Singleton: Scope, @unchecked Sendable {
        @usableFromInline let storage: Locked<[SingletonKey: SingletonEntry]>

        /// Whether this is `main`, the process's own cache.
        let isMain: Bool

        /// Creates an empty singleton cache of its own.
        public override convenience init() {
            self.init(isMain: false)
        }

        init(isMain: Bool) {
            self.isMain = isMain
            storage = Locked([:])
            super.init(kind: .singleton)
        }

        // A record may still remember one of this cache's entries: mark them removed, so a cache
        // created later at this address is never taken for this one.
        deinit {
            storage.withLock { entries in
                for entry in entries.values { entry.isRemoved = true }
            }
        }

        /// The default value of `Scope.singleton`: the process's singletons unless a task binds
        /// another instance.
        ///
        /// In a factory's options it also stands for "the cache the resolving task is bound to":
        /// see `stored(_:)` and `forCaller`.
        @usableFromInline static let main = Singleton(isMain: true)

        /// The instance `Scope.singleton` returns for the current task.
        @usableFromInline
        static var current: Singleton { Scope.singleton }

        /// How a factory's options keep `scope`: the cache the writing task is bound to
        /// (`Scope.singleton`, what `.singleton` and `.scope(.singleton)` pass) is kept as `main`,
        /// which resolutions read as their own task's cache (`forCaller`). Any other instance is
        /// kept as it is and used by every resolution.
        ///
        /// So tasks bound to different caches that share a container each get their own
        /// singletons, whichever of them applied the modifier last.
        static func stored(_ scope: Scope) -> Scope {
            guard scope.kind == .singleton, !unsafeDowncast(scope, to: Singleton.self).isMain else { return scope }
            return scope === current ? main : scope
        }

        /// The cache a resolution uses when the options hold `self`: the resolving task's own
        /// (`Scope.singleton`) when `self` is `main`, see `stored(_:)`; otherwise `self`.
        var forCaller: Singleton { isMain ? Scope.singleton : self }

        /// Forgets every singleton this instance holds; the next resolution of each creates it anew.
        /// Instances already handed out are unaffected.
        ///
        /// Singletons that conform to ``Shutdownable`` are shut down in a task of their own, newest
        /// first, each once.
        public func reset() {
            // The entries leave the cache under its lock; their values are released (and shut
            // down) once it is given up.
            var removed: [SingletonKey: SingletonEntry] = [:]
            let dropped = storage.withLock { entries -> [StoredValue] in
                var dropped: [StoredValue] = []
                for entry in entries.values {
                    entry.isRemoved = true
                    dropped += entry.group.drain()
                }
                swap(&removed, &entries)
                return dropped
            }
            withExtendedLifetime(removed) {}
            ScopedShutdown.schedule(dropped)
        }

        /// Returns a new singleton cache that starts with this one's current values.
        ///
        /// Values created in the clone afterwards stay in the clone. Creations still in flight are
        /// not copied.
        public func clone() -> Singleton {
            let copy = Singleton()
            let owner = ObjectIdentifier(copy)
            let groups = storage.withLock { entries in entries.mapValues(\.group.settled) }
            copy.storage.withLock { entries in
                for (key, group) in groups where !group.isEmpty {
                    let entry = SingletonEntry(key: key, owner: owner)
                    entry.group = group
                    entries[key] = entry
                }
            }
            return copy
        }

        /// Looks up a factory's value, reserving the slot if it must be created.
        ///
        /// `record` is the factory's record in the resolving container, whose lock the caller
        /// holds. In `main`, the record remembers the factory's entry (see
        /// `FactoryRecord.singletonEntry`), which saves the dictionary lookup while it still
        /// belongs to this cache and was not removed since.
        func lookup<Reservation>(
            _ key: SingletonKey, for record: FactoryRecord, parameters: ParameterLookup?, dropped: DroppedValues,
            timeToLive: UInt64?, reserve: () -> Reservation
        ) -> (SlotLookup<Reservation>, SingletonEntry, ParameterSlot?)? {
            storage.withLock { entries in
                let entry = self.entry(for: key, remembering: record, in: &entries)
                var slot: ParameterSlot?
                if let parameters {
                    guard let chosen = parameters.slot(in: &entry.group, dropped: dropped) else { return nil }
                    slot = chosen
                }
                return (entry.group.lookup(parameter: slot, timeToLive: timeToLive, reserve: reserve), entry, slot)
            }
        }

        /// The entry of the factory `key` names, created if missing; under the lock. In `main`,
        /// the one `record` remembers if it is still current, and remembered otherwise.
        func entry(
            for key: SingletonKey, remembering record: FactoryRecord, in entries: inout [SingletonKey: SingletonEntry]
        ) -> SingletonEntry {
            guard isMain else { return entry(for: key, in: &entries) }
            if let memo = record.singletonEntry, !memo.isRemoved, memo.key == key { return memo }
            let entry = entry(for: key, in: &entries)
            record.singletonEntry = entry
            return entry
        }

        /// The box of the value this cache holds strongly for `key`, if any; `record` is the
        /// factory's record, whose manager's lock the caller holds. Retains only the box.
        func hitBox(_ record: FactoryRecord, key: SingletonKey) -> AnyObject? {
            storage.withLock { entries in
                if isMain, let memo = record.singletonEntry, !memo.isRemoved, memo.key == key {
                    return memo.group.strongValue
                }
                guard let entry = entries[key] else { return nil }
                if isMain { record.singletonEntry = entry }
                return entry.group.strongValue
            }
        }

        @usableFromInline
        func entry(for key: SingletonKey, in entries: inout [SingletonKey: SingletonEntry]) -> SingletonEntry {
            if let existing = entries[key] { return existing }
            let entry = SingletonEntry(key: key, owner: ObjectIdentifier(self))
            entries[key] = entry
            return entry
        }

        /// Publishes (or, with `nil`, drops) a value created for `entry`.
        func publish(
            _ stored: StoredValue?, in entry: SingletonEntry, parameter: ParameterSlot?, for flight: Flight,
            timestamp: UInt64
        ) {
            storage.withLock { _ in
                entry.group.publish(stored, parameter: parameter, for: flight, timestamp: timestamp)
            }
        }

        /// Drops one factory's values (every parameter variant).
        @usableFromInline
        @discardableResult
        func remove(_ key: SingletonKey) -> [StoredValue] {
            storage.withLock { entries in
                guard let entry = entries.removeValue(forKey: key) else { return [] }
                entry.isRemoved = true
                return entry.group.drain()
            }
        }
    }
}

/// One factory's values in a `Scope.Singleton`; guarded by that singleton's lock (hence no
/// dynamic exclusivity checks).
@usableFromInline
final class SingletonEntry {
    @usableFromInline let key: SingletonKey
    @usableFromInline let owner: ObjectIdentifier
    @usableFromInline @exclusivity(unchecked) var group = SlotGroup()
    /// Set when the entry leaves its cache (a reset), so shortcuts to it are not trusted.
    @usableFromInline @exclusivity(unchecked) var isRemoved = false

    @usableFromInline
    init(key: SingletonKey, owner: ObjectIdentifier) {
        self.key = key
        self.owner = owner
    }
}
