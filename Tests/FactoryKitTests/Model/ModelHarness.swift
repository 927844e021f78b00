import FactoryKit
import Foundation

/// A value the model's factories make: a serial number no other value shares, the label of the
/// closure that made it, and the values it holds.
final class ModelValue: @unchecked Sendable {
    static let serials = Counter()
    /// The app's own lock, which user code takes in a `deinit`.
    static let appLock = NSRecursiveLock()

    let serial: Int
    let label: String
    let children: [ModelValue]
    /// The container whose definition made the value. Its `deinit` is user code with side
    /// effects, as a logger's or tracker's might be: it takes the app's lock, resolves from a
    /// container and registers on it. It runs wherever FactoryKit lets the value go (a reset, a
    /// pop, a registration replacing a cached value), which must be with no lock of FactoryKit's
    /// held. It uses `sideContainer`, not its owner: resolving from the owner would run the
    /// owner's pending `autoRegister()` at a moment the model does not predict.
    private weak var owner: (any SharedContainer)?

    /// What `deinit`s resolve from and register on.
    static let sideContainer = Container()

    init(in owner: (any SharedContainer)? = nil, _ label: String, children: [ModelValue] = []) {
        serial = ModelValue.serials.next()
        self.owner = owner
        self.label = label
        self.children = children
    }

    deinit {
        guard owner != nil else { return }
        ModelValue.appLock.lock()
        defer { ModelValue.appLock.unlock() }
        let side = ModelValue.sideContainer
        _ = side.modelDeinitProbe()
        side.modelDeinitTarget.register { 1 }
        _ = side.modelDeinitTarget()
    }
}

/// The parameter of the model's parameterized factories. Its `hash(into:)`, `==` and `deinit` are
/// user code, as an app's key's might be: they take the app's lock and resolve from (the
/// `deinit` also registers on) the side container, and must never run under a lock of
/// FactoryKit's. What they do is not the model's business: they use `sideContainer` only.
final class ModelKey: Hashable, @unchecked Sendable {
    let value: Int

    init(_ value: Int) { self.value = value }

    private func userCode() {
        ModelValue.appLock.lock()
        defer { ModelValue.appLock.unlock() }
        _ = ModelValue.sideContainer.modelDeinitProbe()
    }

    func hash(into hasher: inout Hasher) {
        userCode()
        hasher.combine(value)
    }

    static func == (lhs: ModelKey, rhs: ModelKey) -> Bool {
        lhs.userCode()
        return lhs.value == rhs.value
    }

    deinit {
        userCode()
        ModelValue.sideContainer.modelDeinitTarget.register { 2 }
    }
}

/// What the decorators of the model's factories and containers saw, in order.
final class ModelDecorations: @unchecked Sendable {
    enum Kind: Equatable {
        case factory(instantiated: Bool)
        case container
    }

    static let shared = ModelDecorations()

    private let lock = NSLock()
    private var entries: [(Kind, Int)] = []

    func record(_ kind: Kind, _ value: ModelValue) {
        lock.withLock { entries.append((kind, value.serial)) }
    }

    /// Returns what was recorded since the last call and forgets it.
    func take() -> [(Kind, Int)] {
        lock.withLock {
            defer { entries = [] }
            return entries
        }
    }
}

extension Scope {
    /// The model's custom scope: a second `Cached` instance.
    static let modelSession = Cached()
}

/// The model's two container types; A registers `plain` when it is first used.
///
/// A's manager is computed, as the protocol allows, and `swapManager()` replaces it: the model's
/// "new container" for the second A (the container keeps its identity; its state starts afresh).
final class ModelContainerA: SharedContainer, AutoRegistering, @unchecked Sendable {
    static let shared = ModelContainerA()
    private let managerLock = NSLock()
    private var currentManager = ContainerManager()
    var manager: ContainerManager { managerLock.withLock { currentManager } }

    func swapManager() {
        let old = managerLock.withLock {
            defer { currentManager = ContainerManager() }
            return currentManager
        }
        withExtendedLifetime(old) {}
    }

    func autoRegister() {
        modelPlain.register { ModelValue("plain.auto") }
    }
}

final class ModelContainerB: SharedContainer, @unchecked Sendable {
    static let shared = ModelContainerB()
    let manager = ContainerManager()
}

// One definition per factory for every container type: one singleton for all of them.
extension SharedContainer {
    /// What a `ModelValue`'s `deinit` resolves (unique whatever the container's default scope)
    /// and registers on: factories no model operation observes.
    var modelDeinitProbe: Factory<Int> { self { 0 }.unique }
    var modelDeinitTarget: Factory<Int> { self { 0 }.unique }
    var modelPlain: Factory<ModelValue> { self { ModelValue(in: self, "plain") } }
    var modelCached: Factory<ModelValue> { self { ModelValue(in: self, "cached") }.cached }
    var modelSingleton: Factory<ModelValue> { self { ModelValue(in: self, "singleton") }.singleton }
    var modelShared: Factory<ModelValue> { self { ModelValue(in: self, "shared") }.shared }
    var modelArgument: Factory<ModelValue> {
        // The override is stored in the container: capturing `self` there would make a cycle.
        self { ModelValue(in: self, "argument") }.onArg(ReferenceModel.argument) { ModelValue("argument.arg") }
    }
    var modelPerParameter: ParameterFactory<ModelKey, ModelValue> {
        self { ModelValue(in: self, "perParameter#\($0.value)") }.cached.scopeOnParameters
    }
    var modelOnceCached: Factory<ModelValue> { self { ModelValue(in: self, "onceCached") }.cached.once() }
    var modelDecorated: Factory<ModelValue> {
        self { ModelValue(in: self, "decorated") }.decorator {
            ModelDecorations.shared.record(.factory(instantiated: $1), $0)
        }
    }
    var modelFirstParameter: ParameterFactory<ModelKey, ModelValue> {
        self { ModelValue(in: self, "firstParameter#\($0.value)") }.cached
    }
    var modelGraphPart: Factory<ModelValue> { self { ModelValue(in: self, "graphPart") }.graph }
    var modelGraphPair: Factory<ModelValue> {
        self { ModelValue(in: self, "graphPair", children: [self.modelGraphPart(), self.modelGraphPart()]) }
    }
}

// One definition per container type: one singleton each.
extension ModelContainerA {
    var modelTypeLogger: Factory<ModelValue> { self { ModelValue(in: self, "typeLogger.A") }.singleton }
}

extension ModelContainerB {
    var modelTypeLogger: Factory<ModelValue> { self { ModelValue(in: self, "typeLogger.B") }.singleton }
}

/// Applies model operations to FactoryKit itself, with fresh containers and singleton caches.
final class ModelHarness {
    static let argumentKey = "factorykit-model"

    var containers: [any SharedContainer] = [ModelContainerA(), ModelContainerA(), ModelContainerB()]
    var singletons = [Scope.Singleton(), Scope.Singleton()]
    var held: [ModelValue] = []

    deinit {
        FactoryContext.removeArg(forKey: ModelHarness.argumentKey)
    }

    /// A factory value as the property hands it out: the definition's modifiers just applied.
    enum Handle {
        case plain(Factory<ModelValue>)
        case parameterized(ParameterFactory<ModelKey, ModelValue>)
    }

    func handle(_ factory: ModelFactory, in container: any SharedContainer) -> Handle {
        switch factory {
        case .plain: .plain(container.modelPlain)
        case .cached: .plain(container.modelCached)
        case .singleton: .plain(container.modelSingleton)
        case .shared: .plain(container.modelShared)
        case .argument: .plain(container.modelArgument)
        case .perParameter: .parameterized(container.modelPerParameter)
        case .onceCached: .plain(container.modelOnceCached)
        case .decorated: .plain(container.modelDecorated)
        case .firstParameter: .parameterized(container.modelFirstParameter)
        case .graphPart: .plain(container.modelGraphPart)
        case .graphPair: .plain(container.modelGraphPair)
        case .typeLogger:
            if let a = container as? ModelContainerA {
                .plain(a.modelTypeLogger)
            } else {
                .plain((container as! ModelContainerB).modelTypeLogger)
            }
        }
    }

    static func scope(_ scope: ModelScope) -> Scope {
        switch scope {
        case .unique: .unique
        case .cached: .cached
        case .session: .modelSession
        case .shared: .shared
        case .singleton: .singleton
        case .graph: .graph
        }
    }

    /// Runs `operation` bound to its singleton cache; returns the value it resolved, if any, and
    /// the decorator calls it caused.
    func apply(_ operation: ModelOperation) -> (ModelValue?, [(ModelDecorations.Kind, Int)]) {
        _ = ModelDecorations.shared.take()
        let value = Scope.$singleton.withValue(singletons[operation.singleton]) { perform(operation) }
        return (value, ModelDecorations.shared.take())
    }

    private func perform(_ operation: ModelOperation) -> ModelValue? {
        let container = containers[operation.container]
        switch operation.action {
        case .resolve(let factory, let parameter, let keep):
            let value: ModelValue
            switch handle(factory, in: container) {
            case .plain(let factory): value = factory()
            case .parameterized(let factory): value = factory(ModelKey(parameter))
            }
            if keep { held.append(value) }
            return value
        case .register(let factory, let generation):
            let label = "\(factory).reg\(generation)"
            switch handle(factory, in: container) {
            case .plain(let factory): factory.register { ModelValue(label) }
            case .parameterized(let factory): factory.register { ModelValue("\(label)#\($0.value)") }
            }
        case .setScope(let factory, let scope):
            switch handle(factory, in: container) {
            case .plain(let factory): factory.scope(Self.scope(scope))
            case .parameterized(let factory): factory.scope(Self.scope(scope))
            }
        case .addContext(let factory, let generation):
            let label = "\(factory).ctx\(generation)"
            switch handle(factory, in: container) {
            case .plain(let factory): factory.onArg(ReferenceModel.argument) { ModelValue(label) }
            case .parameterized(let factory):
                factory.onArg(ReferenceModel.argument) { ModelValue("\(label)#\($0.value)") }
            }
        case .addDecorator(let factory):
            let decorate: @Sendable (ModelValue, Bool) -> Void = {
                ModelDecorations.shared.record(.factory(instantiated: $1), $0)
            }
            switch handle(factory, in: container) {
            case .plain(let factory): factory.decorator(decorate)
            case .parameterized(let factory): factory.decorator(decorate)
            }
        case .timeToLive(let factory, let expiresAtOnce):
            let seconds: Double = expiresAtOnce ? 0 : 3600
            switch handle(factory, in: container) {
            case .plain(let factory): factory.timeToLive(seconds)
            case .parameterized(let factory): factory.timeToLive(seconds)
            }
        case .markOnce(let factory):
            switch handle(factory, in: container) {
            case .plain(let factory): factory.once()
            case .parameterized(let factory): factory.once()
            }
        case .scopeOnParameters(let factory):
            if case .parameterized(let factory) = handle(factory, in: container) { _ = factory.scopeOnParameters }
        case .resetFactory(let factory, let reset):
            switch handle(factory, in: container) {
            case .plain(let factory): factory.reset(reset.options)
            case .parameterized(let factory): factory.reset(reset.options)
            }
        case .resetContainer(let reset):
            container.manager.reset(options: reset.options)
        case .resetScope(let scope):
            container.manager.reset(scope: Self.scope(scope))
        case .resetSingleton:
            Scope.singleton.reset()
        case .cloneSingleton:
            singletons[1] = singletons[0].clone()
        case .push:
            container.manager.push()
        case .pop:
            container.manager.pop()
        case .setDefaultScope(let scope):
            container.manager.defaultScope = scope.map(Self.scope)
        case .containerDecorator(let on):
            container.decorator(
                // Values a `ModelValue`'s `deinit` resolves are not the model's.
                on ? { if let value = $0 as? ModelValue { ModelDecorations.shared.record(.container, value) } } : nil)
        case .argument(let on):
            if on {
                FactoryContext.setArg(ReferenceModel.argument, forKey: Self.argumentKey)
            } else {
                FactoryContext.removeArg(forKey: Self.argumentKey)
            }
        case .releaseHeld:
            held = []
        case .replaceContainer:
            if operation.container == 1, let container = container as? ModelContainerA {
                container.swapManager()
            } else {
                containers[operation.container] =
                    operation.container == 2 ? ModelContainerB() as any SharedContainer : ModelContainerA()
            }
        }
        return nil
    }
}
