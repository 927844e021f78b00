import FactoryKit

// The vocabulary shared by the reference model and the harness that drives FactoryKit: the
// factories under test, the scopes they can take, and the operations a sequence is made of.

/// The factories a model sequence works on. Each is declared on every `SharedContainer` (so one
/// definition serves both container types) except `typeLogger`, which each container type
/// declares for itself.
enum ModelFactory: Int, CaseIterable {
    /// `self { V() }`: no modifiers, so the container's `defaultScope` applies.
    case plain
    /// `.cached`
    case cached
    /// `.singleton`
    case singleton
    /// `.shared`
    case shared
    /// `.onArg(arg) { V() }` on a unique factory.
    case argument
    /// `ParameterFactory<Int, V>`, `.cached.scopeOnParameters`.
    case perParameter
    /// `.cached.once()`: the definition's modifiers apply on the first access only.
    case onceCached
    /// `.decorator { value, instantiated in ... }`.
    case decorated
    /// `ParameterFactory<Int, V>`, `.cached`: the first value serves every parameter.
    case firstParameter
    /// `.graph`.
    case graphPart
    /// A unique value whose closure resolves `graphPart` twice: one graph, one instance.
    case graphPair
    /// `.singleton`, defined separately on each container type: one singleton per definition.
    case typeLogger

    var isParameterized: Bool { self == .perParameter || self == .firstParameter }
}

/// The scopes a sequence names. `session` is a second `Cached` instance, a custom scope.
enum ModelScope: Int, CaseIterable, CustomStringConvertible {
    case unique, cached, session, shared, singleton, graph

    /// Scopes whose values the container's cache keeps.
    var isContainerCached: Bool { self == .cached || self == .session || self == .shared }

    var description: String {
        switch self {
        case .unique: "unique"
        case .cached: "cached"
        case .session: "modelSession"
        case .shared: "shared"
        case .singleton: "singleton"
        case .graph: "graph"
        }
    }
}

/// A modifier in a factory's definition, applied on every access of its property.
enum DefinitionModifier: Equatable {
    case scope(ModelScope)
    case onArgument(label: String)
    case decorator
    case scopeOnParameters
    case once
}

extension ModelFactory {
    /// The label the definition's own closure gives its values. `typeLogger` adds the container
    /// type's name.
    func originalLabel(containerType: Int) -> String {
        self == .typeLogger ? "typeLogger.\(containerType == 0 ? "A" : "B")" : "\(self)"
    }

    /// The definition's modifiers, in the order the property applies them.
    var definition: [DefinitionModifier] {
        switch self {
        case .plain, .graphPair: []
        case .cached: [.scope(.cached)]
        case .singleton, .typeLogger: [.scope(.singleton)]
        case .shared: [.scope(.shared)]
        case .argument: [.onArgument(label: "argument.arg")]
        case .perParameter: [.scope(.cached), .scopeOnParameters]
        case .onceCached: [.scope(.cached), .once]
        case .decorated: [.decorator]
        case .firstParameter: [.scope(.cached)]
        case .graphPart: [.scope(.graph)]
        }
    }
}

/// The resets a sequence uses, as `FactoryResetOptions`.
enum ModelReset: Int, CaseIterable, CustomStringConvertible {
    case all, none, registration, context, scope

    var options: FactoryResetOptions {
        switch self {
        case .all: .all
        case .none: .none
        case .registration: .registration
        case .context: .context
        case .scope: .scope
        }
    }

    var description: String { ".\(options)" }
}

/// One step of a sequence. Every operation runs with `Scope.singleton` bound to one of the
/// sequence's two singleton caches (`singleton`), and names one of its three containers
/// (0 and 1 of type A, 2 of type B).
struct ModelOperation: CustomStringConvertible {
    enum Action {
        /// Resolves the factory (with `parameter` for the parameterized ones); `keep` holds the
        /// value until `releaseHeld`, which keeps `shared` values alive.
        case resolve(ModelFactory, parameter: Int, keep: Bool)
        /// `c.f.register { V("f.reg<n>") }`
        case register(ModelFactory, generation: Int)
        /// `c.f.scope(s)`, e.g. `c.f.unique`.
        case setScope(ModelFactory, ModelScope)
        /// `c.f.onArg(arg) { V("f.ctx<n>") }`
        case addContext(ModelFactory, generation: Int)
        /// `c.f.decorator { ... }`
        case addDecorator(ModelFactory)
        /// `c.f.timeToLive(0)` or `c.f.timeToLive(3600)`
        case timeToLive(ModelFactory, expiresAtOnce: Bool)
        /// `c.f.once()`
        case markOnce(ModelFactory)
        /// `c.f.scopeOnParameters`, for parameterized factories.
        case scopeOnParameters(ModelFactory)
        /// `c.f.reset(options)`
        case resetFactory(ModelFactory, ModelReset)
        /// `c.manager.reset(options:)`
        case resetContainer(ModelReset)
        /// `c.manager.reset(scope:)`
        case resetScope(ModelScope)
        /// `Scope.singleton.reset()` on the bound cache.
        case resetSingleton
        /// Replaces singleton cache 1 with `cache0.clone()`.
        case cloneSingleton
        case push
        case pop
        case setDefaultScope(ModelScope?)
        /// `c.decorator { ... }` or `c.decorator(nil)`.
        case containerDecorator(Bool)
        /// `FactoryContext.setArg(arg, forKey:)` or `removeArg(forKey:)`.
        case argument(Bool)
        /// Lets go of every value `keep` held.
        case releaseHeld
        /// Drops the container and puts a new one of the same type in its place.
        case replaceContainer
    }

    var action: Action
    var container: Int
    var singleton: Int

    var description: String {
        let c = "c\(container)"
        let body: String
        switch action {
        case .resolve(let factory, let parameter, let keep):
            body = "\(keep ? "keep " : "")\(c).\(factory)(\(factory.isParameterized ? "\(parameter)" : ""))"
        case .register(let factory, let generation): body = "\(c).\(factory).register { reg\(generation) }"
        case .setScope(let factory, let scope): body = "\(c).\(factory).scope(.\(scope))"
        case .addContext(let factory, let generation): body = "\(c).\(factory).onArg(arg) { ctx\(generation) }"
        case .addDecorator(let factory): body = "\(c).\(factory).decorator { ... }"
        case .timeToLive(let factory, let expiresAtOnce):
            body = "\(c).\(factory).timeToLive(\(expiresAtOnce ? 0 : 3600))"
        case .markOnce(let factory): body = "\(c).\(factory).once()"
        case .scopeOnParameters(let factory): body = "\(c).\(factory).scopeOnParameters"
        case .resetFactory(let factory, let reset): body = "\(c).\(factory).reset(\(reset))"
        case .resetContainer(let reset): body = "\(c).manager.reset(options: \(reset))"
        case .resetScope(let scope): body = "\(c).manager.reset(scope: .\(scope))"
        case .resetSingleton: body = "Scope.singleton.reset()"
        case .cloneSingleton: body = "singleton1 = singleton0.clone()"
        case .push: body = "\(c).manager.push()"
        case .pop: body = "\(c).manager.pop()"
        case .setDefaultScope(let scope): body = "\(c).manager.defaultScope = \(scope.map { ".\($0)" } ?? "nil")"
        case .containerDecorator(let on): body = on ? "\(c).decorator { ... }" : "\(c).decorator(nil)"
        case .argument(let on): body = on ? "FactoryContext.setArg(arg)" : "FactoryContext.removeArg"
        case .releaseHeld: body = "release held values"
        case .replaceContainer: body = "\(c) = new container"
        }
        return "[singleton\(singleton)] \(body)"
    }
}

/// SplitMix64: small, fast, and the same sequence for the same seed on every platform.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension ModelOperation {
    /// The kinds of operation, with how often each is drawn when enabled.
    private enum Kind: CaseIterable {
        case resolve, register, setScope, addContext, addDecorator, timeToLive, markOnce, scopeOnParameters
        case resetFactory, resetContainer, resetScope, resetSingleton, cloneSingleton, push, pop
        case setDefaultScope, containerDecorator, argument, releaseHeld, replaceContainer

        var weight: Int {
            switch self {
            case .resolve: 40
            case .register, .setScope, .resetFactory: 6
            case .addContext, .resetContainer, .push, .pop, .setDefaultScope, .argument, .releaseHeld: 3
            case .addDecorator, .timeToLive, .markOnce, .resetScope, .resetSingleton, .containerDecorator: 2
            case .scopeOnParameters, .cloneSingleton, .replaceContainer: 1
            }
        }
    }

    /// A random sequence of `count` operations.
    ///
    /// Each sequence works on a few factories and containers and leaves some kinds of operation
    /// out ("swarm testing"), so that the operations it keeps meet each other often: a defect
    /// that needs three particular steps on one factory is found in hundreds of sequences, not
    /// tens of thousands. Resolutions are always in, so that what the other operations change is
    /// observed.
    static func randomSequence(count: Int, using generator: inout SeededGenerator) -> [ModelOperation] {
        let factories = Array(
            ModelFactory.allCases.shuffled(using: &generator).prefix(Int.random(in: 1...4, using: &generator)))
        let containers = Array([0, 1, 2].shuffled(using: &generator).prefix(Int.random(in: 1...3, using: &generator)))
        let kinds = Kind.allCases.filter { $0 == .resolve || Int.random(in: 0..<10, using: &generator) < 6 }
        let totalWeight = kinds.reduce(0) { $0 + $1.weight }
        var operations: [ModelOperation] = []
        var generation = 0
        var pushes = [0, 0, 0]
        for _ in 0..<count {
            let container = containers.randomElement(using: &generator)!
            let singleton = Int.random(in: 0..<4, using: &generator) == 0 ? 1 : 0
            let factory = factories.randomElement(using: &generator)!
            let scope = ModelScope.allCases.randomElement(using: &generator)!
            let reset = ModelReset.allCases.randomElement(using: &generator)!
            var draw = Int.random(in: 0..<totalWeight, using: &generator)
            let kind = kinds.first { kind in
                draw -= kind.weight
                return draw < 0
            }!
            let action: Action
            switch kind {
            case .resolve:
                let keep = Bool.random(using: &generator)
                action = .resolve(factory, parameter: Int.random(in: 0..<3, using: &generator), keep: keep)
            case .register:
                generation += 1
                action = .register(factory, generation: generation)
            case .setScope: action = .setScope(factory, scope)
            case .addContext:
                generation += 1
                action = .addContext(factory, generation: generation)
            case .addDecorator: action = .addDecorator(factory)
            case .timeToLive: action = .timeToLive(factory, expiresAtOnce: Bool.random(using: &generator))
            case .markOnce: action = .markOnce(factory)
            case .scopeOnParameters: action = .scopeOnParameters(factory.isParameterized ? factory : .firstParameter)
            case .resetFactory: action = .resetFactory(factory, reset)
            case .resetContainer: action = .resetContainer(reset)
            case .resetScope:
                action = .resetScope([ModelScope.cached, .session, .shared].randomElement(using: &generator)!)
            case .resetSingleton: action = .resetSingleton
            case .cloneSingleton: action = .cloneSingleton
            case .push:
                pushes[container] += 1
                action = .push
            case .pop:
                // A pop without a push only logs a note; the generator keeps them matched.
                if pushes[container] > 0 {
                    pushes[container] -= 1
                    action = .pop
                } else {
                    pushes[container] += 1
                    action = .push
                }
            case .setDefaultScope: action = .setDefaultScope(Bool.random(using: &generator) ? nil : scope)
            case .containerDecorator: action = .containerDecorator(Bool.random(using: &generator))
            case .argument: action = .argument(Bool.random(using: &generator))
            case .releaseHeld: action = .releaseHeld
            case .replaceContainer:
                pushes[container] = 0
                action = .replaceContainer
            }
            operations.append(ModelOperation(action: action, container: container, singleton: singleton))
        }
        return operations
    }
}
