/// What one resolution learned from its container, gathered under a single lock acquisition.
@usableFromInline
struct ResolutionPlan {
    /// The factory's record. Records live as long as their container, which the resolving
    /// factory keeps alive, so the plan holds it without a reference count.
    @usableFromInline unowned(unsafe) let record: FactoryRecord
    /// The options in force; `nil` for a unique factory with nothing registered or decorated.
    @usableFromInline let options: ResolutionOptions?
    @usableFromInline var cacheParameter: AnyHashable?
    /// The factory's own decorator, if `options` says it has one.
    @usableFromInline var decorator: AnyObject?
    @usableFromInline var singletonEntry: SingletonEntry?
    /// For scopes the container caches: the hit, or the reservation this resolution holds.
    @usableFromInline var cached: SlotLookup?

    @inlinable
    init(record: FactoryRecord, options: ResolutionOptions?) {
        self.record = record
        self.options = options
    }

    @inlinable var scope: Scope? { options?.scope }
    @inlinable var timeToLive: UInt64? { options?.timeToLive }
}

extension FactoryRegistration {
    /// Resolves the factory: finds the closure that applies (context override, registration or the
    /// original), consults the scope, runs decorators and records the trace.
    ///
    /// No lock is held while user code runs. Scoped values are created once: concurrent first
    /// resolutions wait for the one creating it.
    @inlinable
    func resolve(_ parameter: P) -> T {
        if Diagnostics.isObserving { return resolveObserved(parameter) }
        let plan = makePlan(parameter)
        let (value, tag) = produce(plan, parameter)
        decorate(value, plan: plan, instantiated: tag.isNew)
        return value
    }

    /// Resolves while the trace or a dependency-graph recording watches.
    @usableFromInline
    func resolveObserved(_ parameter: P) -> T {
        let chain = ResolutionChain.current
        let plan = makePlan(parameter)
        let line = Diagnostics.observe(
            container: container, name: key.name, result: T.self, scope: plan.scope,
            // Inside an async factory's closure the parent is on the task's async stack.
            parent: chain.frames.last?.description ?? AsyncResolution.stack.last?.description, chain: chain)
        let (value, tag) = produce(plan, parameter)
        if let line { chain.completeTrace(line, tag: tag, value: value) }
        decorate(value, plan: plan, instantiated: tag.isNew)
        return value
    }

    @inlinable
    func decorate(_ value: T, plan: ResolutionPlan, instantiated: Bool) {
        guard let options = plan.options else { return }
        if let decorator = plan.decorator {
            unsafeDowncast(decorator, to: DecoratorBox<T>.self).decorate(value, instantiated)
        } else if let decorator = options.containerDecorator {
            decorator(value)
        }
    }

    @inlinable
    func makePlan(_ parameter: P) -> ResolutionPlan {
        container.manager.withState(of: container) { state in
            let record = state.record(for: key)
            var plan = ResolutionPlan(record: record, options: record.currentResolution(in: state))
            guard let options = plan.options else { return plan }
            if options.hasDecorator { plan.decorator = record.decorator }
            guard let scope = options.scope else { return plan }
            if options.scopeOnParameters { plan.cacheParameter = parameter as? AnyHashable }
            switch scope.kind {
            case .cached, .shared:
                let key = self.key
                let containerType = type(of: container)
                plan.cached = record.lookupCache(
                    scope: ObjectIdentifier(scope), parameter: plan.cacheParameter, timeToLive: options.timeToLive,
                    reserve: { Self.reserve(key, in: containerType) })
            case .singleton:
                plan.singletonEntry = record.singletonEntry
            case .unique, .graph, .taskBound:
                break
            }
            return plan
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

    @inlinable
    func produce(_ plan: ResolutionPlan, _ parameter: P) -> (T, ValueOrigin) {
        guard let scope = plan.scope else { return create(plan, parameter) }
        switch scope.kind {
        case .unique:
            return create(plan, parameter)
        case .cached, .shared:
            return produceCached(plan, parameter, scope: scope)
        case .singleton:
            return produceSingleton(plan, parameter, singleton: unsafeDowncast(scope, to: Scope.Singleton.self))
        case .graph:
            return produceGraph(plan, parameter)
        case .taskBound:
            return produceTaskBound(plan, parameter, scope: scope)
        }
    }

    /// Resolves in the `withScope` block active for `scope`; there must be one.
    @usableFromInline
    func produceTaskBound(_ plan: ResolutionPlan, _ parameter: P, scope: Scope) -> (T, ValueOrigin) {
        guard let block = ScopeBlock.active(for: scope) else {
            let message = InactiveScopeError(factory: description).description
            Diagnostics.log("FactoryKit: \(message)")
            fatalError(message)
        }
        let blockKey = BlockKey(container: ObjectIdentifier(container), factory: key)
        let key = self.key
        let containerType = type(of: container)
        let lookup = block.lookup(
            blockKey, parameter: plan.cacheParameter, timeToLive: plan.timeToLive,
            reserve: { Self.reserve(key, in: containerType) })
        let description = self.description
        return produce(lookup, plan, parameter, scope: scope) { stored, flight, timestamp in
            block.publish(
                stored, key: blockKey, parameter: plan.cacheParameter, for: flight, timestamp: timestamp,
                label: description)
        }
    }

    /// Runs the applicable closure inside a frame of the current resolution chain.
    @inlinable
    func create(_ plan: ResolutionPlan, _ parameter: P) -> (T, ValueOrigin) {
        let chain = ResolutionChain.current
        chain.push(container: container, key: key, result: T.self, parameter: parameter)
        defer { chain.pop() }
        return run(plan, parameter)
    }

    @inlinable
    func run(_ plan: ResolutionPlan, _ parameter: P) -> (T, ValueOrigin) {
        guard let options = plan.options else { return (factory(parameter), .factory) }
        if let contexts = options.contexts, let override = FactoryContext.current.select(from: contexts) {
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
    func produceCached(_ plan: ResolutionPlan, _ parameter: P, scope: Scope) -> (T, ValueOrigin) {
        produce(plan.cached!, plan, parameter, scope: scope) { stored, flight, timestamp in
            container.manager.state.withLock { _ in
                plan.record.cache.publish(stored, parameter: plan.cacheParameter, for: flight, timestamp: timestamp)
            }
        }
    }

    /// Acts on a scope's answer: returns a hit, waits for another thread's creation, or creates
    /// the value, publishes it with `publish` and hands it to the waiters.
    @inlinable
    func produce(
        _ lookup: SlotLookup, _ plan: ResolutionPlan, _ parameter: P, scope: Scope,
        publish: (StoredValue?, InFlight, UInt64) -> Void
    ) -> (T, ValueOrigin) {
        switch lookup {
        case .hit(let object, let boxed):
            return (SlotLookup.value(object, boxed: boxed, as: T.self), .cache)
        case .wait(let flight):
            return (waitFor(flight, parameter), .cache)
        case .create(let flight):
            let (value, tag) = create(plan, parameter)
            let timestamp = plan.timeToLive == nil ? 0 : monotonicNanoseconds()
            publish(storable(value, in: scope), flight, timestamp)
            flight.finish(value)
            return (value, tag)
        }
    }

    @inlinable
    func produceSingleton(_ plan: ResolutionPlan, _ parameter: P, singleton: Scope.Singleton) -> (T, ValueOrigin) {
        let key = self.key
        let containerType = type(of: container)
        let (decision, entry) = singleton.lookup(
            singletonKey, memo: plan.singletonEntry, parameter: plan.cacheParameter,
            timeToLive: plan.timeToLive, reserve: { Self.reserve(key, in: containerType) })
        if entry !== plan.singletonEntry { remember(entry, in: plan.record) }
        return produce(decision, plan, parameter, scope: singleton) { stored, flight, timestamp in
            singleton.publish(stored, in: entry, parameter: plan.cacheParameter, for: flight, timestamp: timestamp)
        }
    }

    /// Keeps a shortcut from the factory's record to its singleton entry.
    @usableFromInline
    func remember(_ entry: SingletonEntry, in record: FactoryRecord) {
        container.manager.state.withLock { _ in record.singletonEntry = entry }
    }

    @inlinable
    func produceGraph(_ plan: ResolutionPlan, _ parameter: P) -> (T, ValueOrigin) {
        let chain = ResolutionChain.current
        let graphKey = GraphKey(container: ObjectIdentifier(container), factory: key, parameter: plan.cacheParameter)
        // A class instance is kept as it is; anything else in a box.
        let isClass = T.self is AnyObject.Type
        if let stored = chain.graphValue(for: graphKey) {
            let value = isClass ? unsafeBitCast(stored, to: T.self) : unsafeDowncast(stored, to: ValueBox<T>.self).value
            return (value, .cache)
        }
        chain.push(container: container, key: key, result: T.self, parameter: parameter)
        defer { chain.pop() }
        let (value, tag) = run(plan, parameter)
        // Stored before the frame is popped: popping the outermost frame releases the graph.
        if !ValueInspection.isNil(value) {
            chain.graphValues.append((graphKey, isClass ? unsafeBitCast(value, to: AnyObject.self) : ValueBox(value)))
        }
        return (value, tag)
    }

    /// How a scope keeps a new value; see `StoredValue.make`.
    @usableFromInline
    func storable(_ value: T, in scope: Scope) -> StoredValue? {
        StoredValue.make(value, in: scope, describing: description)
    }
}
