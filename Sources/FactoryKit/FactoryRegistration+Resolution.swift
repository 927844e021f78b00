/// What one resolution learned from its container, gathered under a single lock acquisition.
@usableFromInline
struct ResolutionPlan<T> {
    @usableFromInline var registration: AnyObject?
    @usableFromInline var contexts: [ContextKey: AnyObject] = [:]
    @usableFromInline var scope: Scope?
    @usableFromInline var timeToLive: UInt64?
    @usableFromInline var cacheParameter: AnyHashable?
    @usableFromInline var decorator: AnyObject?
    @usableFromInline var containerDecorator: ((Any) -> Void)?
    /// For scopes the container caches: the hit, or the reservation this resolution holds.
    @usableFromInline var cached: SlotDecision<T>?

    @inlinable
    init() {}
}

extension FactoryRegistration {
    /// Resolves the factory: finds the closure that applies (context override, registration or the
    /// original), consults the scope, runs decorators and records the trace.
    ///
    /// No lock is held while user code runs. Scoped values are created once: concurrent first
    /// resolutions wait for the one creating it.
    @inlinable
    func resolve(_ parameter: P) -> T {
        let traceChain = Diagnostics.isTracing ? ResolutionChain.current : nil
        let traceLine = traceChain?.beginTrace(description)
        let plan = makePlan(parameter)
        let (value, tag) = produce(plan, parameter)
        if let traceChain, let traceLine {
            traceChain.completeTrace(traceLine, tag: tag, value: value)
        }
        if let decorator = plan.decorator {
            unsafeDowncast(decorator, to: DecoratorBox<T>.self).decorate(value, tag != "C")
        } else if let decorator = plan.containerDecorator {
            decorator(value)
        }
        return value
    }

    @inlinable
    func makePlan(_ parameter: P) -> ResolutionPlan<T> {
        container.manager.withState(of: container) { state in
            var plan = ResolutionPlan<T>()
            plan.containerDecorator = state.decorator
            let options = state.factories[key]?.options
            if let options {
                plan.registration = options.registration
                plan.contexts = options.contexts
                plan.scope = options.scope
                plan.timeToLive = options.timeToLive
                plan.decorator = options.decorator
                if options.scopeOnParameters { plan.cacheParameter = parameter as? AnyHashable }
            }
            if plan.scope == nil { plan.scope = state.defaultScope }
            guard let scope = plan.scope, scope.kind == .cached || scope.kind == .shared else { return plan }
            let scopeID = ObjectIdentifier(scope)
            plan.cached = state.factories[key, default: KeyState()].lookupCache(
                scope: scopeID, parameter: plan.cacheParameter, as: T.self, timeToLive: plan.timeToLive,
                reserve: reservation
            )
            return plan
        }
    }

    /// Reserves a slot for creation by the current thread.
    @usableFromInline
    func reservation() -> InFlight {
        let chain = ResolutionChain.current
        return InFlight(owner: chain, frameIndex: chain.depth, label: description)
    }

    @inlinable
    func produce(_ plan: ResolutionPlan<T>, _ parameter: P) -> (T, Character) {
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
        }
    }

    /// Runs the applicable closure inside a frame of the current resolution chain.
    @inlinable
    func create(_ plan: ResolutionPlan<T>, _ parameter: P) -> (T, Character) {
        let chain = ResolutionChain.current
        chain.push(container: container, key: key, result: T.self, parameter: parameter)
        defer { chain.pop() }
        return run(plan, parameter)
    }

    @inlinable
    func run(_ plan: ResolutionPlan<T>, _ parameter: P) -> (T, Character) {
        if !plan.contexts.isEmpty, let override = FactoryContext.current.select(from: plan.contexts) {
            return (unsafeDowncast(override, to: ClosureBox<P, T>.self).make(container, parameter), "O")
        }
        if let registration = plan.registration {
            return (unsafeDowncast(registration, to: ClosureBox<P, T>.self).make(container, parameter), "R")
        }
        return (factory(parameter), "F")
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
    func produceCached(_ plan: ResolutionPlan<T>, _ parameter: P, scope: Scope) -> (T, Character) {
        switch plan.cached! {
        case .hit(let value):
            return (value, "C")
        case .wait(let flight):
            return (waitFor(flight, parameter), "C")
        case .create(let flight):
            let (value, tag) = create(plan, parameter)
            let stored = storable(value, in: scope)
            let timestamp = plan.timeToLive == nil ? 0 : monotonicNanoseconds()
            container.manager.state.withLock { state in
                state.factories[key]?.cache.publish(stored, parameter: plan.cacheParameter, for: flight, timestamp: timestamp)
            }
            flight.finish(value)
            return (value, tag)
        }
    }

    @inlinable
    func produceSingleton(_ plan: ResolutionPlan<T>, _ parameter: P, singleton: Scope.Singleton) -> (T, Character) {
        let singletonKey = self.singletonKey
        let decision = singleton.storage.withLock { values in
            values[singletonKey, default: SlotGroup()].lookup(
                parameter: plan.cacheParameter, as: T.self, timeToLive: plan.timeToLive, reserve: reservation)
        }
        switch decision {
        case .hit(let value):
            return (value, "C")
        case .wait(let flight):
            return (waitFor(flight, parameter), "C")
        case .create(let flight):
            let (value, tag) = create(plan, parameter)
            let stored = storable(value, in: singleton)
            let timestamp = plan.timeToLive == nil ? 0 : monotonicNanoseconds()
            singleton.storage.withLock { values in
                values[singletonKey]?.publish(stored, parameter: plan.cacheParameter, for: flight, timestamp: timestamp)
            }
            flight.finish(value)
            return (value, tag)
        }
    }

    @inlinable
    func produceGraph(_ plan: ResolutionPlan<T>, _ parameter: P) -> (T, Character) {
        let chain = ResolutionChain.current
        let graphKey = GraphKey(container: ObjectIdentifier(container), factory: key, parameter: plan.cacheParameter)
        if let box = chain.graphValues[graphKey] {
            return (unsafeDowncast(box, to: ValueBox<T>.self).value, "C")
        }
        chain.push(container: container, key: key, result: T.self, parameter: parameter)
        defer { chain.pop() }
        let (value, tag) = run(plan, parameter)
        // Stored before the frame is popped: popping the outermost frame releases the graph.
        if !ValueInspection.isNil(value) { chain.graphValues[graphKey] = ValueBox(value) }
        return (value, tag)
    }

    /// How a scope keeps a new value: strongly, weakly (`shared`, class instances only) or not at
    /// all (`nil`, which is never cached).
    @usableFromInline
    func storable(_ value: T, in scope: Scope) -> StoredValue? {
        if scope.kind == .shared {
            if let object = ValueInspection.object(in: value) { return .weak(WeakBox(object)) }
            if !ValueInspection.isNil(value) { Scope.Shared.warnValueType(description) }
            return nil
        }
        return ValueInspection.isNil(value) ? nil : .strong(ValueBox(value))
    }
}

extension KeyState {
    @inlinable
    mutating func lookupCache<T>(
        scope: ObjectIdentifier, parameter: AnyHashable?, as type: T.Type, timeToLive: UInt64?,
        reserve: () -> InFlight
    ) -> SlotDecision<T> {
        if cacheScope != scope {
            cache.removeAll()
            cacheScope = scope
        }
        return cache.lookup(parameter: parameter, as: type, timeToLive: timeToLive, reserve: reserve)
    }
}
