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

/// Values withdrawn from lock-free readers are released once no reader can hold them: none may be
/// released while a reader holds it (ThreadSanitizer and AddressSanitizer runs check that), none
/// may be left behind once the readers are gone, and a write returns only once what it withdrew
/// is released, however busy readers elsewhere are.
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

    /// Readers of another container keep entering and leaving sections on other threads; each
    /// reset and registration here must still have released what it dropped when it returns.
    @Test func aWriteReturnsOnceWhatItWithdrewIsReleasedWhileOthersRead() {
        let population = Population()
        let busy = Container()
        let busyFactory = Factory<ReleaseProbe>(busy, key: "retiredBusyReaders") { ReleaseProbe(Population()) }
        _ = busyFactory.cached()
        let stop = AtomicStop()
        let readers = DispatchGroup()
        for _ in 0..<3 {
            DispatchQueue.global().async(group: readers) {
                while !stop.isSet { for _ in 0..<100 { _ = busyFactory.cached() } }
            }
        }
        defer {
            stop.set()
            readers.wait()
        }
        let singleton = Scope.Singleton()
        let container = Container()
        let factory = Factory<ReleaseProbe>(container, key: "retiredPromptly") { ReleaseProbe(population) }
        var failures: [String] = []
        Scope.$singleton.withValue(singleton) {
            for round in 0..<300 {
                // Published after the second resolution; the reset withdraws it.
                _ = factory.singleton()
                _ = factory.singleton()
                singleton.reset()
                if population.alive != 0 { failures.append("round \(round): alive after Scope.Singleton.reset()") }
                _ = factory.cached()
                _ = factory.cached()
                container.manager.reset(options: .scope)
                if population.alive != 0 { failures.append("round \(round): alive after reset(options: .scope)") }
                _ = factory.cached()
                _ = factory.cached()
                factory.register { ReleaseProbe(population) }
                if population.alive != 0 { failures.append("round \(round): alive after register") }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}

/// A flag set once, read by spinning threads.
private final class AtomicStop: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
