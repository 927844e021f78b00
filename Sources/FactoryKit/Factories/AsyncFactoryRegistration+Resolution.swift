/// What one asynchronous resolution learned from its container.
struct AsyncResolutionPlan: @unchecked Sendable {
    /// The manager the plan was made in, which publishes the created value.
    let manager: ContainerManager
    let record: FactoryRecord
    var registration: AnyObject?
    var contexts: ContextOverrides?
    var scope: Scope?
    var timeToLive: UInt64?
    var scopeOnParameters = false
    /// The slot of a `scopeOnParameters` factory's parameter, where the creation publishes.
    var parameterSlot: ParameterSlot?
    var decorator: AnyObject?
    var containerDecorator: ((Any) -> Void)?
    var lookup: SlotLookup<AsyncFlightBase>?
    /// The singleton cache and entry `lookup` looked in, for a singleton.
    var singletonSlot: (cache: Scope.Singleton, entry: SingletonEntry)?
}

extension AsyncFactoryRegistration {
    /// Resolves the factory asynchronously; see ``AsyncFactory``.
    ///
    /// Inlinable, so that a hit is read in the caller's own code, specialized for the value type:
    /// it allocates no frame of its own and instantiates no generic type at run time.
    @inlinable
    func resolve(_ parameter: P) async throws -> T {
        if !Diagnostics.isObserving, let value = plainHit() { return value }
        return try await resolveWithoutHit(parameter)
    }

    /// `resolve` past the hit: the whole resolution, made again when it joined a creation that
    /// every other waiter had left (and that was cancelled), which leaves its slot at once.
    @usableFromInline
    func resolveWithoutHit(_ parameter: P) async throws -> T {
        while true {
            do {
                return try await resolveAttempt(parameter)
            } catch is AbandonedCreation {
                await Task.yield()
            }
        }
    }

    /// One attempt at `resolveWithoutHit`.
    func resolveAttempt(_ parameter: P) async throws -> T {
        let stack = AsyncResolution.stack
        var frame = AsyncFrame(
            container: ObjectIdentifier(container), key: key,
            parameter: P.self == Void.self ? nil : parameter as? AnyHashable,
            isParameterized: P.self != Void.self, containerType: type(of: container), resultType: T.self)
        try AsyncResolution.checkCycle(entering: frame, stack: stack)

        var plan = makePlan(parameter)
        var traced: (trace: AsyncTrace, line: Int)?
        if Diagnostics.isObserving {
            _ = Diagnostics.observe(
                container: container, name: key.name, result: T.self, scope: plan.scope,
                parent: stack.last?.description, chain: nil, site: site)
            if Diagnostics.isTracing {
                let trace = stack.last?.trace ?? AsyncTrace()
                frame.trace = trace
                traced = (trace, trace.begin(depth: stack.count, description))
            }
        }
        let value: T
        let tag: ValueOrigin
        do {
            var block: ScopeBlock?
            if let scope = plan.scope, scope.kind == .graph {
                // Shared within the outermost resolution, by every child task it starts; at the
                // outermost level itself there is nothing to share with, as for a synchronous graph.
                block = stack.first?.graph
            } else if let scope = plan.scope, scope.kind == .taskBound {
                guard let active = ScopeBlock.active(for: scope) else { throw InactiveScopeError(factory: description) }
                block = active
            }
            if let block {
                // A graph's values last as long as its outermost resolution: they do not expire.
                (plan.lookup, plan.parameterSlot) = block.lookup(
                    BlockKey(container: ObjectIdentifier(container), factory: key),
                    parameters: plan.scopeOnParameters ? ParameterLookup(key: ParameterKey(parameter)) : nil,
                    timeToLive: plan.scope?.kind == .taskBound ? plan.timeToLive : nil, reserve: reserve)
            }
            switch plan.lookup {
            case nil:
                if stack.isEmpty { frame.graph = ScopeBlock() }
                let frame = frame
                value = try await AsyncResolution.$stack.withValue(stack + [frame]) {
                    try await run(plan, parameter)
                }
                tag = traced == nil ? .factory : closureTag(plan)
            case .hit(let object, let boxed)?:
                value = hitValue(object, boxed: boxed, as: T.self)
                tag = .cache
            case .wait(let flight)?:
                value = try await join(flight, from: stack, isCreator: false)
                tag = .cache
            case .create(let base)?:
                let flight = unsafeDowncast(base, to: AsyncFlight<T>.self)
                // Dropped by this task's lookup, released by it, not by whichever task lets go of
                // the flight last.
                flight.releaseReplaced()
                frame.flight = flight
                if stack.isEmpty { frame.graph = ScopeBlock() }
                start(
                    flight, plan: plan, parameter: UncheckedSendable(parameter), stack: stack + [frame],
                    block: block)
                value = try await join(flight, from: stack, isCreator: true)
                tag = traced == nil ? .factory : closureTag(plan)
            }
        } catch {
            end(traced, stack: stack, " threw \(error)")
            throw error
        }
        end(traced, stack: stack, Diagnostics.traceSuffix(tag: tag, value: value))
        if Diagnostics.isObserving, tag != .cache, closureTag(plan) == .factory {
            TestSupport.noteLiveResolution(key, site: site, description: description)
        }
        if let decorator = plan.decorator {
            unsafeDowncast(decorator, to: DecoratorBox<T>.self).decorate(value, tag.isNew)
        } else if let decorator = plan.containerDecorator {
            decorator(value)
        }
        return value
    }

    /// The value a scope holds strongly for a factory with nothing to decorate, check or trace,
    /// read under the locks alone. A hit runs no code, so it needs neither the task's resolution
    /// stack (a task-local read) nor a frame; anything else returns `nil` for the full path.
    @inlinable
    func plainHit() -> T? {
        guard let box = AsyncPlainHit.box(container: container, key: key, site: site) else { return nil }
        return unsafeDowncast(box, to: ValueBox<T>.self).value
    }

    /// Completes this resolution's trace line, if it is traced, with `suffix` and, for the
    /// outermost resolution, logs the trace.
    func end(_ traced: (trace: AsyncTrace, line: Int)?, stack: [AsyncFrame], _ suffix: @autoclosure () -> String) {
        guard let traced else { return }
        traced.trace.complete(traced.line, suffix())
        if stack.last?.trace !== traced.trace { traced.trace.flush() }
    }

    /// Which closure ``run(_:_:)`` chose, as the trace tags it: O, R or F.
    func closureTag(_ plan: AsyncResolutionPlan) -> ValueOrigin {
        if let contexts = plan.contexts, FactoryContext.current.select(from: contexts) != nil { return .override }
        return plan.registration == nil ? .factory : .registration
    }

    /// Reads the factory's options and, for scopes its container owns, looks at the cache; for a
    /// `scopeOnParameters` factory, in the slot chosen with no lock held.
    func makePlan(_ parameter: P) -> AsyncResolutionPlan {
        var parameters: ParameterLookup?
        while true {
            if let plan = makePlan(parameter, parameters) { return plan }
            if parameters == nil { parameters = ParameterLookup(key: ParameterKey(parameter)) }
            parameters.unsafelyUnwrapped.choose()
        }
    }

    /// One attempt at `makePlan`: `nil` when the parameter's slot must be chosen first.
    func makePlan(_ parameter: P, _ parameters: ParameterLookup?) -> AsyncResolutionPlan? {
        container.manager.withState(of: container) { state, manager -> AsyncResolutionPlan? in
            let record = state.record(for: key)
            var plan = AsyncResolutionPlan(manager: manager, record: record)
            // A subtree's child reads through to its ancestors for what it has not set itself.
            let inherited = manager.parent?.inheritedOptions(for: key)
            plan.containerDecorator = state.decorator ?? inherited?.containerDecorator
            plan.registration = record.registration ?? inherited?.registration
            plan.contexts = record.contexts ?? inherited?.contexts
            plan.timeToLive = record.timeToLive
            plan.decorator = record.decorator ?? inherited?.decorator
            // A default scope is not applied: only `Sendable` results may be scoped, and the
            // container cannot check that for a scope it imposes.
            plan.scope = record.scope ?? inherited?.scope
            plan.scopeOnParameters = record.scopeOnParameters
            if let scope = plan.scope, scope.kind == .cached || scope.kind == .shared {
                record.useCache(
                    of: ObjectIdentifier(scope), madeWith: record.registration == nil ? inherited?.registration : nil,
                    dropping: state.dropped)
                if record.scopeOnParameters {
                    guard let chosen = parameters?.slot(in: &record.cache, dropped: state.dropped) else { return nil }
                    plan.parameterSlot = chosen
                }
                plan.lookup = record.cache.lookup(
                    parameter: plan.parameterSlot, timeToLive: plan.timeToLive,
                    reserve: reserve)
            } else if let scope = plan.scope, scope.kind == .singleton {
                // Under the container's lock, with the options just read, as for synchronous
                // singletons (see `planSingleton`): a `register` either comes first or drops this
                // reservation.
                if record.scopeOnParameters && parameters == nil { return nil }
                let singleton = unsafeDowncast(scope, to: Scope.Singleton.self).forCaller
                guard
                    let (lookup, entry, slot) = singleton.lookup(
                        singletonKey, for: record, parameters: record.scopeOnParameters ? parameters : nil,
                        dropped: state.dropped, timeToLive: plan.timeToLive,
                        reserve: reserve)
                else { return nil }
                (plan.lookup, plan.singletonSlot, plan.parameterSlot) = (lookup, (singleton, entry), slot)
            }
            return plan
        }
    }

    /// Reserves a slot for this resolution's creation.
    func reserve() -> AsyncFlightBase {
        AsyncFlight<T>(label: description)
    }

    /// Runs the closure that applies: a context override, a registration or the original.
    func run(_ plan: AsyncResolutionPlan, _ parameter: P) async throws -> T {
        if let contexts = plan.contexts, let override = FactoryContext.current.select(from: contexts) {
            if plan.registration != nil { warnRegistrationShadowed(by: override, in: contexts, factory: description) }
            return try await unsafeDowncast(override, to: AsyncClosureBox<P, T>.self).make(container, parameter)
        }
        if let registration = plan.registration {
            return try await unsafeDowncast(registration, to: AsyncClosureBox<P, T>.self).make(container, parameter)
        }
        return try await factory(parameter)
    }

    /// Starts the shared creation in a task of its own, which inherits the caller's task-local
    /// values (its container, its singletons, and the resolution stack including this factory).
    func start(
        _ flight: AsyncFlight<T>, plan: AsyncResolutionPlan, parameter: UncheckedSendable<P>,
        stack: [AsyncFrame], block: ScopeBlock?
    ) {
        let blockKey = BlockKey(container: ObjectIdentifier(container), factory: key)
        let scope = plan.scope ?? .unique
        let description = self.description
        AsyncResolution.$stack.withValue(stack) {
            flight.start(
                {
                    UncheckedSendable(try await run(plan, parameter.value))
                },
                publish: { outcome in
                    let stored = (try? outcome.get()).flatMap {
                        StoredValue.make($0.value, in: scope, describing: description)
                    }
                    let timestamp = monotonicNanoseconds()
                    if let block {
                        block.publish(
                            stored, key: blockKey, parameter: plan.parameterSlot, for: flight,
                            timestamp: timestamp, label: description)
                    } else if let (singleton, entry) = plan.singletonSlot {
                        // The cache that holds `entry`: its lock guards the entry.
                        singleton.publish(
                            stored, in: entry, parameter: plan.parameterSlot, for: flight, timestamp: timestamp)
                    } else {
                        plan.manager.withOwnState { _ in
                            plan.record.cache.publish(
                                stored, parameter: plan.parameterSlot, for: flight, timestamp: timestamp)
                        }
                    }
                })
        }
    }

    /// Waits for a shared creation, reporting a cycle if that creation waits for this one.
    func join(_ flight: AsyncFlightBase, from stack: [AsyncFrame], isCreator: Bool) async throws -> T {
        let waiter = stack.last(where: { $0.flight != nil })?.flight
        try AsyncWaitGraph.enter(waiter, waitingFor: flight)
        defer { AsyncWaitGraph.leave(waiter, waitingFor: flight) }
        return try await unsafeDowncast(flight, to: AsyncFlight<T>.self).value(isCreator: isCreator)
    }
}

/// The lookup behind `AsyncFactoryRegistration.plainHit`. Not generic: asynchronous resolution is
/// not specialized for its value type, and generic code there instantiates type metadata at run
/// time, which costs more than the hit.
@usableFromInline
enum AsyncPlainHit {
    /// The `ValueBox` a scope holds strongly for the factory, if it has nothing to decorate or check.
    @usableFromInline
    static func box(container: any ManagedContainer, key: FactoryKey, site: DefinitionSite) -> AnyObject? {
        container.manager.withState(of: container) { state, manager -> AnyObject? in
            // A subtree's child goes the full way, which reads through to its parent.
            guard state.decorator == nil, manager.parent == nil else { return nil }
            return state.withRecord(for: key) { record, _ -> AnyObject? in
                guard let scope = record.scope, record.decorator == nil, record.timeToLive == nil,
                    !record.scopeOnParameters
                else { return nil }
                switch scope.kind {
                case .cached, .shared:
                    guard record.cacheScope == ObjectIdentifier(scope), let box = record.cache.strongValue else {
                        return nil
                    }
                    return box
                case .singleton:
                    // The entry the full path remembers in the record; checked before use.
                    return unsafeDowncast(scope, to: Scope.Singleton.self).forCaller.hitBox(
                        record, key: SingletonKey(factory: key, site: site))
                case .unique, .graph, .taskBound:
                    return nil
                }
            }
        }
    }
}
