import FactoryKit
import Foundation
import Testing

/// Counts live `ReleaseProbe` instances.
private final class Population: @unchecked Sendable {
    private let lock = NSLock()
    private var living = 0

    func change(by delta: Int) {
        lock.lock()
        defer { lock.unlock() }
        living += delta
    }

    var alive: Int {
        lock.lock()
        defer { lock.unlock() }
        return living
    }
}

private final class ReleaseProbe: @unchecked Sendable {
    let population: Population

    init(_ population: Population) {
        self.population = population
        population.change(by: 1)
    }

    deinit { population.change(by: -1) }
}

/// Values withdrawn from lock-free readers are released by the writer or by the last reader in
/// the way, never waited for: none may be released while a reader holds it (ThreadSanitizer and
/// AddressSanitizer runs check that), and none may be left behind once the readers are gone.
@Suite
struct RetiredReleaseTests {
    @Test func valuesResetUnderReadersAreAllReleasedOnceTheyStop() {
        let population = Population()
        let singleton = Scope.Singleton()
        let container = Container()
        let factory = Factory<ReleaseProbe>(container, key: "retiredUnderReaders") { ReleaseProbe(population) }
        let stop = Date().addingTimeInterval(0.5)
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            Scope.$singleton.withValue(singleton) {
                while Date() < stop {
                    if lane == 0 {
                        singleton.reset()
                    } else {
                        for _ in 0..<100 { _ = factory.singleton() }
                    }
                }
            }
        }
        // The last reset, with no reader left, releases whatever still waited.
        singleton.reset()
        #expect(population.alive == 0)
    }

    @Test func cachedValuesReplacedUnderReadersAreAllReleasedOnceTheyStop() {
        let population = Population()
        let container = Container()
        let factory = Factory<ReleaseProbe>(container, key: "retiredCachedUnderReaders") { ReleaseProbe(population) }
        let stop = Date().addingTimeInterval(0.5)
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            while Date() < stop {
                if lane == 0 {
                    container.manager.reset(options: .scope)
                } else {
                    for _ in 0..<100 { _ = factory.cached() }
                }
            }
        }
        container.manager.reset(options: .scope)
        #expect(population.alive == 0)
    }
}
