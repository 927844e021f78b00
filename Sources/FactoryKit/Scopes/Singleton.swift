import FactoryKitAtomics

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
            Singleton.populationChanged(by: 1)
        }

        // A record may still remember one of this cache's entries: mark them removed, so a cache
        // created later at this address is never taken for this one.
        deinit {
            storage.withLock { entries in
                for entry in entries.values { entry.isRemoved = true }
                Singleton.entryCount.add(-entries.count)
            }
            Singleton.populationChanged(by: -1)
        }

        /// The default value of `Scope.singleton`: the process's singletons unless a task binds
        /// another instance.
        ///
        /// In a factory's options it also stands for "the cache the resolving task is bound to":
        /// see `stored(_:)` and `forCaller`.
        @usableFromInline static let main: Singleton = {
            let main = Singleton(isMain: true)
            mainAddress.storeReleasing(UInt(bitPattern: ObjectIdentifier(main)))
            populationChanged(by: 0)
            return main
        }()

        /// `main`'s address once it exists, zero before.
        static var mainAddress: AtomicWord { ProcessWords.singletons + 2 }

        /// `main`'s address while it exists and is the only instance alive, zero otherwise: the
        /// one word `currentAddressIfMain` reads. Statically allocated, so reading it needs neither
        /// a lazy-initialization check nor a reference count.
        static var mainAddressWhileAlone: AtomicWord { ProcessWords.singletons + 3 }

        /// Serializes updates of `population` with `mainAddressWhileAlone`, so that the word
        /// never names `main` while another instance is alive.
        static let populationLock = Locked(())

        /// Counts an instance created (`1`) or gone (`-1`), or `main`'s creation (`0`).
        static func populationChanged(by delta: Int) {
            populationLock.withLock { _ in
                population.add(delta)
                let alone = population.value == 1 ? mainAddress.loadAcquiring() : 0
                mainAddressWhileAlone.storeReleasing(alone)
            }
        }

        /// The address of the instance `current` returns, when that is `main` and `main` exists:
        /// what the `.singleton` modifier compares with the factory's scope, without retaining
        /// anything. `nil` when it cannot tell that way.
        static var currentAddressIfMain: UInt? {
            let address = mainAddressWhileAlone.loadAcquiring()
            return address != 0 ? address : nil
        }

        /// How many `Singleton` instances are alive.
        static var population: AtomicCounter { AtomicCounter(ProcessWords.singletons) }

        /// The instance `Scope.singleton` returns for the current task, found without reading the
        /// task-local while `main` is the only instance alive: a task can only have bound a live
        /// instance, so then it is `main`. The `.singleton` modifier runs on every resolution, and
        /// the task-local read costs more than the rest of a singleton hit.
        @usableFromInline
        static var current: Singleton {
            let main = Singleton.main  // created before the count is read, so it is counted
            return population.value == 1 ? main : Scope.singleton
        }

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
        /// Whether resolutions use another instance than `self`: `self` is `main` and other
        /// instances are alive, so each task uses the one it is bound to (see `forCaller`).
        var isBoundPerTask: Bool { isMain && Singleton.population.value != 1 }

        var forCaller: Singleton {
            // While `main` is the only instance alive, every task is bound to it.
            isBoundPerTask ? Scope.singleton : self
        }

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
                Singleton.entryCount.add(-entries.count)
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
                Singleton.entryCount.add(entries.count)
            }
            return copy
        }

        /// Looks up a factory's value, reserving the slot if it must be created.
        ///
        /// `record` is the factory's record in the resolving container, whose lock the caller
        /// holds. In `main`, the record remembers the factory's entry (see
        /// `FactoryRecord.singletonEntry`), which saves the dictionary lookup while it still
        /// belongs to this cache and was not removed since.
        func lookup(
            _ key: SingletonKey, for record: FactoryRecord, parameter: AnyHashable?, timeToLive: UInt64?,
            reserve: () -> InFlight
        ) -> (SlotLookup, SingletonEntry) {
            storage.withLock { entries in
                let entry = self.entry(for: key, remembering: record, in: &entries)
                return (entry.group.lookup(parameter: parameter, timeToLive: timeToLive, reserve: reserve), entry)
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

        /// The box of the value `main` holds for the factory defined at `site`, if `record`
        /// remembers its entry and the entry is still current; `nil` sends the resolution down the
        /// full path of `lookup`. For a factory without `scopeOnParameters` or a time to live.
        @usableFromInline
        func plainHitBox(_ record: FactoryRecord, site: DefinitionSite) -> AnyObject? {
            guard isMain else { return nil }
            return storage.withSharedLock { Singleton.rememberedBox(record, site: site) }
        }

        /// The box of the value in the entry `record` remembers, if that entry is still current
        /// and holds the factory defined at `site`; under `main`'s lock. Retains only the box.
        @inline(__always)
        static func rememberedBox(_ record: FactoryRecord, site: DefinitionSite) -> AnyObject? {
            guard let memo = record.singletonEntry.map(Unmanaged.passUnretained) else { return nil }
            return memo._withUnsafeGuaranteedRef { memo in
                !memo.isRemoved && memo.key.site == site ? memo.group.strongValue : nil
            }
        }

        /// `plainHitBox`, for a resolution that has not taken its container's lock: it found the
        /// singleton-hit flag in the record's `plainWord` after `autoRegister()` had run `count`
        /// times (see `RecordDirectory.recordAfterAutoRegistration`).
        ///
        /// The hit stands only if, under this cache's lock, the flag is still set and the count
        /// has not moved: then the options in force at that moment ask for nothing but `main`'s
        /// value. A write to the options clears the flag under its container's lock; a write that
        /// drops the value (a `register`, a reset) marks the entry removed under this lock, so the
        /// section comes before it or misses. The box is retained while the entry holds it:
        /// nothing is released under the lock.
        ///
        /// Only while `main` is the only instance alive: a task can then only be bound to `main`.
        /// `main` lives as long as the process, so it is used through its address, without a
        /// lazy-initialization check or a reference count. Always inlined into the resolution's
        /// plan: called, it costs S2 714 instructions instead of 690.
        @inline(__always)
        static func hitWithoutContainerLock(
            _ record: FactoryRecord, directory: RecordDirectory, count: UInt, site: DefinitionSite
        ) -> AnyObject? {
            guard let main = currentAddressIfMain.flatMap(UnsafeRawPointer.init(bitPattern:)) else { return nil }
            return Unmanaged<Singleton>.fromOpaque(main)._withUnsafeGuaranteedRef { main in
                main.storage.withSharedLock { () -> AnyObject? in
                    // The words first: the box is retained only once the hit stands.
                    guard record.plainWord.loadAcquiring() & FactoryRecord.singletonHitFlag != 0,
                        directory.isStillAutoRegistered(since: count)
                    else { return nil }
                    return rememberedBox(record, site: site)
                }
            }
        }

        @usableFromInline
        func entry(for key: SingletonKey, in entries: inout [SingletonKey: SingletonEntry]) -> SingletonEntry {
            if let existing = entries[key] { return existing }
            let entry = SingletonEntry(key: key, owner: ObjectIdentifier(self))
            entries[key] = entry
            Singleton.entryCount.add(1)
            return entry
        }

        /// Publishes a value created for `entry`.
        func publish(
            _ stored: StoredValue?, in entry: SingletonEntry, parameter: AnyHashable?, for flight: InFlight,
            timestamp: UInt64
        ) {
            storage.withLock { _ in
                entry.group.publish(stored, parameter: parameter, for: flight, timestamp: timestamp)
            }
        }

        /// The asynchronous counterpart of `lookup`.
        @usableFromInline
        func lookupAsync(
            _ key: SingletonKey, for record: FactoryRecord, parameter: AnyHashable?, timeToLive: UInt64?,
            reserve: () -> AsyncFlightBase
        ) -> (AsyncSlotLookup, SingletonEntry) {
            storage.withLock { entries in
                let entry = self.entry(for: key, remembering: record, in: &entries)
                return (entry.group.lookupAsync(parameter: parameter, timeToLive: timeToLive, reserve: reserve), entry)
            }
        }

        /// Publishes (or drops) the outcome of an asynchronous creation for `entry`.
        @usableFromInline
        func publishAsync(
            _ stored: StoredValue?, in entry: SingletonEntry, parameter: AnyHashable?, for flight: AsyncFlightBase,
            timestamp: UInt64
        ) {
            storage.withLock { _ in
                entry.group.publishAsync(stored, parameter: parameter, for: flight, timestamp: timestamp)
            }
        }

        /// How many entries all singleton caches hold together: while there are none, `register`
        /// and resets, which drop a factory's singleton whatever its scope, skip the lookup. Changed
        /// under the lock of the cache that changes; a thread that resolved a singleton (or
        /// synchronized with one that did) reads its entry counted.
        static var entryCount: AtomicCounter { AtomicCounter(ProcessWords.singletons + 1) }

        /// Drops one factory's values (every parameter variant).
        @usableFromInline
        @discardableResult
        func remove(_ key: SingletonKey) -> [StoredValue] {
            storage.withLock { entries in
                guard let entry = entries.removeValue(forKey: key) else { return [] }
                Singleton.entryCount.add(-1)
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
