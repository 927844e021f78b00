/// What one resolution learned from its container, gathered under a single lock acquisition.
///
/// Every field is a constant set by one initializer: assigning an optional reference field after
/// initialization made the compiler destroy the old value through runtime metadata, several
/// calls per resolution.
@usableFromInline
struct ResolutionPlan {
    /// The factory's record. Records live as long as their container, which the resolving
    /// factory keeps alive, so the plan holds it without a reference count.
    @usableFromInline unowned(unsafe) let record: FactoryRecord
    /// The options in force; `nil` for a unique factory with nothing registered or decorated.
    @usableFromInline let options: ResolutionOptions?
    /// The factory's own decorator, if `options` says it has one.
    @usableFromInline let decorator: AnyObject?
    /// What the scope gave: the singleton entry remembered in the record (`singletonEntry`), or
    /// the container cache's answer (`cached`).
    @usableFromInline let scopeObject: AnyObject?
    @usableFromInline let scopeObjectKind: ScopeObjectKind

    @usableFromInline
    enum ScopeObjectKind: UInt8 {
        case none, singletonEntry, boxedHit, objectHit, create, wait
    }

    @inlinable
    init(
        record: FactoryRecord, options: ResolutionOptions?, decorator: AnyObject? = nil,
        scopeObject: AnyObject? = nil, scopeObjectKind: ScopeObjectKind = .none
    ) {
        self.record = record
        self.options = options
        self.decorator = decorator
        self.scopeObject = scopeObject
        self.scopeObjectKind = scopeObjectKind
    }

    /// Packs a container cache's answer into `scopeObject` and `scopeObjectKind`.
    @inlinable
    static func packing(_ lookup: SlotLookup) -> (AnyObject, ScopeObjectKind) {
        switch lookup {
        case .hit(let object, let boxed): (object, boxed ? .boxedHit : .objectHit)
        case .create(let flight): (flight, .create)
        case .wait(let flight): (flight, .wait)
        }
    }

    /// The container cache's answer, for `cached`, `shared` and custom scopes.
    @inlinable
    var cached: SlotLookup? {
        guard let object = scopeObject else { return nil }
        switch scopeObjectKind {
        case .none, .singletonEntry: return nil
        case .boxedHit: return .hit(object, boxed: true)
        case .objectHit: return .hit(object, boxed: false)
        case .create: return .create(unsafeDowncast(object, to: InFlight.self))
        case .wait: return .wait(unsafeDowncast(object, to: InFlight.self))
        }
    }

    /// The singleton entry the record remembered, for `singleton`.
    @inlinable
    var singletonEntry: SingletonEntry? {
        guard scopeObjectKind == .singletonEntry, let object = scopeObject else { return nil }
        return unsafeDowncast(object, to: SingletonEntry.self)
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

    @inlinable @inline(__always)
    func decorate(_ value: T, plan: ResolutionPlan, instantiated: Bool) {
        guard let options = plan.options else { return }
        if let decorator = plan.decorator {
            unsafeDowncast(decorator, to: DecoratorBox<T>.self).decorate(value, instantiated)
        } else if let decorator = options.containerDecorator {
            decorator(value)
        }
    }

    @inlinable @inline(__always)
    func makePlan(_ parameter: P) -> ResolutionPlan {
        container.manager.withState(of: container) { state in
            let record = state.record(for: key)
            guard let options = record.currentResolution(in: state) else {
                return ResolutionPlan(record: record, options: nil)
            }
            let decorator = options.hasDecorator ? record.decorator : nil
            guard let scope = options.scope else {
                return ResolutionPlan(record: record, options: options, decorator: decorator)
            }
            switch scope.kind {
            case .cached, .shared:
                // A hit on a value held strongly, without a parameter or a time to live to check.
                if options.hitsNeedNoCheck, record.cacheScope == ObjectIdentifier(scope),
                    let box = record.cache.strongValue
                {
                    return ResolutionPlan(
                        record: record, options: options, decorator: decorator, scopeObject: box,
                        scopeObjectKind: .boxedHit)
                }
                let key = self.key
                let containerType = type(of: container)
                let lookup = record.lookupCache(
                    scope: ObjectIdentifier(scope),
                    parameter: cacheParameter(options, parameter),
                    timeToLive: options.timeToLive,
                    reserve: { Self.reserve(key, in: containerType) })
                let (object, kind) = ResolutionPlan.packing(lookup)
                return ResolutionPlan(
                    record: record, options: options, decorator: decorator, scopeObject: object, scopeObjectKind: kind)
            case .singleton:
                return ResolutionPlan(
                    record: record, options: options, decorator: decorator, scopeObject: record.singletonEntry,
                    scopeObjectKind: .singletonEntry)
            case .unique, .graph, .taskBound:
                return ResolutionPlan(record: record, options: options, decorator: decorator)
            }
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
    func create(_ plan: ResolutionPlan, _ parameter: P) -> (T, ValueOrigin) {
        let chain = ResolutionChain.current
        chain.push(container: container, key: key, result: T.self, parameter: parameter)
        defer { chain.pop() }
        return run(plan, parameter)
    }

    @inlinable @inline(__always)
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
            let cacheParameter = cacheParameter(plan.options, parameter)
            container.manager.state.withLock { _ in
                plan.record.cache.publish(stored, parameter: cacheParameter, for: flight, timestamp: timestamp)
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
        // A hit through the entry remembered in the record: no key to build or hash.
        if plan.options?.hitsNeedNoCheck == true, let memo = plan.singletonEntry,
            let box = singleton.plainHit(memo, site: site)
        {
            return (unsafeDowncast(box, to: ValueBox<T>.self).value, .cache)
        }
        let key = self.key
        let containerType = type(of: container)
        let cacheParameter = cacheParameter(plan.options, parameter)
        let (decision, entry) = singleton.lookup(
            singletonKey, memo: plan.singletonEntry, parameter: cacheParameter,
            timeToLive: plan.timeToLive, reserve: { Self.reserve(key, in: containerType) })
        if entry !== plan.singletonEntry { remember(entry, in: plan.record) }
        return produce(decision, plan, parameter, scope: singleton) { stored, flight, timestamp in
            singleton.publish(stored, in: entry, parameter: cacheParameter, for: flight, timestamp: timestamp)
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
        let graphKey = GraphKey(
            container: ObjectIdentifier(container), factory: key,
            parameter: cacheParameter(plan.options, parameter).map(FrameParameter.init))
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
        // A class instance is never `nil`; asking the runtime would cost a dynamic cast.
        if isClass || !ValueInspection.isNil(value) {
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
