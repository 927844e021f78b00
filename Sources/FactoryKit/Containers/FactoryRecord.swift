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
    @usableFromInline let key: FactoryKey
    /// Where options and cached values this record drops go until the manager's lock is given up
    /// (see `DroppedValues`); the manager's own.
    @usableFromInline let dropped: DroppedValues

    /// Whether any option was written since the last reset (what `once()` compares against).
    @usableFromInline @exclusivity(unchecked) var hasOptions = false
    // Each write to an option a resolution reads makes `resolution` stale, and the value it
    // replaces (a closure whose captures may have a `deinit`, a custom scope) is released only
    // once the lock is given up.
    @usableFromInline @exclusivity(unchecked) var registration: AnyObject? {
        willSet { dropped.keep(registration) }
        didSet {
            registrationWrites &+= 1
            registrationSerial = registration == nil ? 0 : registrationWrites
            invalidateResolution()
        }
    }
    /// Which of this record's registrations `registration` is, for the overrides written after
    /// it in this record (see `ContextOverrides.Entry`): a number no other registration of the
    /// record had, or 0 for none. A number rather than a weak reference to the box, which would
    /// give every registration a side table.
    @exclusivity(unchecked) var registrationSerial: UInt64 = 0
    @exclusivity(unchecked) private var registrationWrites: UInt64 = 0
    @usableFromInline @exclusivity(unchecked) var contexts: ContextOverrides? {
        willSet { dropped.keep(contexts) }
        didSet { invalidateResolution() }
    }
    @usableFromInline @exclusivity(unchecked) var scope: Scope? {
        willSet { dropped.keep(scope) }
        didSet { invalidateResolution() }
    }
    @usableFromInline @exclusivity(unchecked) var scopeOnParameters = false { didSet { isResolutionCurrent = false } }
    @usableFromInline @exclusivity(unchecked) var timeToLive: UInt64? { didSet { isResolutionCurrent = false } }
    /// Read by each resolution itself rather than frozen, so only a change to or from `nil` makes
    /// `resolution` stale.
    @usableFromInline @exclusivity(unchecked) var decorator: AnyObject? {
        willSet { dropped.keep(decorator) }
        didSet { if (oldValue == nil) != (decorator == nil) { invalidateResolution() } }
    }
    @usableFromInline @exclusivity(unchecked) var once = false

    /// What a synchronous resolution reads of the options above and the manager's default scope
    /// and decorator, frozen into one object; `nil` when there is nothing to read (a unique factory
    /// without registration, override or decorator). Rebuilt under the lock when stale.
    @usableFromInline @exclusivity(unchecked) var resolution: ResolutionOptions? {
        willSet { dropped.keep(resolution) }
    }
    @usableFromInline @exclusivity(unchecked) var isResolutionCurrent = false

    /// Marks `resolution` stale and lets go of it: it shares the closures and scope a write just
    /// replaced, which must be released with them, after the lock.
    @usableFromInline
    func invalidateResolution() {
        isResolutionCurrent = false
        if resolution != nil { resolution = nil }
    }

    /// Values of `cached`, `shared` and custom scopes, and which scope instance made them. Code
    /// that empties it hands the values over (`drain()`) to be released after the lock.
    @usableFromInline @exclusivity(unchecked) var cache = SlotGroup()
    @usableFromInline @exclusivity(unchecked) var cacheScope: ObjectIdentifier?
    /// The registration a subtree's child read through to when it made its cached values (see
    /// `useCache`).
    @exclusivity(unchecked) var cacheRegistration: AnyObject? {
        willSet { dropped.keep(cacheRegistration) }
    }

    /// How `validate` resolves the registered factory, which it cannot name otherwise: a type, so
    /// remembering it allocates nothing.
    @usableFromInline @exclusivity(unchecked) var validator: (any FactoryValidating.Type)?
    /// Where the registered factory was defined, for `validator`.
    @usableFromInline @exclusivity(unchecked) var validatorSite: DefinitionSite?

    /// The factory's entry in `Scope.Singleton.main`, once a resolution used it; checked before
    /// use. Written and read under both the manager's lock and `main`'s. Other `Singleton`
    /// instances (a test's) find their entries by key.
    @usableFromInline @exclusivity(unchecked) var singletonEntry: SingletonEntry? {
        willSet { dropped.keep(singletonEntry) }
    }

    @usableFromInline
    init(key: FactoryKey, dropped: DroppedValues) {
        self.key = key
        self.dropped = dropped
    }

    /// Rebuilds the options a resolution reads (`resolution`) if a write made them stale. Under the
    /// manager's lock. In a subtree's child (`parent` set), rebuilt for every resolution, from
    /// what the record holds and, for what it does not, what its ancestors hold now: there is no
    /// copy to keep in step.
    func refreshResolutionIfStale(in state: ManagerState, of manager: ContainerManager) {
        guard !isResolutionCurrent else { return }
        if let parent = manager.parent {
            refreshResolution(
                defaultScope: state.defaultScope, decorator: state.decorator,
                inheriting: parent.inheritedOptions(for: key))
            isResolutionCurrent = false
        } else {
            refreshResolution(defaultScope: state.defaultScope, decorator: state.decorator)
        }
    }

    func refreshResolution(
        defaultScope: Scope?, decorator containerDecorator: ((Any) -> Void)?,
        inheriting inherited: InheritedOptions? = nil
    ) {
        let registration = registration ?? inherited?.registration
        let contexts = contexts ?? inherited?.contexts
        let inheritedDecorator = decorator == nil ? inherited?.decorator : nil
        let containerDecorator = containerDecorator ?? inherited?.containerDecorator
        let scope = scope ?? inherited?.scope ?? defaultScope ?? inherited?.defaultScope
        let isPlain =
            registration == nil && contexts == nil && decorator == nil && inheritedDecorator == nil
            && containerDecorator == nil && (scope == nil || scope?.kind == .unique)
        resolution =
            isPlain
            ? nil
            : ResolutionOptions(
                registration: registration, contexts: contexts, scope: scope, timeToLive: timeToLive,
                hasDecorator: decorator != nil || inheritedDecorator != nil, inheritedDecorator: inheritedDecorator,
                containerDecorator: containerDecorator, scopeOnParameters: scopeOnParameters)
        isResolutionCurrent = true
    }

    /// The factory's own decorator for a resolution with `options`: the record's, or in a
    /// subtree's child, the one it reads through to.
    func decorator(for options: ResolutionOptions) -> AnyObject? {
        options.hasDecorator ? decorator ?? options.inheritedDecorator : nil
    }

    /// Forgets every option (a reset of `.all`).
    func clearOptions() {
        restore(options: Options())
    }

    /// The options, as `push()` saves them.
    struct Options {
        var hasOptions = false
        var registration: AnyObject?
        var registrationSerial: UInt64 = 0
        var contexts: ContextOverrides?
        var scope: Scope?
        var scopeOnParameters = false
        var timeToLive: UInt64?
        var decorator: AnyObject?
        var once = false
    }

    var options: Options {
        Options(
            hasOptions: hasOptions, registration: registration, registrationSerial: registrationSerial,
            contexts: contexts, scope: scope,
            scopeOnParameters: scopeOnParameters, timeToLive: timeToLive, decorator: decorator, once: once)
    }

    func restore(options: Options) {
        hasOptions = options.hasOptions
        registration = options.registration
        registrationSerial = options.registrationSerial
        contexts = options.contexts
        scope = options.scope
        scopeOnParameters = options.scopeOnParameters
        timeToLive = options.timeToLive
        decorator = options.decorator
        once = options.once
    }

    /// Makes `cache` hold values of `scope` made with `registration`: a scope change since the
    /// values were made drops them, into `dropped`, to be released after the lock. `registration`
    /// is what a subtree's child reads through to an ancestor (`nil` elsewhere): one registered
    /// there since drops the child's values, as a `register` on the child would.
    func useCache(of scope: ObjectIdentifier, madeWith registration: AnyObject?, dropping dropped: DroppedValues) {
        guard cacheScope != scope || cacheRegistration !== registration else { return }
        if !cache.isEmpty { dropped.keep(cache.drain()) }
        cacheScope = scope
        cacheRegistration = registration
    }

    /// The value a `cached` or `shared` hit hands over as it stands, with `options` naming the
    /// scope: there is no parameter or time to live to check, and the cache holds a live value
    /// that scope made. Reads only, so a resolution sharing the lock may call it.
    func uncheckedHit(_ options: ResolutionOptions) -> (object: AnyObject, boxed: Bool)? {
        guard options.hitsNeedNoCheck, let scope = options.scope, cacheScope == ObjectIdentifier(scope) else {
            return nil
        }
        return cache.heldValue
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
    /// Whether the factory has a decorator of its own, which the resolution reads from the record
    /// (see `FactoryRecord.decorator(for:)`).
    @usableFromInline let hasDecorator: Bool
    /// The decorator a subtree's child reads through to its parent, when it has none itself.
    let inheritedDecorator: AnyObject?
    @usableFromInline let containerDecorator: ((Any) -> Void)?
    @usableFromInline let scopeOnParameters: Bool
    /// Whether `contexts` and `registration` are set: testing the references themselves retains
    /// and releases them, twice per resolution that runs a registration.
    let hasContexts: Bool
    let hasRegistration: Bool
    /// The scope's kind, read without retaining the scope.
    let scopeKind: Scope.Kind?

    /// Whether a value found in the scope is a hit as it stands: no slot per parameter to pick, no
    /// time to live to check. Such hits skip the general lookup.
    var hitsNeedNoCheck: Bool { !scopeOnParameters && timeToLive == nil }

    /// What a hit's plan carries when nothing observes resolutions: after a hit only decorators
    /// read the options, so without one the plan holds no reference to count.
    var forHit: ResolutionOptions? { hasDecorator || containerDecorator != nil ? self : nil }

    @usableFromInline
    init(
        registration: AnyObject?, contexts: ContextOverrides?, scope: Scope?, timeToLive: UInt64?,
        hasDecorator: Bool, inheritedDecorator: AnyObject?, containerDecorator: ((Any) -> Void)?,
        scopeOnParameters: Bool
    ) {
        self.inheritedDecorator = inheritedDecorator
        self.registration = registration
        self.contexts = contexts
        self.scope = scope
        self.timeToLive = timeToLive
        self.hasDecorator = hasDecorator
        self.containerDecorator = containerDecorator
        self.scopeOnParameters = scopeOnParameters
        hasContexts = contexts != nil
        hasRegistration = registration != nil
        scopeKind = scope?.kind
    }
}
