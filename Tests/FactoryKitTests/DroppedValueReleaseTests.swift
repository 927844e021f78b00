import FactoryKit
import Foundation
import Testing

/// Values a write drops under racing readers are all released: none while a reader holds it
/// (ThreadSanitizer and AddressSanitizer runs check that), none left behind once the readers are
/// gone, and a write returns only once what it dropped is released, however busy readers
/// elsewhere are.
@Suite
struct DroppedValueReleaseTests {
    @Test func valuesResetUnderReadersAreAllReleasedOnceTheyStop() {
        let census = Census()
        let singleton = Scope.Singleton()
        let container = Container()
        let factory = Factory<Tracked>(container, key: "retiredUnderReaders") { Tracked(census) }
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
        #expect(census.alive == 0)
    }

    @Test func cachedValuesReplacedUnderReadersAreAllReleasedOnceTheyStop() {
        let census = Census()
        let container = Container()
        let factory = Factory<Tracked>(container, key: "retiredCachedUnderReaders") { Tracked(census) }
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
        #expect(census.alive == 0)
    }

    /// Readers of another container keep entering and leaving sections on other threads; each
    /// reset and registration here must still have released what it dropped when it returns.
    @Test func aWriteReturnsOnceWhatItWithdrewIsReleasedWhileOthersRead() {
        let census = Census()
        let busy = Container()
        let busyFactory = Factory<Tracked>(busy, key: "retiredBusyReaders") { Tracked(Census()) }
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
        let factory = Factory<Tracked>(container, key: "retiredPromptly") { Tracked(census) }
        var failures: [String] = []
        Scope.$singleton.withValue(singleton) {
            for round in 0..<300 {
                // Published after the second resolution; the reset withdraws it.
                _ = factory.singleton()
                _ = factory.singleton()
                singleton.reset()
                if census.alive != 0 { failures.append("round \(round): alive after Scope.Singleton.reset()") }
                _ = factory.cached()
                _ = factory.cached()
                container.manager.reset(options: .scope)
                if census.alive != 0 { failures.append("round \(round): alive after reset(options: .scope)") }
                _ = factory.cached()
                _ = factory.cached()
                factory.register { Tracked(census) }
                if census.alive != 0 { failures.append("round \(round): alive after register") }
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
