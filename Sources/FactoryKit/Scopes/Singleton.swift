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
        @usableFromInline let storage: Locked<[SingletonKey: SlotGroup]>

        /// Creates an empty singleton cache of its own.
        public override init() {
            storage = Locked([:])
            super.init(kind: .singleton)
        }

        /// Forgets every singleton this instance holds; the next resolution of each creates it anew.
        /// Instances already handed out are unaffected.
        public func reset() {
            storage.withLock { $0.removeAll() }
        }

        /// Returns a new singleton cache that starts with this one's current values.
        ///
        /// Values created in the clone afterwards stay in the clone. Creations still in flight are
        /// not copied.
        public func clone() -> Singleton {
            let copy = Singleton()
            let values = storage.withLock { $0.compactMapValues { group -> SlotGroup? in
                let settled = group.settled
                return settled.isEmpty ? nil : settled
            } }
            copy.storage.withLock { $0 = values }
            return copy
        }

        /// Drops one factory's values (every parameter variant).
        @usableFromInline
        func remove(_ key: SingletonKey) {
            storage.withLock { _ = $0.removeValue(forKey: key) }
        }
    }
}
