/// What one resolution learned from its container under a single acquisition of its lock.
///
/// Not generic: the planning runs in FactoryKit's own code, compiled once, whatever the value's
/// type. Only the caller turns a hit into a `T` (see `FactoryRegistration.resolve`).
@usableFromInline
struct ResolutionPlan {
    /// The manager the plan was made in and the factory's record there, kept only by plans that
    /// read them again: a creation publishes its value in the same manager, whatever a route bound
    /// meanwhile says, and a decorator is read from the record. Other plans (a factory without
    /// options, most hits) hold no reference to count.
    @usableFromInline let place: (manager: ContainerManager, record: FactoryRecord)?
    /// The slot of a `scopeOnParameters` factory's parameter, where a creation publishes.
    @usableFromInline let parameterSlot: ParameterSlot?
    @usableFromInline let kind: Kind
    /// The options in force; `nil` for a unique factory with nothing registered or decorated, and
    /// for a hit with nothing to decorate or observe.
    @usableFromInline let options: ResolutionOptions?
    /// The value of a hit: its `ValueBox` (`.hitBoxed`) or the object itself (`.hitObject`).
    @usableFromInline let hit: AnyObject?
    /// The factory's own decorator for `.run` and hits; the creation to make or wait for, for
    /// `.create` and `.wait`.
    @usableFromInline let object: AnyObject?

    @usableFromInline
    enum Kind: UInt8 {
        /// Run the closure that applies, in the scope's way for `graph` and task-bound scopes.
        case run
        /// The scope held the value, in a `ValueBox`.
        case hitBoxed
        /// The scope held the value as an object (a `shared` value).
        case hitObject
        /// Create the value of the cache slot (the container's or a singleton's) reserved for
        /// this resolution.
        case create
        /// Wait for another resolution's creation of the cache slot's value.
        case wait
        /// Choose the slot of a `scopeOnParameters` factory's parameter, with no lock held, and
        /// plan again.
        case chooseParameter
    }

    /// A plan that asks for the parameter's slot to be chosen first.
    static func chooseParameter(_ manager: ContainerManager, _ record: FactoryRecord) -> ResolutionPlan {
        ResolutionPlan(manager, record: record, kind: .chooseParameter, options: nil)
    }

    init(
        _ manager: ContainerManager, record: FactoryRecord, kind: Kind, options: ResolutionOptions?,
        hit: AnyObject? = nil, object: AnyObject? = nil, parameterSlot: ParameterSlot? = nil
    ) {
        self.parameterSlot = parameterSlot
        self.place = options == nil && kind != .create ? nil : (manager, record)
        self.kind = kind
        self.options = options
        self.hit = hit
        self.object = object
    }

    init(
        _ manager: ContainerManager, record: FactoryRecord, options: ResolutionOptions?, lookup: SlotLookup<InFlight>,
        decorator: AnyObject?, parameterSlot: ParameterSlot? = nil
    ) {
        switch lookup {
        case .hit(let object, let boxed):
            self.init(
                manager, record: record, kind: boxed ? .hitBoxed : .hitObject, options: options, hit: object,
                object: decorator)
        case .create(let flight):
            self.init(
                manager, record: record, kind: .create, options: options, object: flight, parameterSlot: parameterSlot)
        case .wait(let flight):
            self.init(manager, record: record, kind: .wait, options: options, object: flight)
        }
    }

    /// Whether the plan is a hit.
    var isHit: Bool { kind == .hitBoxed || kind == .hitObject }

    /// The value of a hit.
    func hitValue<T>(as type: T.Type) -> T {
        FactoryKit.hitValue(hit.unsafelyUnwrapped, boxed: kind == .hitBoxed, as: T.self)
    }

    /// The factory's own decorator, if the plan carries it (see `object`).
    var decorator: AnyObject? { kind == .create || kind == .wait ? nil : object }

    var scope: Scope? { options?.scope }
    var timeToLive: UInt64? { options?.timeToLive }
}

/// What planning needs to know of the factory being resolved, without its types. Plain words,
/// copied without reference counting.
@usableFromInline
struct ResolutionRequest {
    @usableFromInline let key: FactoryKey
    @usableFromInline let site: DefinitionSite
    /// The container's type and the value's type, for messages.
    @usableFromInline let containerType: any ManagedContainer.Type
    @usableFromInline let result: Any.Type
    /// Whether the trace or a graph recording watches, which need the options of hits too.
    @usableFromInline let observed: Bool

    @inlinable
    init(
        key: FactoryKey, site: DefinitionSite, containerType: any ManagedContainer.Type, result: Any.Type,
        observed: Bool
    ) {
        self.key = key
        self.site = site
        self.containerType = containerType
        self.result = result
        self.observed = observed
    }

    /// Makes the plan under `container`'s lock (after `autoRegister()` if it has not run).
    /// `parameterKey` makes the key of a `scopeOnParameters` factory's parameter, with no lock
    /// held; a plan that needs the parameter's slot chosen takes the lock again once it is.
    @usableFromInline
    static func plan(
        _ request: ResolutionRequest, in container: any ManagedContainer, parameterKey: () -> ParameterKey?
    ) -> ResolutionPlan {
        let manager = container.manager
        var parameters: ParameterLookup?
        while true {
            let plan = manager.withState(of: container) { (state: inout ManagerState, owner: ContainerManager) in
                state.withRecord(for: request.key) { record, state in
                    request.plan(owner, record, state, parameters)
                }
            }
            if plan.kind != .chooseParameter { return plan }
            if parameters == nil { parameters = ParameterLookup(key: parameterKey()) }
            parameters.unsafelyUnwrapped.choose()
        }
    }

    /// The plan, or `.chooseParameter` when a `scopeOnParameters` factory's slot must be chosen
    /// first.
    private func plan(
        _ manager: ContainerManager, _ record: FactoryRecord, _ state: ManagerState, _ parameters: ParameterLookup?
    ) -> ResolutionPlan {
        record.refreshResolutionIfStale(in: state, of: manager)
        guard let options = record.resolution else {
            return ResolutionPlan(manager, record: record, kind: .run, options: nil)
        }
        guard let scope = options.scope else {
            let decorator = record.decorator(for: options)
            return ResolutionPlan(manager, record: record, kind: .run, options: options, object: decorator)
        }
        return plan(manager, record, state, options, scope, parameters)
    }

    /// `plan` for a scoped factory.
    private func plan(
        _ manager: ContainerManager, _ record: FactoryRecord, _ state: ManagerState, _ options: ResolutionOptions,
        _ scope: Scope, _ parameters: ParameterLookup?
    ) -> ResolutionPlan {
        let decorator = record.decorator(for: options)
        // A hit's plan carries the options only when something reads them afterwards: a
        // decorator, or the trace and graph recordings, which name the scope.
        let hitOptions = observed ? options : options.forHit
        switch scope.kind {
        case .cached, .shared:
            // A hit without a parameter or a time to live to check (a subtree's child also checks
            // what its values were made with, below).
            if !state.isChild, let (value, boxed) = record.uncheckedHit(options) {
                return ResolutionPlan(
                    manager, record: record, options: hitOptions, lookup: .hit(value, boxed: boxed),
                    decorator: decorator)
            }
            record.useCache(
                of: ObjectIdentifier(scope), madeWith: state.isChild ? options.registration : nil,
                dropping: state.dropped)
            var slot: ParameterSlot?
            if options.scopeOnParameters {
                guard let chosen = parameters?.slot(in: &record.cache, dropped: state.dropped) else {
                    return .chooseParameter(manager, record)
                }
                slot = chosen
            }
            let lookup = record.cache.lookup(parameter: slot, timeToLive: options.timeToLive, reserve: reserve)
            return ResolutionPlan(
                manager, record: record, options: lookup.isHit ? hitOptions : options, lookup: lookup,
                decorator: decorator, parameterSlot: slot)
        case .singleton:
            let singleton = unsafeDowncast(scope, to: Scope.Singleton.self).forCaller
            // A value that needs no check is a hit as it stands; the singleton's lock nests inside
            // the container's, the order `register` uses too.
            if options.hitsNeedNoCheck, let box = singleton.hitBox(record, key: SingletonKey(factory: key, site: site))
            {
                return ResolutionPlan(
                    manager, record: record, kind: .hitBoxed, options: hitOptions, hit: box, object: decorator)
            }
            return planSingleton(manager, record, state, options, hitOptions, singleton, decorator, parameters)
        case .unique, .graph, .taskBound:
            return ResolutionPlan(manager, record: record, kind: .run, options: options, object: decorator)
        }
    }

    /// `plan` for a singleton the remembered entry could not answer: looks the value up in the
    /// caller's singleton cache and reserves its slot if it must be created.
    ///
    /// Under the container's lock, so the slot is reserved with the options just read: a
    /// `register` (which removes the singleton under the same lock) either comes first, and this
    /// plan runs its closure, or comes after and drops the reservation, so a value made by the
    /// replaced closure is never cached.
    private func planSingleton(
        _ manager: ContainerManager, _ record: FactoryRecord, _ state: ManagerState, _ options: ResolutionOptions,
        _ hitOptions: ResolutionOptions?, _ singleton: Scope.Singleton, _ decorator: AnyObject?,
        _ parameters: ParameterLookup?
    ) -> ResolutionPlan {
        if options.scopeOnParameters && parameters == nil { return .chooseParameter(manager, record) }
        guard
            let (lookup, entry, slot) = singleton.lookup(
                SingletonKey(factory: key, site: site), for: record,
                parameters: options.scopeOnParameters ? parameters : nil, dropped: state.dropped,
                timeToLive: options.timeToLive, reserve: reserve)
        else { return .chooseParameter(manager, record) }
        if case .create(let flight) = lookup { flight.singletonSlot = (singleton, entry) }
        return ResolutionPlan(
            manager, record: record, options: lookup.isHit ? hitOptions : options, lookup: lookup,
            decorator: decorator, parameterSlot: slot)
    }

    /// Reserves a slot for creation by the current thread.
    func reserve() -> InFlight {
        let chain = ResolutionChain.current
        return InFlight(owner: chain, frameIndex: chain.depth, container: containerType, name: key.name, result: result)
    }
}

extension FactoryRegistration {
    /// Resolves the factory: finds the closure that applies (context override, registration or the
    /// original), consults the scope, runs decorators and records the trace.
    ///
    /// No lock is held while user code runs. Scoped values are created once: concurrent first
    /// resolutions wait for the one creating it.
    ///
    /// Inlined into the caller, and kept small: the plan is made in FactoryKit's own code, and
    /// the caller only runs a factory without options, or unboxes a hit; anything else is one
    /// more call.
    @usableFromInline
    func resolve(_ parameter: P) -> T {
        if Diagnostics.isObserving { return resolveObserved(parameter) }
        let request = request(observed: false)
        let plan = ResolutionRequest.plan(request, in: container) { ParameterKey(parameter) }
        if plan.options == nil {
            if plan.isHit { return plan.hitValue(as: T.self) }
            if plan.kind == .run { return runDefinition(parameter, key: request.key) }
        }
        return resolve(parameter, plan: plan)
    }

    /// What planning needs to know of this factory.
    func request(observed: Bool) -> ResolutionRequest {
        ResolutionRequest(
            key: key, site: DefinitionSite(file: file, line: lineAndOnce.line), containerType: type(of: container),
            result: T.self, observed: observed)
    }

    /// Runs the definition's closure inside a frame of the current resolution chain: the whole
    /// of a resolution for a factory without options.
    func runDefinition(_ parameter: P, key: FactoryKey) -> T {
        let chain = enter(parameter, key: key)
        defer { ResolutionChain.leave(chain) }
        return factory(parameter)
    }

    /// Pushes this factory's frame on the current thread's chain.
    func enter(_ parameter: P, key: FactoryKey) -> ResolutionChain {
        ResolutionChain.enter(
            container: container, key: key, result: T.self, site: site, isParameterized: P.self != Void.self,
            parameter: { FrameParameter.box(parameter) })
    }

    /// `resolve` for a plan with options: a registration, an override, a scope to create in, a
    /// decorator.
    @usableFromInline
    func resolve(_ parameter: P, plan: ResolutionPlan) -> T {
        let (value, tag) = produce(plan, parameter)
        decorate(value, plan: plan, instantiated: tag.isNew)
        return value
    }

    /// Resolves while the trace or a dependency-graph recording watches.
    @usableFromInline
    func resolveObserved(_ parameter: P) -> T {
        let chain = ResolutionChain.current
        let plan = ResolutionRequest.plan(request(observed: true), in: container) { ParameterKey(parameter) }
        let line = Diagnostics.observe(
            container: container, name: key.name, result: T.self, scope: plan.scope,
            // Inside an async factory's closure the parent is on the task's async stack; a lazily
            // injected property resolving on its own names the factory that created its owner.
            parent: chain.frames.last?.description ?? AsyncResolution.stack.last?.description
                ?? Diagnostics.adoptedParent, chain: chain, site: site)
        let (value, tag) = produce(plan, parameter)
        if let line { chain.completeTrace(line, tag: tag, value: value) }
        if tag == .factory { TestSupport.noteLiveResolution(key, site: site, description: description) }
        decorate(value, plan: plan, instantiated: tag.isNew)
        return value
    }

    func decorate(_ value: T, plan: ResolutionPlan, instantiated: Bool) {
        guard let options = plan.options, options.hasDecorator || options.containerDecorator != nil else { return }
        decorate(value, options: options, plan: plan, instantiated: instantiated)
    }

    /// `decorate` for options with a decorator.
    func decorate(_ value: T, options: ResolutionOptions, plan: ResolutionPlan, instantiated: Bool) {
        if options.hasDecorator, let decorator = plan.decorator ?? currentDecorator(of: plan) {
            unsafeDowncast(decorator, to: DecoratorBox<T>.self).decorate(value, instantiated)
        } else if let decorator = options.containerDecorator {
            decorator(value)
        }
    }

    /// The factory's own decorator, read again for plans whose `object` holds something else.
    func currentDecorator(of plan: ResolutionPlan) -> AnyObject? {
        guard let (manager, record) = plan.place, let options = plan.options else { return nil }
        return manager.withOwnState { _ in record.decorator(for: options) }
    }

    func produce(_ plan: ResolutionPlan, _ parameter: P) -> (T, ValueOrigin) {
        switch plan.kind {
        case .hitBoxed, .hitObject:
            return (plan.hitValue(as: T.self), .cache)
        case .run:
            // The scope's kind, read from the options without retaining the scope.
            switch plan.options?.scopeKind {
            case .graph: return produceGraph(plan, parameter)
            case .taskBound: return produceTaskBound(plan, parameter, scope: plan.scope.unsafelyUnwrapped)
            case .unique, .cached, .shared, .singleton, nil: return create(plan, parameter)
            }
        case .create, .wait:
            return produceCached(plan, parameter, scope: plan.scope.unsafelyUnwrapped)
        case .chooseParameter:
            preconditionFailure("FactoryKit: a plan was used before its parameter's slot was chosen")
        }
    }

    /// Resolves in the `withScope` block active for `scope`; there must be one.
    @usableFromInline
    func produceTaskBound(_ plan: ResolutionPlan, _ parameter: P, scope: Scope) -> (T, ValueOrigin) {
        guard let block = ScopeBlock.active(for: scope) else {
            let message = InactiveScopeError(factory: description).description
            // In a test run through FactoryTesting: an issue at the definition, and the test goes
            // on with a value made as `unique` would make it.
            if TestSupport.recordInTest(message + " (In this test it resolved as unique.)", site: site) {
                return create(plan, parameter)
            }
            // Stopped at FactoryKit's line (a fatal error's location must be a literal), so the
            // message begins with the definition's.
            Diagnostics.stop(
                "\(site.location): \(message) In a test, FactoryTesting's .container trait "
                    + "makes this an issue of the test at the definition, and the factory resolves as unique.")
        }
        TaskBoundCapture.check(resolving: description)
        let blockKey = BlockKey(container: ObjectIdentifier(container), factory: key)
        let parameters = plan.options?.scopeOnParameters == true ? ParameterLookup(key: ParameterKey(parameter)) : nil
        let request = request(observed: false)
        let (lookup, slot) = block.lookup(
            blockKey, parameters: parameters, timeToLive: plan.timeToLive, reserve: request.reserve)
        let description = self.description
        return produce(lookup, plan, parameter, scope: scope) { stored, flight, timestamp in
            block.publish(
                stored, key: blockKey, parameter: slot, for: flight, timestamp: timestamp, label: description)
        }
    }

    /// Runs the applicable closure inside a frame of the current resolution chain.
    func create(_ plan: ResolutionPlan, _ parameter: P) -> (T, ValueOrigin) {
        let chain = enter(parameter, key: key)
        defer { ResolutionChain.leave(chain) }
        return run(plan, parameter)
    }

    func run(_ plan: ResolutionPlan, _ parameter: P) -> (T, ValueOrigin) {
        guard let options = plan.options else { return (factory(parameter), .factory) }
        if options.hasContexts { return runWithContexts(options, parameter) }
        guard let registration = options.registration else { return (factory(parameter), .factory) }
        return (unsafeDowncast(registration, to: ClosureBox<P, T>.self).make(container, parameter), .registration)
    }

    /// `run` for a factory with context overrides.
    func runWithContexts(_ options: ResolutionOptions, _ parameter: P) -> (T, ValueOrigin) {
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
        chain.push(container: container, key: key, result: T.self, site: site, parameter: parameter)
        defer { chain.pop() }
        return flight.wait(from: chain) as! T
    }

    func produceCached(_ plan: ResolutionPlan, _ parameter: P, scope: Scope) -> (T, ValueOrigin) {
        let flight = unsafeDowncast(plan.object.unsafelyUnwrapped, to: InFlight.self)
        let lookup: SlotLookup<InFlight> = plan.kind == .create ? .create(flight) : .wait(flight)
        return produce(lookup, plan, parameter, scope: scope) { stored, flight, timestamp in
            if let (singleton, entry) = flight.singletonSlot {
                singleton.publish(stored, in: entry, parameter: plan.parameterSlot, for: flight, timestamp: timestamp)
                return
            }
            guard let (manager, record) = plan.place else { return }
            manager.withOwnState { _ in
                record.cache.publish(stored, parameter: plan.parameterSlot, for: flight, timestamp: timestamp)
            }
        }
    }

    /// The parameter of a `scopeOnParameters` factory, which keys its values in a graph (held by
    /// the resolving thread, under no lock); `nil` otherwise.
    func cacheParameter(_ options: ResolutionOptions?, _ parameter: P) -> AnyHashable? {
        options?.scopeOnParameters == true ? parameter as? AnyHashable : nil
    }

    /// Acts on a scope's answer: returns a hit, waits for another thread's creation, or creates
    /// the value, publishes it with `publish` and hands it to the waiters.
    func produce(
        _ lookup: SlotLookup<InFlight>, _ plan: ResolutionPlan, _ parameter: P, scope: Scope,
        publish: (StoredValue?, InFlight, UInt64) -> Void
    ) -> (T, ValueOrigin) {
        switch lookup {
        case .hit(let object, let boxed):
            return (FactoryKit.hitValue(object, boxed: boxed, as: T.self), .cache)
        case .wait(let flight):
            return (waitFor(flight, parameter), .cache)
        case .create(let flight):
            flight.releaseReplaced()
            let chain = ResolutionChain.current
            let kept = scope.kind != .taskBound
            if kept { chain.keptCreations.append((chain.depth, scope.kind, site)) }
            defer { if kept { chain.keptCreations.removeLast() } }
            let (value, tag) = create(plan, parameter)
            let timestamp = monotonicNanoseconds()
            publish(storable(value, in: scope), flight, timestamp)
            flight.finish(value)
            return (value, tag)
        }
    }

    func produceGraph(_ plan: ResolutionPlan, _ parameter: P) -> (T, ValueOrigin) {
        let chain = ResolutionChain.current
        let graphKey = GraphKey(
            container: ObjectIdentifier(container), factory: key,
            parameter: cacheParameter(plan.options, parameter).map(FrameParameter.init))
        // A class instance is kept as it is; anything else in a box.
        let isClass = T.self is AnyObject.Type
        if let stored = chain.graphValue(for: graphKey) {
            let value = isClass ? stored as! T : unsafeDowncast(stored, to: ValueBox<T>.self).value
            return (value, .cache)
        }
        chain.push(container: container, key: key, result: T.self, site: site, parameter: parameter)
        defer { chain.pop() }
        let (value, tag) = run(plan, parameter)
        // Stored before the frame is popped: popping the outermost frame releases the graph.
        // A class instance is never `nil`; asking the runtime would cost a dynamic cast.
        if isClass || !ValueInspection.isNil(value) {
            let kept: AnyObject = isClass ? value as AnyObject : ValueBox(value)
            chain.graphValues.append((graphKey, kept))
        }
        return (value, tag)
    }

    /// How a scope keeps a new value; see `StoredValue.make`.
    @usableFromInline
    func storable(_ value: T, in scope: Scope) -> StoredValue? {
        StoredValue.make(value, in: scope, describing: description)
    }
}
