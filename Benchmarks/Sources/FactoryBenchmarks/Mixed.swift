import Dispatch
import FactoryKit
import Foundation

// The write-heavy mixed workload: rounds spread over four serial queues, each round registering
// one factory and resolving a graph of five, on one container. The baseline is a minimal
// container written here: a dictionary of closures and a cache behind one global lock. It runs
// twice. Factory-shaped, the one checked, each dependency is reached the way a Factory definition
// reaches it (see `GlobalLockContainer.Accessor`): the same API over the one-lock design. By
// direct calls it tells what the API's accessors cost, which any container behind it pays.
//
//   MixedConfig (singleton)
//   MixedStore (cached)       -> MixedConfig
//   MixedClient (unique)      -> MixedConfig
//   MixedRepository (unique)  -> MixedStore, MixedClient
//   MixedRoot (unique)        -> MixedRepository, MixedConfig

final class MixedConfig: Sendable {}
final class MixedStore: Sendable {
    let config: MixedConfig
    init(config: MixedConfig) { self.config = config }
}
final class MixedClient: Sendable {
    let config: MixedConfig
    init(config: MixedConfig) { self.config = config }
}
final class MixedRepository: Sendable {
    let store: MixedStore
    let client: MixedClient
    init(store: MixedStore, client: MixedClient) {
        self.store = store
        self.client = client
    }
}
final class MixedRoot: Sendable {
    let repository: MixedRepository
    let config: MixedConfig
    init(repository: MixedRepository, config: MixedConfig) {
        self.repository = repository
        self.config = config
    }
}

extension Container {
    var mixedConfig: Factory<MixedConfig> { self { MixedConfig() }.singleton }
    var mixedStore: Factory<MixedStore> { self { MixedStore(config: self.mixedConfig()) }.cached }
    var mixedClient: Factory<MixedClient> { self { MixedClient(config: self.mixedConfig()) } }
    var mixedRepository: Factory<MixedRepository> {
        self { MixedRepository(store: self.mixedStore(), client: self.mixedClient()) }
    }
    var mixedRoot: Factory<MixedRoot> {
        self { MixedRoot(repository: self.mixedRepository(), config: self.mixedConfig()) }
    }
}

/// The baseline: one lock around a dictionary of closures and a dictionary of kept values. User
/// code (the closures) runs outside the lock; a register drops the value kept for its key, and
/// the value is released after the lock is given up.
final class GlobalLockContainer: @unchecked Sendable {
    /// What a key resolves to, and whether the value is kept (singleton and cached alike).
    struct Definition {
        let keeps: Bool
        let make: (GlobalLockContainer) -> AnyObject
    }

    /// What a Factory definition builds on each access: a value holding the container and a
    /// closure that captures it (`self { ... }`), resolved at once and dropped.
    struct Accessor {
        let container: GlobalLockContainer
        let key: String
        let capture: () -> GlobalLockContainer

        func callAsFunction<T: AnyObject>() -> T { container.resolve(key) }
    }

    private let lock = NSLock()
    private var definitions: [String: Definition] = [:]
    private var kept: [String: AnyObject] = [:]
    /// Whether the closures and rounds reach each dependency through an `Accessor`, as a Factory
    /// definition would, instead of calling `resolve`.
    let factoryShaped: Bool

    init(factoryShaped: Bool = false) {
        self.factoryShaped = factoryShaped
        define("config", keeps: true) { _ in MixedConfig() }
        // Each closure is chosen once, so the direct calls are exactly those of a plain container.
        if factoryShaped {
            define("store", keeps: true) { MixedStore(config: $0.accessor("config")()) }
            define("client", keeps: false) { MixedClient(config: $0.accessor("config")()) }
            define("repository", keeps: false) {
                MixedRepository(store: $0.accessor("store")(), client: $0.accessor("client")())
            }
            define("root", keeps: false) {
                MixedRoot(repository: $0.accessor("repository")(), config: $0.accessor("config")())
            }
        } else {
            define("store", keeps: true) { MixedStore(config: $0.resolve("config")) }
            define("client", keeps: false) { MixedClient(config: $0.resolve("config")) }
            define("repository", keeps: false) {
                MixedRepository(store: $0.resolve("store"), client: $0.resolve("client"))
            }
            define("root", keeps: false) {
                MixedRoot(repository: $0.resolve("repository"), config: $0.resolve("config"))
            }
        }
    }

    /// Not inlined, so the accessor is built as a Factory's getter builds one.
    @inline(never)
    func accessor(_ key: String) -> Accessor {
        Accessor(container: self, key: key, capture: { self })
    }

    /// Sets the closure of `key`, keeping its values when `keeps` is set.
    func define(_ key: String, keeps: Bool, _ make: @escaping (GlobalLockContainer) -> AnyObject) {
        lock.lock()
        definitions[key] = Definition(keeps: keeps, make: make)
        lock.unlock()
    }

    /// Replaces the closure of `key` and drops the value kept for it.
    func register(_ key: String, _ make: @escaping (GlobalLockContainer) -> AnyObject) {
        lock.lock()
        let old = definitions[key]
        definitions[key] = Definition(keeps: old?.keeps ?? false, make: make)
        let dropped = kept.removeValue(forKey: key)
        lock.unlock()
        withExtendedLifetime((old, dropped)) {}
    }

    /// The value of `key`: the kept one, or a new one from its closure, called outside the lock.
    func resolve<T: AnyObject>(_ key: String) -> T {
        lock.lock()
        if let value = kept[key] {
            lock.unlock()
            return unsafeDowncast(value, to: T.self)
        }
        let definition = definitions[key]!
        lock.unlock()
        let made = definition.make(self)
        guard definition.keeps else { return unsafeDowncast(made, to: T.self) }
        lock.lock()
        // Another thread may have kept a value meanwhile: the first one kept wins.
        let value = kept[key] ?? made
        kept[key] = value
        lock.unlock()
        return unsafeDowncast(value, to: T.self)
    }
}

enum Mixed {
    /// Queues the rounds are spread over, round `r` on queue `r % queueCount`: four, unless the
    /// environment's `FACTORYKIT_MIXED_QUEUES` says otherwise (1 measures the same work without
    /// contention).
    static let queueCount = Int(ProcessInfo.processInfo.environment["FACTORYKIT_MIXED_QUEUES"] ?? "") ?? 4
    /// Resolutions of the graph's root per round.
    static let resolutionsPerRound = 4

    /// One round through FactoryKit: register the singleton, the cached or a unique factory in
    /// turn (a register drops the value kept), then resolve the root.
    static func factoryKitRound(_ round: Int, _ container: Container, _ sink: Sink) {
        factoryKitRegister(round, container)
        for _ in 0..<resolutionsPerRound { sink.keep(container.mixedRoot()) }
    }

    /// The same round on the baseline.
    static func baselineRound(_ round: Int, _ container: GlobalLockContainer, _ sink: Sink) {
        baselineRegister(round, container)
        if container.factoryShaped {
            for _ in 0..<resolutionsPerRound { sink.keep(container.accessor("root")() as MixedRoot) }
        } else {
            for _ in 0..<resolutionsPerRound { sink.keep(container.resolve("root") as MixedRoot) }
        }
    }

    /// Round `round`'s register through FactoryKit.
    static func factoryKitRegister(_ round: Int, _ container: Container) {
        switch round % 3 {
        case 0: container.register(\.mixedConfig) { _ in MixedConfig() }
        case 1: container.register(\.mixedStore) { MixedStore(config: $0.mixedConfig()) }
        default: container.register(\.mixedClient) { MixedClient(config: $0.mixedConfig()) }
        }
    }

    /// Round `round`'s register on the baseline.
    static func baselineRegister(_ round: Int, _ container: GlobalLockContainer) {
        switch (round % 3, container.factoryShaped) {
        case (0, _): container.register("config") { _ in MixedConfig() }
        case (1, true): container.register("store") { MixedStore(config: $0.accessor("config")()) }
        case (1, false): container.register("store") { MixedStore(config: $0.resolve("config")) }
        case (_, true): container.register("client") { MixedClient(config: $0.accessor("config")()) }
        case (_, false): container.register("client") { MixedClient(config: $0.resolve("config")) }
        }
    }

    /// Seconds taken by `rounds` rounds, each queued on one of four serial queues, on a new
    /// container made by `makeContainer`.
    static func seconds<C: Sendable>(
        rounds: Int, makeContainer: () -> C, round: @escaping @Sendable (Int, C, Sink) -> Void
    ) -> Double {
        let container = makeContainer()
        let queues = (0..<queueCount).map { DispatchQueue(label: "factorykit.benchmarks.mixed.\($0)") }
        let sinks = (0..<queueCount).map { _ in Sink() }
        let group = DispatchGroup()
        let began = WallClock.clock.now
        for index in 0..<rounds {
            let sink = sinks[index % queueCount]
            queues[index % queueCount].async(group: group) { round(index, container, sink) }
        }
        group.wait()
        let (seconds, attoseconds) = (WallClock.clock.now - began).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The medians of `runs` runs of each side, the sides taking turns so load drifts alike.
    static func measure(rounds: Int, runs: Int) -> (
        factoryKit: Measurement, baseline: Measurement, factoryShaped: Measurement
    ) {
        var factoryKit: [Double] = []
        var baseline: [Double] = []
        var factoryShaped: [Double] = []
        for _ in 0..<runs {
            baseline.append(seconds(rounds: rounds, makeContainer: { GlobalLockContainer() }, round: baselineRound))
            factoryKit.append(seconds(rounds: rounds, makeContainer: Container.init, round: factoryKitRound))
            factoryShaped.append(
                seconds(
                    rounds: rounds, makeContainer: { GlobalLockContainer(factoryShaped: true) }, round: baselineRound)
            )
        }
        return (Measurement(runs: factoryKit), Measurement(runs: baseline), Measurement(runs: factoryShaped))
    }
}
