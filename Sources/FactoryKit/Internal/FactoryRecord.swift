import FactoryKitAtomics

/// What a container stores for one factory: the options modifiers and `register` write, the
/// values of the scopes the container owns, and a shortcut to the factory's singleton entry.
///
/// Records are guarded by their manager's lock and never removed: resets clear their fields. So
/// a record found once stays valid, which is what lets `RecentRecords` hand it out without a
/// dictionary lookup.
///
/// Its fields opt out of dynamic exclusivity checks: every access happens under the manager's
/// lock, and the checks cost more than the rest of a cache hit.
@usableFromInline
final class FactoryRecord {
    // The first stored properties, in this order, read and written only through `published` and
    // `scopeWord`.
    private var publishedStorage = fk_word()
    private var scopeWordStorage = fk_word()

    @usableFromInline let key: FactoryKey

    /// Whether any option was written since the last reset (what `once()` compares against).
    @usableFromInline @exclusivity(unchecked) var hasOptions = false { didSet { publishScopeWord() } }
    // Each write to an option a resolution reads makes `resolution` stale.
    @usableFromInline @exclusivity(unchecked) var registration: AnyObject? { didSet { isResolutionCurrent = false } }
    @usableFromInline @exclusivity(unchecked) var contexts: ContextOverrides? {
        didSet { isResolutionCurrent = false }
    }
    @usableFromInline @exclusivity(unchecked) var scope: Scope? {
        didSet {
            isResolutionCurrent = false
            publishScopeWord()
        }
    }
    @usableFromInline @exclusivity(unchecked) var scopeOnParameters = false { didSet { isResolutionCurrent = false } }
    @usableFromInline @exclusivity(unchecked) var timeToLive: UInt64? { didSet { isResolutionCurrent = false } }
    /// Read by each resolution itself rather than frozen: a definition's `.decorator { }` stores a
    /// new closure on every access, so only a change to or from `nil` makes `resolution` stale.
    @usableFromInline @exclusivity(unchecked) var decorator: AnyObject? {
        didSet { if (oldValue == nil) != (decorator == nil) { isResolutionCurrent = false } }
    }
    @usableFromInline @exclusivity(unchecked) var once = false { didSet { publishScopeWord() } }

    /// `hasOptions`, `once` and the explicit scope's address in one word, which scope modifiers
    /// read without the lock to see that re-applying the definition's scope changes nothing
    /// (what a definition does on every access). Zero until an option is written.
    @inlinable @inline(__always)
    var scopeWord: AtomicWord { published + 1 }

    /// What a synchronous resolution reads of the options above and the manager's default scope
    /// and decorator, frozen into one object; `nil` when there is nothing to read (a unique factory
    /// without registration, override or decorator). Rebuilt under the lock when stale.
    @usableFromInline @exclusivity(unchecked) var resolution: ResolutionOptions?
    /// Every write that makes `resolution` stale also withdraws the published hit.
    @usableFromInline @exclusivity(unchecked) var isResolutionCurrent = false {
        didSet { if !isResolutionCurrent { withdrawPublishedHit() } }
    }

    /// Values of `cached`, `shared` and custom scopes, and which scope instance made them.
    /// Every change to the values, or to which scope made them, withdraws a published hit on them.
    @usableFromInline @exclusivity(unchecked) var cache = SlotGroup() { didSet { withdrawPublishedHit() } }
    @usableFromInline @exclusivity(unchecked) var cacheScope: ObjectIdentifier? {
        didSet { withdrawPublishedHit() }
    }

    /// How `validate` resolves the registered factory, which it cannot name otherwise: a type, so
    /// remembering it allocates nothing.
    @usableFromInline @exclusivity(unchecked) var validator: (any FactoryValidating.Type)?
    /// Where the registered factory was defined, for `validator`.
    @usableFromInline @exclusivity(unchecked) var validatorSite: DefinitionSite?

    /// The factory's entry in the singleton cache it last used; checked before use.
    @usableFromInline @exclusivity(unchecked) var singletonEntry: SingletonEntry? {
        didSet { if singletonEntry !== oldValue { withdrawPublishedHit() } }
    }

    /// What a resolution may do without the lock, as published under it by the last resolution
    /// that took it; withdrawn by every write that could change the answer (an option, the
    /// manager's default scope or decorator, the cached values or the scope that made them,
    /// the remembered singleton entry):
    ///
    /// - `0`: nothing; take the lock.
    /// - ``publishedPlain``: the factory has no options at all (no registration, override,
    ///   scope or decorator); run the definition's closure.
    /// - otherwise the address of a `SingletonEntry`, retained, whose published box held a
    ///   plain hit (no decorator, no slot per parameter, no time to live); return its value.
    ///   For a singleton that is the singleton's entry; for a value of the container's cache,
    ///   an entry made to carry it (see `publishCachedHit`).
    @inlinable @inline(__always)
    var published: AtomicWord { AtomicWord(firstStoredPropertiesOf: self) }

    // Records die with their manager, and readers hold the manager, so none is left.
    deinit {
        FactoryRecord.entry(publishedAs: published.loadAcquiring())?.release()
    }

    /// The published word of a factory without options. Objects are aligned, so no entry's
    /// address is 1.
    @inlinable static var publishedPlain: UInt { 1 }

    /// The entry a published word holds, if it holds one (it is neither zero nor
    /// `publishedPlain`).
    @inlinable @inline(__always)
    static func entry(publishedAs word: UInt) -> Unmanaged<SingletonEntry>? {
        guard word != publishedPlain, let entry = UnsafeRawPointer(bitPattern: word) else { return nil }
        return Unmanaged.fromOpaque(entry)
    }

    @usableFromInline
    init(key: FactoryKey) {
        self.key = key
    }

    /// What is published, read without ordering: compare it with `publishedPlain` to run the
    /// closure, and call `publishedHit` when it is larger.
    @inlinable @inline(__always)
    var publishedWord: UInt { published.loadRelaxed() }

    /// The value a resolution of the factory defined at `site` may return without the lock, if a
    /// hit is published: the published entry's box, read in a `LockFreeReads` section. `nil`
    /// means take the lock. Needs `Diagnostics.isObserving` to be false: a hit returned here is
    /// not traced.
    @inlinable @inline(__always)
    func publishedHit<T>(site: DefinitionSite, as type: T.Type) -> T? {
        // The record's key names the result type, so the box holds a `T`.
        withPublishedBox(site: site) { Unmanaged<ValueBox<T>>.fromOpaque($0)._withUnsafeGuaranteedRef { $0.value } }
    }

    /// `publishedHit`, returning the value's box; for code not specialized for the value's type.
    @usableFromInline
    func publishedBox(site: DefinitionSite) -> AnyObject? {
        withPublishedBox(site: site) { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Runs `read` on the published box, inside a `LockFreeReads` section, if there is one for the
    /// factory defined at `site`. `read` must copy out what it keeps.
    @inlinable @inline(__always)
    func withPublishedBox<Result>(site: DefinitionSite, _ read: (UnsafeRawPointer) -> Result) -> Result? {
        guard let section = LockFreeReads.enter() else { return nil }
        defer { LockFreeReads.leave(section) }
        guard let entry = FactoryRecord.entry(publishedAs: published.load()) else { return nil }
        return entry._withUnsafeGuaranteedRef { entry in
            // A singleton's entry answers only callers bound to its cache; an entry carrying a
            // cached value is owned by this record.
            guard entry.key.site == site,
                entry.owner == ObjectIdentifier(self) || Scope.Singleton.isCurrent(entry.owner),
                let box = UnsafeRawPointer(bitPattern: entry.publishedBox.load())
            else { return nil }
            return read(box)
        }
    }

    /// Publishes that the factory has no options. Under the manager's lock, after `resolution`
    /// was found `nil`.
    @inlinable @inline(__always)
    func publishPlain() {
        if published.loadRelaxed() != FactoryRecord.publishedPlain {
            replacePublished(with: FactoryRecord.publishedPlain)
        }
    }

    /// Publishes `entry`, whose box a resolution just returned as a plain hit, for lock-free
    /// hits. Under the manager's lock.
    @inlinable
    func publishHit(_ entry: SingletonEntry) {
        let address = UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque())
        guard published.loadRelaxed() != address else { return }
        replacePublished(with: UInt(bitPattern: Unmanaged.passRetained(entry).toOpaque()))
    }

    /// Publishes `box`, the strongly held value of `cache` that a resolution of the factory
    /// defined at `site` just returned as a plain hit, for lock-free hits. Under the manager's lock.
    ///
    /// The box travels in an entry of its own, shaped as a singleton's, so lock-free readers take
    /// one path for both. Its site is the publishing definition's: a second definition sharing
    /// the key takes the lock and publishes its own.
    @usableFromInline
    func publishCachedHit(_ box: AnyObject, site: DefinitionSite) {
        let entry = SingletonEntry(key: SingletonKey(factory: key, site: site), owner: ObjectIdentifier(self))
        entry.publish(box)
        replacePublished(with: UInt(bitPattern: Unmanaged.passRetained(entry).toOpaque()))
    }

    /// Whether the published entry already carries `box` for `site`; then publishing it again
    /// would change nothing. Under the manager's lock.
    @inlinable
    func publishes(_ box: AnyObject, site: DefinitionSite) -> Bool {
        guard let entry = FactoryRecord.entry(publishedAs: published.loadRelaxed()) else { return false }
        let boxAddress = UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque())
        return entry._withUnsafeGuaranteedRef { $0.key.site == site && $0.publishedBox.loadRelaxed() == boxAddress }
    }

    /// Withdraws what was published, if anything. Under the manager's lock.
    @inlinable @inline(__always)
    func withdrawPublishedHit() {
        if published.loadRelaxed() != 0 { replacePublished(with: 0) }
    }

    /// Stores `word` as what is published and retires the entry published before, if any: it is
    /// released once no lock-free reader can hold it, after the manager's lock is given up.
    @usableFromInline
    func replacePublished(with word: UInt) {
        if let entry = FactoryRecord.entry(publishedAs: published.exchange(word)) {
            LockFreeReads.retire([Unmanaged<AnyObject>.fromOpaque(entry.toOpaque())])
        }
    }

    /// The options a resolution reads, rebuilt if a write made them stale, unretained: the record
    /// holds them while the manager's lock, under which this runs, is held.
    @inlinable
    func currentResolutionUnretained(in state: ManagerState) -> Unmanaged<ResolutionOptions>? {
        if !isResolutionCurrent { refreshResolution(defaultScope: state.defaultScope, decorator: state.decorator) }
        return resolution.map { Unmanaged.passUnretained($0) }
    }

    @usableFromInline
    func refreshResolution(defaultScope: Scope?, decorator containerDecorator: ((Any) -> Void)?) {
        let scope = scope ?? defaultScope
        let isPlain =
            registration == nil && contexts == nil && decorator == nil && containerDecorator == nil
            && (scope == nil || scope?.kind == .unique)
        resolution =
            isPlain
            ? nil
            : ResolutionOptions(
                registration: registration, contexts: contexts, scope: scope, timeToLive: timeToLive,
                hasDecorator: decorator != nil, containerDecorator: containerDecorator,
                scopeOnParameters: scopeOnParameters)
        isResolutionCurrent = true
    }

    /// Stores `scopeWord` after a change to what it summarizes. Under the manager's lock.
    @usableFromInline
    func publishScopeWord() {
        // An object's address leaves two low bits free (`MachineWord.addressTagMask`).
        let scopeBits = scope.map { UInt(bitPattern: ObjectIdentifier($0)) } ?? 0
        scopeWord.storeReleasing(hasOptions ? scopeBits | 2 | (once ? 1 : 0) : 0)
    }

    /// Whether a modifier setting the scope at `scopeAddress`, on a `Factory` whose `once` flag is
    /// `once`, would change nothing: the options hold that scope already, or `once()` blocks the
    /// write. Read without the lock; `false` (take the lock) when it cannot tell.
    @inlinable
    func scopeWriteChangesNothing(scopeAddress: UInt, once: Bool) -> Bool {
        let word = scopeWord.loadAcquiring()
        guard word & 2 != 0 else { return false }
        if (word & 1 != 0) != once { return true }
        return word & ~MachineWord.addressTagMask == scopeAddress
    }

    /// The closures the options hold (registration, context overrides, decorator, and the
    /// frozen options sharing them), as values to release once the lock is given up: a reset is
    /// about to drop them, and a closure's captured values may run a `deinit` that uses the
    /// container. Forgets the frozen options; the reset's write of an option marks them stale.
    func takeHeldClosures(registration: Bool = true, contexts: Bool = true, decorator: Bool = true)
        -> [StoredValue]
    {
        var held: [StoredValue] = []
        if registration, let box = self.registration { held.append(.strong(box)) }
        if contexts, let overrides = self.contexts { held += overrides.entries.map { .strong($0.box) } }
        if decorator, let box = self.decorator { held.append(.strong(box)) }
        if let frozen = resolution {
            held.append(.strong(frozen))
            resolution = nil
        }
        return held
    }

    /// Forgets every option (a reset of `.all`).
    func clearOptions() {
        restore(options: Options())
    }

    /// The options, as `push()` saves them.
    struct Options {
        var hasOptions = false
        var registration: AnyObject?
        var contexts: ContextOverrides?
        var scope: Scope?
        var scopeOnParameters = false
        var timeToLive: UInt64?
        var decorator: AnyObject?
        var once = false
    }

    var options: Options {
        Options(
            hasOptions: hasOptions, registration: registration, contexts: contexts, scope: scope,
            scopeOnParameters: scopeOnParameters, timeToLive: timeToLive, decorator: decorator, once: once)
    }

    func restore(options: Options) {
        hasOptions = options.hasOptions
        registration = options.registration
        contexts = options.contexts
        scope = options.scope
        scopeOnParameters = options.scopeOnParameters
        timeToLive = options.timeToLive
        decorator = options.decorator
        once = options.once
    }

    /// Looks up this factory's value in the container cache for `scope`, reserving the slot if
    /// the value must be created. A scope change since the values were made drops them.
    @inlinable
    func lookupCache(
        scope: ObjectIdentifier, parameter: AnyHashable?, timeToLive: UInt64?, reserve: () -> InFlight
    ) -> SlotLookup {
        let dropped = useCache(of: scope)
        if dropped.isEmpty { return cache.lookup(parameter: parameter, timeToLive: timeToLive, reserve: reserve) }
        return cache.lookup(parameter: parameter, timeToLive: timeToLive) {
            let flight = reserve()
            flight.replaced += dropped
            return flight
        }
    }

    /// The asynchronous counterpart of `lookupCache`.
    @usableFromInline
    func lookupCacheAsync(
        scope: ObjectIdentifier, parameter: AnyHashable?, timeToLive: UInt64?, reserve: () -> AsyncFlightBase
    ) -> AsyncSlotLookup {
        let dropped = useCache(of: scope)
        if dropped.isEmpty { return cache.lookupAsync(parameter: parameter, timeToLive: timeToLive, reserve: reserve) }
        return cache.lookupAsync(parameter: parameter, timeToLive: timeToLive) {
            let flight = reserve()
            flight.replaced += dropped
            return flight
        }
    }

    /// Makes `cache` hold values of `scope`, handing over those another scope made. The cache is
    /// then empty, so the lookup that follows reserves a slot, and its flight carries them to be
    /// released once no lock is held.
    @inlinable
    func useCache(of scope: ObjectIdentifier) -> [StoredValue] {
        guard cacheScope != scope else { return [] }
        let dropped = cache.isEmpty ? [] : cache.drain()
        cacheScope = scope
        return dropped
    }
}

/// The options one synchronous resolution reads, frozen: built under the manager's lock after a
/// change and shared by every resolution until the next one, so a resolution takes one reference
/// instead of copying each option.
@usableFromInline
final class ResolutionOptions {
    @usableFromInline let registration: AnyObject?
    @usableFromInline let contexts: ContextOverrides?
    /// The factory's scope, or else its container's default scope.
    @usableFromInline let scope: Scope?
    @usableFromInline let timeToLive: UInt64?
    /// Whether the factory has a decorator of its own, which the resolution reads from the record.
    @usableFromInline let hasDecorator: Bool
    @usableFromInline let containerDecorator: ((Any) -> Void)?
    @usableFromInline let scopeOnParameters: Bool

    /// Whether a value found in the scope is a hit as it stands: no slot per parameter to pick, no
    /// time to live to check. Such hits skip the general lookup.
    @inlinable
    var hitsNeedNoCheck: Bool { !scopeOnParameters && timeToLive == nil }

    /// What a hit's plan carries when nothing observes resolutions: after a hit only decorators
    /// read the options, so without one the plan holds no reference to count.
    @inlinable
    var forHit: ResolutionOptions? { hasDecorator || containerDecorator != nil ? self : nil }

    @usableFromInline
    init(
        registration: AnyObject?, contexts: ContextOverrides?, scope: Scope?, timeToLive: UInt64?,
        hasDecorator: Bool, containerDecorator: ((Any) -> Void)?, scopeOnParameters: Bool
    ) {
        self.registration = registration
        self.contexts = contexts
        self.scope = scope
        self.timeToLive = timeToLive
        self.hasDecorator = hasDecorator
        self.containerDecorator = containerDecorator
        self.scopeOnParameters = scopeOnParameters
    }
}
