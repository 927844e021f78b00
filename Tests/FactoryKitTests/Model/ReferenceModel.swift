/// What a resolution returned, as the model predicts it: an instance (numbered in the order the
/// model created them), whether this resolution created it, and the instances inside it.
struct PredictedValue: Equatable {
    let instance: Int
    let label: String
    let isNew: Bool
    let children: [PredictedValue]
}

/// A decorator call: which decorator, on which instance, and for a factory's own decorator
/// whether the value was just made.
struct PredictedDecoration: Equatable {
    enum Kind: Equatable {
        case factory(instantiated: Bool)
        case container
    }
    let kind: Kind
    let instance: Int
}

/// A small, obviously correct model of what a user can observe of FactoryKit, single-threaded,
/// written from the documented semantics (API.md §2–§9 and the differences listed in
/// MigratingFromFactory) rather than from the implementation:
///
/// - a property access re-applies the definition's modifiers, each a write that `once` may block;
/// - a resolution picks a context override, else a registration, else the original closure;
/// - `cached`, custom `Cached` and `shared` values live in the container, tagged with the scope
///   that made them (another scope in force drops them); `shared` holds them weakly;
/// - singletons live in the `Scope.Singleton` the resolving task is bound to, per definition;
/// - `graph` values live for one outermost resolution;
/// - resets, `push`/`pop`, `defaultScope` and decorators as API.md §9 and §5 say, with
///   FactoryKit's fixes: `register` always takes effect, naming the scope already in force drops
///   nothing, and `register`, `reset(.all)` and `reset(.scope)` drop the definition's singleton
///   in the caller's cache whatever the scope in force.
///
/// - a container of type A registers `plain` in `autoRegister()`, which runs before the first
///   write or resolution and again after `reset(.all)`/`reset(.registration)`; its `register`
///   drops no cached value.
///
/// - a time to live of zero expires a value at once; a time to live of an hour never does here.
///
/// Not modelled: other times to live (wall-clock time), task-bound scopes, async factories, contexts
/// other than arguments; the example-based tests cover those.
struct ReferenceModel {
    struct Record {
        var hasOptions = false
        var once = false
        var registration: String?
        var contexts: [String: String] = [:]
        var scope: ModelScope?
        var scopeOnParameters = false
        var hasDecorator = false
        /// `true` for a time to live of zero, `false` for an hour, `nil` for none.
        var expiresAtOnce: Bool?
    }

    struct Cache {
        /// The scope whose values `values` holds.
        var scope: ModelScope
        /// Instances by parameter slot (`nil` without `scopeOnParameters`).
        var values: [Int?: Int]
    }

    struct Container {
        let type: Int
        var records: [ModelFactory: Record] = [:]
        var caches: [ModelFactory: Cache] = [:]
        var defaultScope: ModelScope?
        var hasDecorator = false
        /// Whether `autoRegister()` has run; type B does not auto-register.
        var isAutoRegistered: Bool
        var saved: [Saved] = []

        struct Saved {
            let records: [ModelFactory: Record]
            let caches: [ModelFactory: Cache]
            let defaultScope: ModelScope?
            let hasDecorator: Bool
            let isAutoRegistered: Bool
        }

        init(type: Int) {
            self.type = type
            isAutoRegistered = type != 0
        }
    }

    /// A singleton's key: the factory and the container type whose definition made it (`nil`
    /// for definitions shared by every container type).
    struct SingletonKey: Hashable {
        let factory: ModelFactory
        let definition: Int?
    }

    /// The argument the `onArg` overrides listen for.
    static let argument = "factorykit-model-argument"

    private(set) var labels: [String] = []
    private var children: [[Int]] = []
    var containers = [Container(type: 0), Container(type: 0), Container(type: 1)]
    var singletons: [[SingletonKey: [Int?: Int]]] = [[:], [:]]
    var held: [Int] = []
    var isArgumentActive = false

    /// What the operation's resolutions returned and which decorators ran, in order.
    mutating func apply(_ operation: ModelOperation) -> (PredictedValue?, [PredictedDecoration]) {
        let c = operation.container
        let s = operation.singleton
        switch operation.action {
        case .resolve(let factory, let parameter, let keep):
            var decorations: [PredictedDecoration] = []
            var graph: [ModelFactory: Int] = [:]
            let value = resolve(factory, c, s, parameter: parameter, graph: &graph, decorations: &decorations)
            if keep { held.append(value.instance) }
            return (value, decorations)
        case .register(let factory, let generation):
            let once = access(factory, c, s)
            write(factory, c, once: once) { record, model in
                record.registration = "\(factory).reg\(generation)"
                model.containers[c].caches[factory]?.values = [:]
                model.dropSingleton(factory, c, s)
            }
        case .setScope(let factory, let scope):
            let once = access(factory, c, s)
            setScope(factory, c, s, scope, once: once)
        case .addContext(let factory, let generation):
            let once = access(factory, c, s)
            write(factory, c, once: once) { record, _ in
                record.contexts[Self.argument] = "\(factory).ctx\(generation)"
            }
        case .addDecorator(let factory):
            let once = access(factory, c, s)
            write(factory, c, once: once) { record, _ in record.hasDecorator = true }
        case .timeToLive(let factory, let expiresAtOnce):
            let once = access(factory, c, s)
            write(factory, c, once: once) { record, _ in record.expiresAtOnce = expiresAtOnce }
        case .markOnce(let factory):
            let once = access(factory, c, s)
            write(factory, c, once: once) { record, _ in record.once = true }
        case .scopeOnParameters(let factory):
            let once = access(factory, c, s)
            setScopeOnParameters(factory, c, once: once)
        case .resetFactory(let factory, let reset):
            _ = access(factory, c, s)
            resetFactory(factory, c, s, reset)
        case .resetContainer(let reset):
            resetContainer(c, reset)
        case .resetScope(let scope):
            for factory in containers[c].caches.keys where containers[c].caches[factory]?.scope == scope {
                containers[c].caches[factory]?.values = [:]
            }
        case .resetSingleton:
            singletons[s] = [:]
        case .cloneSingleton:
            singletons[1] = singletons[0]
        case .push:
            let container = containers[c]
            containers[c].saved.append(
                Container.Saved(
                    records: container.records, caches: liveCaches(of: container.caches),
                    defaultScope: container.defaultScope, hasDecorator: container.hasDecorator,
                    isAutoRegistered: container.isAutoRegistered))
        case .pop:
            guard let saved = containers[c].saved.popLast() else { break }
            containers[c].records = saved.records
            containers[c].caches = saved.caches
            containers[c].defaultScope = saved.defaultScope
            containers[c].hasDecorator = saved.hasDecorator
            containers[c].isAutoRegistered = saved.isAutoRegistered
        case .setDefaultScope(let scope):
            containers[c].defaultScope = scope
        case .containerDecorator(let on):
            containers[c].hasDecorator = on
        case .argument(let on):
            isArgumentActive = on
        case .releaseHeld:
            held = []
        case .replaceContainer:
            containers[c] = Container(type: containers[c].type)
        }
        return (nil, [])
    }

    // MARK: Writes

    /// A property access: applies the definition's modifiers in order, each a write, and returns
    /// the `once` flag of the `Factory` value it hands back.
    mutating func access(_ factory: ModelFactory, _ c: Int, _ s: Int) -> Bool {
        var once = false
        for modifier in factory.definition {
            switch modifier {
            case .scope(let scope): setScope(factory, c, s, scope, once: once)
            case .onArgument(let label):
                write(factory, c, once: once) { record, _ in record.contexts[Self.argument] = label }
            case .decorator: write(factory, c, once: once) { record, _ in record.hasDecorator = true }
            case .scopeOnParameters: setScopeOnParameters(factory, c, once: once)
            case .once:
                write(factory, c, once: once) { record, _ in record.once = true }
                once = true
            }
        }
        return once
    }

    /// A write to a factory's options: blocked when options are stored and their `once` flag is
    /// not the writing `Factory` value's.
    mutating func write(_ factory: ModelFactory, _ c: Int, once: Bool, _ change: (inout Record, inout Self) -> Void) {
        autoRegisterIfNeeded(c)
        var record = containers[c].records[factory] ?? Record()
        if record.hasOptions && record.once != once { return }
        change(&record, &self)
        record.hasOptions = true
        containers[c].records[factory] = record
    }

    /// Sets the explicit scope; when that changes the scope in force, drops the values the old
    /// one kept for the factory (a singleton leaving for a non-singleton scope drops it too).
    mutating func setScope(_ factory: ModelFactory, _ c: Int, _ s: Int, _ scope: ModelScope, once: Bool) {
        write(factory, c, once: once) { record, model in
            let previous = record.scope ?? model.containers[c].defaultScope
            record.scope = scope
            guard previous != scope else { return }
            model.containers[c].caches[factory]?.values = [:]
            if previous == .singleton { model.dropSingleton(factory, c, s) }
        }
    }

    /// Runs a type A container's `autoRegister()` if it has not run: it registers `plain`, with
    /// the rules of any write but dropping no cached value.
    mutating func autoRegisterIfNeeded(_ c: Int) {
        guard !containers[c].isAutoRegistered else { return }
        containers[c].isAutoRegistered = true
        write(.plain, c, once: false) { record, _ in record.registration = "plain.auto" }
    }

    mutating func setScopeOnParameters(_ factory: ModelFactory, _ c: Int, once: Bool) {
        write(factory, c, once: once) { record, model in
            guard !record.scopeOnParameters else { return }
            record.scopeOnParameters = true
            model.containers[c].caches[factory]?.values = [:]
        }
    }

    mutating func dropSingleton(_ factory: ModelFactory, _ c: Int, _ s: Int) {
        singletons[s][singletonKey(factory, c)] = nil
    }

    func singletonKey(_ factory: ModelFactory, _ c: Int) -> SingletonKey {
        SingletonKey(factory: factory, definition: factory == .typeLogger ? containers[c].type : nil)
    }

    mutating func resetFactory(_ factory: ModelFactory, _ c: Int, _ s: Int, _ reset: ModelReset) {
        var record = containers[c].records[factory] ?? Record()
        switch reset {
        case .all:
            record = Record()
            containers[c].caches[factory]?.values = [:]
            dropSingleton(factory, c, s)
        case .scope:
            containers[c].caches[factory]?.values = [:]
            dropSingleton(factory, c, s)
        case .registration: record.registration = nil
        case .context: record.contexts = [:]
        case .none: break
        }
        containers[c].records[factory] = record
    }

    mutating func resetContainer(_ c: Int, _ reset: ModelReset) {
        switch reset {
        case .all:
            containers[c].records = [:]
            containers[c].caches = [:]
            containers[c].defaultScope = nil
            containers[c].hasDecorator = false
            containers[c].isAutoRegistered = containers[c].type != 0
        case .registration:
            for factory in containers[c].records.keys { containers[c].records[factory]?.registration = nil }
            containers[c].isAutoRegistered = containers[c].type != 0
        case .context:
            for factory in containers[c].records.keys { containers[c].records[factory]?.contexts = [:] }
        case .scope:
            for factory in containers[c].caches.keys { containers[c].caches[factory]?.values = [:] }
        case .none: break
        }
    }

    // MARK: Resolution

    mutating func resolve(
        _ factory: ModelFactory, _ c: Int, _ s: Int, parameter: Int, graph: inout [ModelFactory: Int],
        decorations: inout [PredictedDecoration]
    ) -> PredictedValue {
        _ = access(factory, c, s)
        autoRegisterIfNeeded(c)
        let record = containers[c].records[factory] ?? Record()
        let scope = record.scope ?? containers[c].defaultScope ?? .unique
        let slot = record.scopeOnParameters && factory.isParameterized ? parameter : nil
        var value: PredictedValue
        switch scope {
        case .unique:
            value = create(factory, c, s, record, parameter: parameter, graph: &graph, decorations: &decorations)
        case .graph:
            if let instance = graph[factory] {
                value = existing(instance)
            } else {
                value = create(factory, c, s, record, parameter: parameter, graph: &graph, decorations: &decorations)
                graph[factory] = value.instance
            }
        case .cached, .session, .shared:
            if containers[c].caches[factory]?.scope != scope {
                containers[c].caches[factory] = Cache(scope: scope, values: [:])
            }
            if record.expiresAtOnce != true, let instance = containers[c].caches[factory]?.values[slot],
                scope != .shared || isAlive(instance)
            {
                value = existing(instance)
            } else {
                value = create(factory, c, s, record, parameter: parameter, graph: &graph, decorations: &decorations)
                containers[c].caches[factory]?.values[slot] = value.instance
            }
        case .singleton:
            let key = singletonKey(factory, c)
            if record.expiresAtOnce != true, let instance = singletons[s][key]?[slot] {
                value = existing(instance)
            } else {
                value = create(factory, c, s, record, parameter: parameter, graph: &graph, decorations: &decorations)
                singletons[s][key, default: [:]][slot] = value.instance
            }
        }
        if record.hasDecorator {
            decorations.append(PredictedDecoration(kind: .factory(instantiated: value.isNew), instance: value.instance))
        } else if containers[c].hasDecorator {
            decorations.append(PredictedDecoration(kind: .container, instance: value.instance))
        }
        return value
    }

    /// Runs the closure that applies: an argument override, else the registration, else the
    /// definition's own (which for `graphPair` resolves `graphPart` twice).
    mutating func create(
        _ factory: ModelFactory, _ c: Int, _ s: Int, _ record: Record, parameter: Int,
        graph: inout [ModelFactory: Int], decorations: inout [PredictedDecoration]
    ) -> PredictedValue {
        let suffix = factory.isParameterized ? "#\(parameter)" : ""
        if isArgumentActive, let label = record.contexts[Self.argument] {
            return make(label + suffix, children: [])
        }
        if let label = record.registration {
            return make(label + suffix, children: [])
        }
        var parts: [PredictedValue] = []
        if factory == .graphPair {
            for _ in 0..<2 {
                parts.append(
                    resolve(.graphPart, c, s, parameter: 0, graph: &graph, decorations: &decorations))
            }
        }
        return make(factory.originalLabel(containerType: containers[c].type) + suffix, children: parts)
    }

    mutating func make(_ label: String, children parts: [PredictedValue]) -> PredictedValue {
        labels.append(label)
        children.append(parts.map(\.instance))
        return PredictedValue(instance: labels.count - 1, label: label, isNew: true, children: parts)
    }

    func existing(_ instance: Int) -> PredictedValue {
        PredictedValue(
            instance: instance, label: labels[instance], isNew: false, children: children[instance].map(existing))
    }

    // MARK: Lifetimes

    /// Whether something keeps `instance` alive: the test, a strong cache (a container's, one
    /// saved by `push`, a singleton), or an instance kept alive itself.
    func isAlive(_ instance: Int) -> Bool {
        var roots = held
        for container in containers {
            roots += strongValues(container.caches)
            for saved in container.saved { roots += strongValues(saved.caches) }
        }
        for singleton in singletons { roots += singleton.values.flatMap(\.values) }
        var seen = Set<Int>()
        while let next = roots.popLast() {
            guard seen.insert(next).inserted else { continue }
            if next == instance { return true }
            roots += children[next]
        }
        return false
    }

    func strongValues(_ caches: [ModelFactory: Cache]) -> [Int] {
        caches.values.filter { $0.scope != .shared }.flatMap(\.values.values)
    }

    /// What `push` saves of the caches: `shared` entries whose value is gone are not carried.
    func liveCaches(of caches: [ModelFactory: Cache]) -> [ModelFactory: Cache] {
        caches.mapValues { cache in
            guard cache.scope == .shared else { return cache }
            return Cache(scope: cache.scope, values: cache.values.filter { isAlive($0.value) })
        }
    }
}
