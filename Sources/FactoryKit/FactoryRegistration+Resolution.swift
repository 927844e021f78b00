/// What one resolution learned from its container, gathered under a single lock acquisition.
///
/// Four fields, every one a constant set by one initializer. With more, or with optional
/// references assigned after initialization, the compiler copies and destroys the plan through
/// the runtime's value witnesses, several calls per resolution.
@usableFromInline
struct ResolutionPlan<T> {
    /// The factory record's address, with the plan's `Kind` in the low bits
    /// (`MachineWord.addressTagMask`). Records live as long as their container, which the resolving
    /// factory keeps alive, so the plan holds the record without a reference count.
    @usableFromInline let recordAndKind: UInt
    /// The options in force; `nil` for a unique factory with nothing registered or decorated.
    @usableFromInline let options: ResolutionOptions?
    /// The value the scope held, for `.hit`.
    @usableFromInline let hit: T?
    /// The factory's own decorator for `.run` and `.hit`; the creation to make or wait for, for
    /// `.create` and `.wait`.
    @usableFromInline let object: AnyObject?

    @usableFromInline
    enum Kind: UInt {
        /// Run the closure that applies, in the scope's way for `graph` and task-bound scopes.
        case run
        /// The scope held the value.
        case hit
        /// Create the value of the cache slot (the container's or a singleton's) reserved for
        /// this resolution.
        case create
        /// Wait for another resolution's creation of the cache slot's value.
        case wait
    }

    @inlinable
    init(record: FactoryRecord, kind: Kind, options: ResolutionOptions?, hit: T? = nil, object: AnyObject? = nil) {
        self.recordAndKind = UInt(bitPattern: Unmanaged.passUnretained(record).toOpaque()) | kind.rawValue
        self.options = options
        self.hit = hit
        self.object = object
    }

    @inlinable
    var kind: Kind { Kind(rawValue: recordAndKind & MachineWord.addressTagMask).unsafelyUnwrapped }

    @inlinable
    var record: FactoryRecord {
        Unmanaged<FactoryRecord>.fromOpaque(
            UnsafeRawPointer(bitPattern: recordAndKind & ~MachineWord.addressTagMask).unsafelyUnwrapped
        )
        .takeUnretainedValue()
    }

    /// The factory's own decorator, if the plan carries it (see `object`).
    @inlinable
    var decorator: AnyObject? { kind == .run || kind == .hit ? object : nil }

    @inlinable var scope: Scope? { options?.scope }
    @inlinable var timeToLive: UInt64? { options?.timeToLive }
}

extension FactoryRegistration {
    /// Resolves the factory: finds the closure that applies (context override, registration or the
    /// original), consults the scope, runs decorators and records the trace.
    ///
    /// No lock is held while user code runs. Scoped values are created once: concurrent first
    /// resolutions wait for the one creating it.
    ///
    @inlinable @inline(__always)
    func resolve(_ parameter: P) -> T {
        if Diagnostics.isObserving { return resolveObserved(parameter) }
        let plan = makePlan(parameter, manager: container.manager)
        // A hit with nothing to decorate: the plan's last use, so its value moves out uncopied.
        if plan.kind == .hit, plan.options == nil { return plan.hit.unsafelyUnwrapped }
        let (value, tag) = produce(plan, parameter)
        decorate(value, plan: plan, instantiated: tag.isNew)
        return value
    }

    /// Resolves while the trace or a dependency-graph recording watches.
    @usableFromInline
    func resolveObserved(_ parameter: P) -> T {
        let chain = ResolutionChain.current
        let manager = container.manager
        let plan = makePlan(parameter, manager: manager, observed: true)
        let line = Diagnostics.observe(
            container: container, name: key.name, result: T.self, scope: plan.scope,
            // Inside an async factory's closure the parent is on the task's async stack; a lazily
            // injected property resolving on its own names the factory that created its owner.
            parent: chain.frames.last?.description ?? AsyncResolution.stack.last?.description
                ?? Diagnostics.adoptedParent, chain: chain)
        let (value, tag) = produce(plan, parameter)
        if let line { chain.completeTrace(line, tag: tag, value: value) }
        if tag == .factory { TestSupport.noteLiveResolution(key, description: description) }
        decorate(value, plan: plan, instantiated: tag.isNew)
        return value
    }

    @inlinable @inline(__always)
    func decorate(_ value: T, plan: ResolutionPlan<T>, instantiated: Bool) {
        guard let options = plan.options else { return }
        if options.hasDecorator, let decorator = plan.decorator ?? currentDecorator(of: plan.record) {
            unsafeDowncast(decorator, to: DecoratorBox<T>.self).decorate(value, instantiated)
        } else if let decorator = options.containerDecorator {
            decorator(value)
        }
    }

    /// The factory's own decorator, read again for plans whose `object` holds something else.
    @usableFromInline
    func currentDecorator(of record: FactoryRecord) -> AnyObject? {
        container.manager.withState { _ in record.decorator }
    }

    /// Makes the plan under the lock.
    @inlinable @inline(__always)
    func makePlan(_ parameter: P, manager: ContainerManager, observed: Bool = false) -> ResolutionPlan<T> {
        manager.withState(of: container) { state in
            state.withRecord(for: key) { record, state in plan(record, state, parameter, observed: observed) }
        }
    }

    /// `makePlan`'s work under the lock. A hit's plan carries the options only when something reads
    /// them afterwards: a decorator, or the trace and graph recordings (`observed`), which name
    /// the scope.
    @inlinable @inline(__always)
    func plan(_ record: FactoryRecord, _ state: ManagerState, _ parameter: P, observed: Bool) -> ResolutionPlan<T> {
        // Borrowed: the record holds its options while the lock is held, and a hit without a
        // decorator does not keep them.
        guard let options = record.currentResolutionUnretained(in: state) else {
            return ResolutionPlan(record: record, kind: .run, options: nil)
        }
        return options._withUnsafeGuaranteedRef { options in plan(record, options, parameter, observed: observed) }
    }

    /// `plan` for a factory with options.
    @inlinable @inline(__always)
    func plan(_ record: FactoryRecord, _ options: ResolutionOptions, _ parameter: P, observed: Bool)
        -> ResolutionPlan<T>
    {
        let decorator = options.hasDecorator ? record.decorator : nil
        // Borrowed too: the options hold their scope.
        guard let scope = options.scope.map(Unmanaged.passUnretained) else {
            return ResolutionPlan(record: record, kind: .run, options: options, object: decorator)
        }
        return scope._withUnsafeGuaranteedRef { scope in
            plan(record, options, scope, decorator, parameter, observed: observed)
        }
    }

    /// `plan` for a scoped factory.
    @inlinable @inline(__always)
    func plan(
        _ record: FactoryRecord, _ options: ResolutionOptions, _ scope: Scope, _ decorator: AnyObject?,
        _ parameter: P, observed: Bool
    ) -> ResolutionPlan<T> {
        func hitOptions(_ options: ResolutionOptions) -> ResolutionOptions? { observed ? options : options.forHit }
        switch scope.kind {
        case .cached, .shared:
            // A hit on a value held strongly, without a parameter or a time to live to check.
            if options.hitsNeedNoCheck, record.cacheScope == ObjectIdentifier(scope),
                let box = record.cache.strongValue
            {
                let value = unsafeDowncast(box, to: ValueBox<T>.self).value
                return ResolutionPlan(
                    record: record, kind: .hit, options: hitOptions(options), hit: value, object: decorator)
            }
            let key = self.key
            let containerType = type(of: container)
            let lookup = record.lookupCache(
                scope: ObjectIdentifier(scope),
                parameter: cacheParameter(options, parameter),
                timeToLive: options.timeToLive,
                reserve: { Self.reserve(key, in: containerType) })
            switch lookup {
            case .hit(let object, let boxed):
                let value = SlotLookup.value(object, boxed: boxed, as: T.self)
                return ResolutionPlan(
                    record: record, kind: .hit, options: hitOptions(options), hit: value, object: decorator)
            case .create(let flight):
                return ResolutionPlan(record: record, kind: .create, options: options, object: flight)
            case .wait(let flight):
                return ResolutionPlan(record: record, kind: .wait, options: options, object: flight)
            }
        case .singleton:
            // A hit through the entry remembered in the record: no key to build or hash. The
            // singleton's lock nests inside the container's, the order `register` uses too.
            // The record keeps its entry alive while the container's lock is held.
            if options.hitsNeedNoCheck, let memo = record.singletonEntry.map(Unmanaged.passUnretained),
                let value = memo._withUnsafeGuaranteedRef({ memo in
                    unsafeDowncast(scope, to: Scope.Singleton.self).forCaller.plainHit(memo, site: site, as: T.self)
                })
            {
                return ResolutionPlan(
                    record: record, kind: .hit, options: hitOptions(options), hit: value, object: decorator)
            }
            return planSingleton(
                record, options, unsafeDowncast(scope, to: Scope.Singleton.self).forCaller, decorator, parameter,
                observed: observed)
        case .unique, .graph, .taskBound:
            return ResolutionPlan(record: record, kind: .run, options: options, object: decorator)
        }
    }

    /// `plan` for a singleton the remembered entry could not answer: looks the value up in the
    /// caller's singleton cache and reserves its slot if it must be created.
    ///
    /// Under the container's lock, so the slot is reserved with the options just read: a
    /// `register` (which removes the singleton under the same lock) either comes first, and this
    /// plan runs its closure, or comes after and drops the reservation, so a value made by the
    /// replaced closure is never cached.
    @usableFromInline
    func planSingleton(
        _ record: FactoryRecord, _ options: ResolutionOptions, _ singleton: Scope.Singleton, _ decorator: AnyObject?,
        _ parameter: P, observed: Bool
    ) -> ResolutionPlan<T> {
        let key = self.key
        let containerType = type(of: container)
        let (decision, entry) = singleton.lookup(
            singletonKey, memo: record.singletonEntry, parameter: cacheParameter(options, parameter),
            timeToLive: options.timeToLive, reserve: { Self.reserve(key, in: containerType) })
        if entry !== record.singletonEntry { record.singletonEntry = entry }
        switch decision {
        case .hit(let object, let boxed):
            return ResolutionPlan(
                record: record, kind: .hit, options: observed ? options : options.forHit,
                hit: SlotLookup.value(object, boxed: boxed, as: T.self), object: decorator)
        case .create(let flight):
            flight.singletonSlot = (singleton, entry)
            return ResolutionPlan(record: record, kind: .create, options: options, object: flight)
        case .wait(let flight):
            return ResolutionPlan(record: record, kind: .wait, options: options, object: flight)
        }
    }

    /// Reserves a slot for creation by the current thread. Static, so the closures that call it
    /// capture two words instead of a copy of the registration.
    @usableFromInline
    static func reserve(_ key: FactoryKey, in containerType: any ManagedContainer.Type) -> InFlight {
        let chain = ResolutionChain.current
        return InFlight(
            owner: chain, frameIndex: chain.depth,
            label: Diagnostics.describe(container: containerType, name: key.name, result: T.self))
    }

    @inlinable @inline(__always)
    func produce(_ plan: ResolutionPlan<T>, _ parameter: P) -> (T, ValueOrigin) {
        switch plan.kind {
        case .hit:
            return (plan.hit.unsafelyUnwrapped, .cache)
        case .run:
            guard let scope = plan.scope else { return create(plan, parameter) }
            switch scope.kind {
            case .graph: return produceGraph(plan, parameter)
            case .taskBound: return produceTaskBound(plan, parameter, scope: scope)
            case .unique, .cached, .shared, .singleton: return create(plan, parameter)
            }
        case .create, .wait:
            return produceCached(plan, parameter, scope: plan.scope.unsafelyUnwrapped)
        }
    }

    /// Resolves in the `withScope` block active for `scope`; there must be one.
    @usableFromInline
    func produceTaskBound(_ plan: ResolutionPlan<T>, _ parameter: P, scope: Scope) -> (T, ValueOrigin) {
        guard let block = ScopeBlock.active(for: scope) else {
            Diagnostics.stop(InactiveScopeError(factory: description).description)
        }
        let blockKey = BlockKey(container: ObjectIdentifier(container), factory: key)
        let cacheParameter = cacheParameter(plan.options, parameter)
        let key = self.key
        let containerType = type(of: container)
        let lookup = block.lookup(
            blockKey, parameter: cacheParameter, timeToLive: plan.timeToLive,
            reserve: { Self.reserve(key, in: containerType) })
        let description = self.description
        return produce(lookup, plan, parameter, scope: scope) { stored, flight, timestamp in
            block.publish(
                stored, key: blockKey, parameter: cacheParameter, for: flight, timestamp: timestamp,
                label: description)
        }
    }

    /// Runs the applicable closure inside a frame of the current resolution chain.
    @inlinable @inline(__always)
    func create(_ plan: ResolutionPlan<T>, _ parameter: P) -> (T, ValueOrigin) {
        let chain = ResolutionChain.currentUnretained
        chain._withUnsafeGuaranteedRef { $0.push(container: container, key: key, result: T.self, parameter: parameter) }
        defer { chain._withUnsafeGuaranteedRef { $0.pop() } }
        return run(plan, parameter)
    }

    @inlinable @inline(__always)
    func run(_ plan: ResolutionPlan<T>, _ parameter: P) -> (T, ValueOrigin) {
        guard let options = plan.options else { return (factory(parameter), .factory) }
        if let contexts = options.contexts, let override = FactoryContext.current.select(from: contexts) {
            if options.registration != nil {
                warnRegistrationShadowed(by: override, in: contexts, factory: description)
            }
            return (unsafeDowncast(override, to: ClosureBox<P, T>.self).make(container, parameter), .override)
        }
        if let registration = options.registration {
            return (unsafeDowncast(registration, to: ClosureBox<P, T>.self).make(container, parameter), .registration)
        }
        return (factory(parameter), .factory)
    }

    /// Waits for another resolution's creation of the same scoped value.
    @usableFromInline
    func waitFor(_ flight: InFlight, _ parameter: P) -> T {
        let chain = ResolutionChain.current
        chain.push(container: container, key: key, result: T.self, parameter: parameter)
        defer { chain.pop() }
        return flight.wait(from: chain) as! T
    }

    @inlinable
    func produceCached(_ plan: ResolutionPlan<T>, _ parameter: P, scope: Scope) -> (T, ValueOrigin) {
        let flight = unsafeDowncast(plan.object.unsafelyUnwrapped, to: InFlight.self)
        let lookup = plan.kind == .create ? SlotLookup.create(flight) : SlotLookup.wait(flight)
        return produce(lookup, plan, parameter, scope: scope) { stored, flight, timestamp in
            let cacheParameter = cacheParameter(plan.options, parameter)
            if let (singleton, entry) = flight.singletonSlot {
                singleton.publish(stored, in: entry, parameter: cacheParameter, for: flight, timestamp: timestamp)
                return
            }
            let record = plan.record
            container.manager.withState { _ in
                record.cache.publish(stored, parameter: cacheParameter, for: flight, timestamp: timestamp)
            }
        }
    }

    /// The key of the value's slot among a `scopeOnParameters` factory's values; `nil` otherwise.
    /// Worked out where needed rather than kept in the plan: `AnyHashable` is resilient, so
    /// carrying one costs runtime calls on every resolution.
    @inlinable
    func cacheParameter(_ options: ResolutionOptions?, _ parameter: P) -> AnyHashable? {
        options?.scopeOnParameters == true ? parameter as? AnyHashable : nil
    }

    /// Acts on a scope's answer: returns a hit, waits for another thread's creation, or creates
    /// the value, publishes it with `publish` and hands it to the waiters.
    @inlinable
    func produce(
        _ lookup: SlotLookup, _ plan: ResolutionPlan<T>, _ parameter: P, scope: Scope,
        publish: (StoredValue?, InFlight, UInt64) -> Void
    ) -> (T, ValueOrigin) {
        switch lookup {
        case .hit(let object, let boxed):
            return (SlotLookup.value(object, boxed: boxed, as: T.self), .cache)
        case .wait(let flight):
            return (waitFor(flight, parameter), .cache)
        case .create(let flight):
            let (value, tag) = create(plan, parameter)
            let timestamp = monotonicNanoseconds()
            publish(storable(value, in: scope), flight, timestamp)
            flight.finish(value)
            return (value, tag)
        }
    }

    @inlinable
    func produceGraph(_ plan: ResolutionPlan<T>, _ parameter: P) -> (T, ValueOrigin) {
        let chain = ResolutionChain.currentUnretained
        let graphKey = GraphKey(
            container: ObjectIdentifier(container), factory: key,
            parameter: cacheParameter(plan.options, parameter).map(FrameParameter.init))
        // A class instance is kept as it is; anything else in a box.
        let isClass = T.self is AnyObject.Type
        if let stored = chain._withUnsafeGuaranteedRef({ $0.graphValue(for: graphKey) }) {
            let value = isClass ? unsafeBitCast(stored, to: T.self) : unsafeDowncast(stored, to: ValueBox<T>.self).value
            return (value, .cache)
        }
        chain._withUnsafeGuaranteedRef { $0.push(container: container, key: key, result: T.self, parameter: parameter) }
        defer { chain._withUnsafeGuaranteedRef { $0.pop() } }
        let (value, tag) = run(plan, parameter)
        // Stored before the frame is popped: popping the outermost frame releases the graph.
        // A class instance is never `nil`; asking the runtime would cost a dynamic cast.
        if isClass || !ValueInspection.isNil(value) {
            let kept: AnyObject = isClass ? unsafeBitCast(value, to: AnyObject.self) : ValueBox(value)
            chain._withUnsafeGuaranteedRef { $0.graphValues.append((graphKey, kept)) }
        }
        return (value, tag)
    }

    /// How a scope keeps a new value; see `StoredValue.make`.
    @usableFromInline
    func storable(_ value: T, in scope: Scope) -> StoredValue? {
        StoredValue.make(value, in: scope, describing: description)
    }
}
