/// What modifiers need to know of a factory, synchronous or asynchronous: its key, definition site,
/// container and `once` flag. The writes to its record live here, once for both kinds.
@usableFromInline
protocol FactoryIdentity {
    var key: FactoryKey { get }
    var site: DefinitionSite { get }
    var container: any ManagedContainer { get }
    var once: Bool { get }
}

extension FactoryIdentity {
    var singletonKey: SingletonKey { SingletonKey(factory: key, site: site) }

    /// Applies a modifier's change to the factory's record, unless `once` blocks it: after
    /// `.once()`, only Factory values whose flag matches the stored one may change the options.
    ///
    /// What the change drops (a replaced closure, cached values) is released after the lock, on
    /// this thread, since a `deinit` may use the container (see `DroppedValues`).
    @usableFromInline
    func write(_ change: (FactoryRecord, inout ManagerState) -> Void) {
        let container = self.container
        container.manager.withState(of: container) { state in
            state.withRecord(for: key) { record, state in
                if record.hasOptions && record.once != once { return }
                change(record, &state)
                if !record.hasOptions { record.hasOptions = true }
            }
        }
    }

    /// Stores a registration and invalidates the values cached for this factory, whatever its
    /// scope, so the next resolution uses it. Inside `autoRegister()` nothing is invalidated.
    @usableFromInline
    func register(_ box: AnyObject, validator: (any FactoryValidating.Type)? = nil) {
        write { record, state in store(box, validator: validator, in: record, state: &state) }
    }

    /// Registers `box` like ``register(_:validator:)`` and returns the registration it replaced,
    /// so that ``restoreRegistration(_:ifCurrent:)`` can put it back. Returns `nil` when `once`
    /// blocked the write, so there is nothing to undo.
    func registerReplacing(_ box: AnyObject, validator: (any FactoryValidating.Type)?) -> ReplacedRegistration? {
        var replaced: ReplacedRegistration?
        write { record, state in
            replaced = ReplacedRegistration(
                registration: record.registration, validator: record.validator, validatorSite: record.validatorSite)
            store(box, validator: validator, in: record, state: &state)
        }
        return replaced
    }

    /// Puts back the registration that `box` replaced, if `box` is still the factory's
    /// registration: a later registration, or a reset, wins over the undo. Invalidates cached
    /// values as registering does.
    func restoreRegistration(_ replaced: ReplacedRegistration, ifCurrent box: AnyObject) {
        write { record, state in
            guard record.registration === box else { return }
            replaceRegistration(with: replaced.registration, in: record, &state)
            record.validator = replaced.validator
            record.validatorSite = replaced.validatorSite
            invalidateForRegistration(record, in: &state)
        }
    }

    /// Writes a registration and drops what the factory's scopes cache, so the next resolution
    /// uses it. (`register` does only this, without remembering what it replaced: registering is
    /// what a new container does for each override, and S9 measures it.)
    private func store(
        _ box: AnyObject, validator: (any FactoryValidating.Type)?, in record: FactoryRecord, state: inout ManagerState
    ) {
        replaceRegistration(with: box, in: record, &state)
        record.validator = validator
        record.validatorSite = site
        invalidateForRegistration(record, in: &state)
    }

    /// Sets the record's registration. The box it replaces, and the frozen options that share
    /// it, are released after the lock (the record hands them to `state.dropped`): the closure's
    /// captured values may run a `deinit` that uses the container.
    private func replaceRegistration(with box: AnyObject?, in record: FactoryRecord, _ state: inout ManagerState) {
        record.registration = box
        record.resolution = nil
    }

    /// Drops what the factory's scopes cache, so the next resolution uses the registration just
    /// written; inside `autoRegister()` nothing is dropped.
    private func invalidateForRegistration(_ record: FactoryRecord, in state: inout ManagerState) {
        guard !state.isAutoRegistering else { return }
        state.releaseCache(of: record)
        state.release(removeSingleton(of: record, in: state))
    }

    /// Removes this factory's singleton from the cache that holds it: its explicit `Singleton`
    /// instance, else the caller's `Scope.singleton`. Nothing to do while no singleton cache holds
    /// any entry. Under the manager's lock, before the options are cleared.
    ///
    /// `register` and resets drop the singleton whatever scope the options name at that instant:
    /// a container reset on another thread may clear them between the definition re-applying
    /// `.singleton` and the write, and the value would then outlive the registration or reset
    /// that should drop it. A factory that was never a singleton has nothing there to drop.
    func removeSingleton(of record: FactoryRecord?, in state: ManagerState) -> [StoredValue] {
        guard let scope = record?.scope ?? state.defaultScope, scope.kind == .singleton else {
            return Scope.Singleton.current.remove(singletonKey)
        }
        return unsafeDowncast(scope, to: Scope.Singleton.self).forCaller.remove(singletonKey)
    }

    /// Sets the explicit scope; re-applying the scope in force, which a definition does on every
    /// access, writes nothing.
    func setScope(_ scope: Scope) {
        ScopeWrite.set(scope, container: container, key: key, site: site, once: once)
    }

    /// Sets the task's current singleton scope; see `ScopeWrite.setSingleton`.
    func setSingletonScope() {
        ScopeWrite.setSingleton(container: container, key: key, site: site, once: once)
    }

    /// Stores the override `makeBox()` boxes in each of `contexts`; `makeBox` also returns the
    /// closure the box runs, as the modifier received it, whose words are `words`.
    ///
    /// When every one of them holds that closure already (a definition re-applying its
    /// override), nothing is written and no box is made: the options, and what resolutions
    /// derived from them, stay as they are. The modifier reads the words in the caller's own
    /// code: passed on as a generic value, a closure would be wrapped anew on every call.
    @usableFromInline
    func setOverride(
        words: ClosureWords?, in contexts: [FactoryContextType], makeBox: () -> (box: AnyObject, closure: Any)
    ) {
        if contexts.count == 1, let key = ContextKey.singleKey(for: contexts[0]) {
            return setOverride(words: words, for: key, makeBox: makeBox)
        }
        let keys = ContextKey.keys(for: contexts)
        guard !keys.isEmpty else { return }
        if let words, isStoredAlready({ record in keys.allSatisfy { record.contexts?.holds(words, for: $0) ?? false } })
        {
            return
        }
        write { record, state in
            if let overrides = record.contexts, keys.allSatisfy({ overrides.holds(words, for: $0) }) { return }
            let (box, closure) = makeBox()
            store(box, words: words, closure: closure, for: keys, in: record, &state)
        }
    }

    /// `setOverride` for a context with one key, which needs no array.
    @usableFromInline
    func setOverride(words: ClosureWords?, for key: ContextKey, makeBox: () -> (box: AnyObject, closure: Any)) {
        if OverrideWrite.isStored(words, for: key, container: container, factory: self.key, once: once) { return }
        storeOverride(words: words, for: key, makeBox: makeBox)
    }

    /// The write of `setOverride(words:for:makeBox:)`, once its check found something to store.
    @usableFromInline
    func storeOverride(words: ClosureWords?, for key: ContextKey, makeBox: () -> (box: AnyObject, closure: Any)) {
        write { record, state in
            if let overrides = record.contexts, overrides.holds(words, for: key) { return }
            let (box, closure) = makeBox()
            store(box, words: words, closure: closure, for: [key], in: record, &state)
        }
    }

    /// Whether a write would change nothing: the factory's record satisfies `isStored` (it holds
    /// what the write would store) or `once()` blocks the write. Looks under the lock, without
    /// creating a record or running `autoRegister()`, which makes it cheaper than the write it
    /// saves, a definition re-applying its modifiers on every access; `false` when it cannot tell.
    func isStoredAlready(_ isStored: (FactoryRecord) -> Bool) -> Bool {
        container.manager.withState { state in
            guard state.isAutoRegistered, let record = state.existingRecord(for: key) else { return false }
            return (record.hasOptions && record.once != once) || isStored(record)
        }
    }

    /// Stores `box`, which runs `closure`, for each of `keys`. The boxes it replaces are released
    /// after the lock: a closure's captured values may run a `deinit`.
    @usableFromInline
    func store(
        _ box: AnyObject, words: ClosureWords?, closure: Any, for keys: [ContextKey], in record: FactoryRecord,
        _ state: inout ManagerState
    ) {
        var overrides = record.contexts ?? ContextOverrides()
        var replaced: [AnyObject] = []
        for key in keys {
            let replacedBox = overrides.set(
                box, words: words, closure: closure, for: key, registration: record.registrationSerial,
                isOnce: record.once)
            if let replacedBox { replaced.append(replacedBox) }
        }
        // The replaced boxes, and the frozen options sharing them, are released after the lock.
        state.dropped.keep(replaced)
        record.contexts = overrides
        record.resolution = nil
    }

    /// Sets the sliding time to live, in seconds; zero or less expires values at once. The same
    /// time to live again changes nothing.
    func setTimeToLive(_ seconds: Double) {
        let nanoseconds = seconds <= 0 ? 0 : UInt64(min(seconds * 1e9, Double(UInt64.max / 2)))
        if isStoredAlready({ $0.timeToLive == nanoseconds }) { return }
        write { record, _ in
            if record.timeToLive != nanoseconds { record.timeToLive = nanoseconds }
        }
    }

    /// Stores the decorator `makeBox` boxes, whose closure's words are `words`, replacing any
    /// earlier one; nothing changes when the stored one runs that closure already (a definition
    /// re-applying it). The box replaced is released after the lock: the closure's captured
    /// values may run a `deinit`.
    @usableFromInline
    func setDecorator<T>(words: ClosureWords?, result: T.Type, makeBox: (_ words: ClosureWords?) -> DecoratorBox<T>) {
        if let words,
            isStoredAlready({
                $0.decorator.map { unsafeDowncast($0, to: DecoratorBox<T>.self).words == words } ?? false
            })
        {
            return
        }
        write { record, state in
            if let words, let stored = record.decorator,
                unsafeDowncast(stored, to: DecoratorBox<T>.self).words == words
            {
                return
            }
            record.decorator = makeBox(words)
        }
    }

    /// Marks the stored options `once`; see ``FactoryModifying/once()``.
    func markOnce() {
        write { record, _ in
            if !record.once { record.once = true }
        }
    }

    /// Keeps one scoped value per parameter from now on, dropping values kept until now.
    func setScopeOnParameters() {
        write { record, state in
            guard !record.scopeOnParameters else { return }
            record.scopeOnParameters = true
            state.releaseCache(of: record)
        }
    }

    /// Resets what was stored for this factory; see ``FactoryModifying/reset(_:)``.
    @usableFromInline
    func reset(_ resetOptions: FactoryResetOptions) {
        let dropped = container.manager.withState { state -> [StoredValue] in
            // Even without a record here: the singleton may hold a value of this definition made
            // through another container.
            let record = state.existingRecord(for: key)
            switch resetOptions {
            case .all:
                let singleton = removeSingleton(of: record, in: state)
                record?.clearOptions()  // the closures go to `state.dropped`
                return singleton + (record?.cache.drain() ?? [])
            case .scope:
                return removeSingleton(of: record, in: state) + (record?.cache.drain() ?? [])
            case .registration:
                record?.registration = nil
            case .context:
                record?.contexts = nil
            case .none:
                break
            }
            return []
        }
        ScopedShutdown.schedule(dropped)
    }
}

/// A factory's registration as it was before ``FactoryIdentity/registerReplacing(_:validator:)``
/// replaced it: the closure box (`nil` for none) and what validation knows of it.
struct ReplacedRegistration: @unchecked Sendable {
    // The box holds a closure that was registered from any thread; it is only handed back to the
    // record, under the manager's lock, never called here.
    let registration: AnyObject?
    let validator: (any FactoryValidating.Type)?
    let validatorSite: DefinitionSite?
}

/// What a scope modifier writes, without the factory's types: a definition re-applies its scope on
/// every access, so this is one call into FactoryKit's own code and one trip through the lock.
@usableFromInline
enum ScopeWrite {
    /// Sets the explicit scope of the factory keyed `key`, unless it is set already or `once()`
    /// blocks the write.
    @usableFromInline
    static func set(_ scope: Scope, container: any ManagedContainer, key: FactoryKey, site: DefinitionSite, once: Bool)
    {
        let scope = Scope.Singleton.stored(scope)
        container.manager.withState(of: container) { state in
            let record = state.record(for: key)
            guard record.scope !== scope, !(record.hasOptions && record.once != once) else { return }
            change(record, to: scope, singletonKey: SingletonKey(factory: key, site: site), in: &state)
            if !record.hasOptions { record.hasOptions = true }
        }
    }

    /// Sets the task's current singleton scope, which options keep as `Scope.Singleton.main` (see
    /// `Scope.Singleton.stored`). A definition re-applies it on every access: when the record
    /// holds `main` already, nothing else is read.
    @usableFromInline
    static func setSingleton(container: any ManagedContainer, key: FactoryKey, site: DefinitionSite, once: Bool) {
        let unchanged = container.manager.withState(of: container) { state in
            let record = state.record(for: key)
            if record.hasOptions && record.once != once { return true }
            guard let scope = record.scope, scope.kind == .singleton else { return false }
            return unsafeDowncast(scope, to: Scope.Singleton.self).isMain
        }
        if !unchanged { set(Scope.Singleton.main, container: container, key: key, site: site, once: once) }
    }

    /// Moves the factory to another scope, dropping what the previous scope held for it. Naming
    /// the scope that was already in force (the container's `defaultScope`) drops nothing.
    ///
    /// Moving between two `Singleton` instances keeps both caches: each is a separate set of
    /// singletons, not a previous scope.
    static func change(
        _ record: FactoryRecord, to scope: Scope, singletonKey: SingletonKey, in state: inout ManagerState
    ) {
        let previous = record.scope ?? state.defaultScope
        record.scope = scope
        guard previous !== scope else { return }
        state.releaseCache(of: record)
        if let singleton = previous as? Scope.Singleton, !(scope is Scope.Singleton) {
            state.release(singleton.forCaller.remove(singletonKey))
        }
    }
}

/// The check of an override modifier, which a definition's `.onArg("x") { }` runs on every
/// access: not generic, so it is compiled once, and given the factory's fields rather than
/// reading them through `FactoryIdentity`'s witnesses (S10: 1,507 -> 1,226 instructions).
@usableFromInline
enum OverrideWrite {
    /// Whether the record of `factory` holds the closure whose words are `words` for `contextKey`
    /// already, or `once()` blocks the write: `isStoredAlready` for one context, written out
    /// without a closure. Under the lock, without creating a record or running `autoRegister()`.
    @usableFromInline
    static func isStored(
        _ words: ClosureWords?, for contextKey: ContextKey, container: any ManagedContainer, factory: FactoryKey,
        once: Bool
    ) -> Bool {
        guard let words else { return false }
        return container.manager.withState { state in
            guard state.isAutoRegistered, let record = state.existingRecord(for: factory) else { return false }
            return (record.hasOptions && record.once != once) || record.contexts?.holds(words, for: contextKey) ?? false
        }
    }
}

extension FactoryRegistration {
    /// `FactoryIdentity.setOverride(words:for:makeBox:)`, with the registration's fields read
    /// directly: the check runs on every access of a definition with an override.
    @inlinable
    func setOverride(words: ClosureWords?, for key: ContextKey, makeBox: () -> (box: AnyObject, closure: Any)) {
        if OverrideWrite.isStored(words, for: key, container: container, factory: self.key, once: once) { return }
        storeOverride(words: words, for: key, makeBox: makeBox)
    }

    /// `FactoryIdentity.setScope`, with the registration's fields read directly.
    @inlinable
    func setScope(_ scope: Scope) {
        ScopeWrite.set(scope, container: container, key: key, site: site, once: once)
    }

    /// `FactoryIdentity.setSingletonScope`, with the registration's fields read directly.
    @inlinable
    func setSingletonScope() {
        ScopeWrite.setSingleton(container: container, key: key, site: site, once: once)
    }
}
