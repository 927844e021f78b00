import FactoryKit
import Foundation
import Testing

/// A factory whose closure sleeps, so that every thread is inside the first resolution at once.
private func slowCounted(_ counter: Counter) -> Counted {
    Thread.sleep(forTimeInterval: 0.2)
    return Counted(counter)
}

extension Scope {
    static let concurrencySession = Cached()
}

/// Proves the promises of API.md §17 D1, D2, D8 and D9 under real contention.
@Suite
struct ConcurrencyTests {
    /// Resolves `factory` on 8 threads at once and checks that its closure ran once and everyone
    /// got that instance.
    private func expectExactlyOnce(
        _ scope: Scope, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let counter = Counter()
        let container = Container()
        let factory = Factory<Counted>(container, key: "concurrencyOnce") { slowCounted(counter) }
        let seen = LogRecorder()
        Scope.$singleton.withValue(Scope.Singleton()) {
            let singleton = Scope.singleton
            runConcurrently(8) { _ in
                Scope.$singleton.withValue(singleton) {
                    let value = scope === Scope.singleton ? factory.singleton() : factory.scope(scope)()
                    seen.record("\(ObjectIdentifier(value).hashValue)")
                    // Keep shared-scope values alive until every thread has resolved.
                    withExtendedLifetime(value) { Thread.sleep(forTimeInterval: 0.3) }
                }
            }
            #expect(counter.count == 1, "closure ran \(counter.count) times", sourceLocation: sourceLocation)
            #expect(Set(seen.lines).count == 1, sourceLocation: sourceLocation)
        }
    }

    @Test func cachedCreatesOnceUnderConcurrentFirstResolution() { expectExactlyOnce(.cached) }
    @Test func singletonCreatesOnceUnderConcurrentFirstResolution() { expectExactlyOnce(Scope.singleton) }
    @Test func sharedCreatesOnceUnderConcurrentFirstResolution() { expectExactlyOnce(.shared) }
    @Test func customScopeCreatesOnceUnderConcurrentFirstResolution() { expectExactlyOnce(.concurrencySession) }

    @Test func scopeOnParametersCreatesOncePerParameter() {
        let counter = Counter()
        let container = Container()
        let factory = ParameterFactory<Int, Counted>(container, key: "concurrencyParameter") { _ in slowCounted(counter)
        }
        .cached.scopeOnParameters
        let seen = LogRecorder()
        runConcurrently(8) { index in
            let value = factory(index % 2)
            seen.record("\(index % 2) \(ObjectIdentifier(value).hashValue)")
        }
        #expect(counter.count == 2)
        #expect(Set(seen.lines).count == 2)
    }

    @Test func expiredTimeToLiveIsRecreatedOnce() {
        let counter = Counter()
        let container = Container()
        // A time to live far above a scheduling delay on a loaded machine, so that the eight
        // threads' hits all land within it; the first value has expired when they start.
        let factory = Factory<Counted>(container, key: "concurrencyTimed") { slowCounted(counter) }.cached.timeToLive(
            1)
        _ = factory()
        Thread.sleep(forTimeInterval: 1.1)
        runConcurrently(8) { _ in _ = factory() }
        #expect(counter.count == 2)
    }

    @Test func unrelatedResolutionsNeverWaitForASlowClosure() {
        // API.md D2: a process-wide lock made every resolution wait behind any slow closure.
        let slowStarted = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let outcome = LogRecorder()
        let slow = Factory<Int>(Container(), key: "concurrencySlow") {
            slowStarted.signal()
            outcome.record(release.wait(timeout: .now() + 60) == .success ? "released" : "timed out")
            return 1
        }.singleton
        let fast = Factory<Int>(Container(), key: "concurrencyFast") { 2 }.cached
        Scope.$singleton.withValue(Scope.Singleton()) {
            let singleton = Scope.singleton
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                Scope.$singleton.withValue(singleton) { _ = slow() }
            }
            slowStarted.wait()
            // With a global lock this would block until the slow closure timed out.
            #expect(fast() == 2)
            release.signal()
            group.wait()
        }
        #expect(outcome.lines == ["released"])
    }

    @Test func closureThatResolvesOnAnotherThreadDoesNotDeadlock() {
        let container = Container()
        let queue = DispatchQueue(label: "concurrency.other")
        let inner = Factory<Int>(container, key: "concurrencyInner") { 41 }.cached
        let outcome = LogRecorder()
        let outer = Factory<Int>(container, key: "concurrencyOuter") {
            // Blocks this thread on one that resolves from the same container; bounded, so a
            // deadlock fails the test instead of hanging it.
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var value = 0
            queue.async {
                value = inner() + 1
                done.signal()
            }
            guard done.wait(timeout: .now() + 60) == .success else {
                outcome.record("deadlock")
                return -1
            }
            return value
        }.cached
        #expect(outer() == 42)
        #expect(outcome.lines.isEmpty)
    }

    @Test func graphValuesAreNotSharedAcrossThreads() {
        // API.md D9: one process-wide graph cache leaked values between concurrent resolutions.
        let container = Container()
        let counter = Counter()
        let leaf = Factory<Counted>(container, key: "concurrencyLeaf") { Counted(counter) }.graph
        let root = Factory<(Counted, Counted)>(container, key: "concurrencyRoot") {
            let first = leaf()
            Thread.sleep(forTimeInterval: 0.05)
            return (first, leaf())
        }
        let pairs = LogRecorder()
        runConcurrently(4) { _ in
            let (a, b) = root()
            pairs.record("\(a === b) \(a.number)")
        }
        #expect(pairs.lines.allSatisfy { $0.hasPrefix("true") })
        #expect(Set(pairs.lines).count == 4)
    }

    @Test func stressResolvingRegisteringAndResettingAtOnce() {
        let container = Container()
        let counter = Counter()
        runConcurrently(8) { index in
            for round in 0..<400 {
                let cached = Factory<Counted>(container, key: "stressCached") { Counted(counter) }.cached
                let unique = Factory<Counted>(container, key: "stressUnique") { Counted(counter) }
                let parameter = ParameterFactory<Int, Int>(container, key: "stressParameter") { $0 * 2 }.cached
                    .scopeOnParameters
                switch (index + round) % 8 {
                case 0: cached.register { Counted(counter) }
                case 1: container.manager.reset(options: .scope)
                case 2: cached.reset()
                case 3:
                    container.manager.push()
                    container.manager.pop()
                case 4: _ = parameter(round % 5)
                case 5: unique.onArg("stress-\(round)") { Counted(counter) }
                default: break
                }
                _ = cached()
                _ = unique()
                #expect(parameter(3) == 6)
            }
        }
        #expect(counter.count > 0)
    }

    @Test func stressScopeModifiersRacingResetsAndResolutions() {
        // A scope modifier that changes nothing returns without the lock; it must never skip one
        // that changes something, whatever writes and resets race it.
        let container = Container()
        let counter = Counter()
        let factory = Factory<Counted>(container, key: "stressScopes") { Counted(counter) }
        runConcurrently(8) { index in
            for round in 0..<400 {
                switch (index + round) % 6 {
                case 0: _ = factory.unique()
                case 1: _ = factory.singleton()
                case 2: container.manager.reset(options: .all)
                case 3: factory.reset(.scope)
                case 4: _ = factory.cached.once()()
                default: _ = factory.cached()
                }
            }
        }
        factory.reset()
        let cached = factory.cached
        #expect(cached() === cached())
        let unique = factory.unique
        #expect(unique() !== unique())
        #expect(factory.cached() === factory.cached())
        let once = factory.singleton.once()
        #expect(once() === factory.unique())  // after once(), the definition's .unique is blocked
        factory.reset()
        #expect(factory.unique() !== factory.unique())
    }

    @Test func stressSingletonsAcrossContainersAndTasks() async {
        let counter = Counter()
        let singleton = Scope.Singleton()
        await Scope.$singleton.withValue(singleton) {
            await withTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<32 {
                    group.addTask {
                        let factory = Factory<Counted>(Container(), key: "stressSingleton") { Counted(counter) }
                            .singleton
                        return ObjectIdentifier(factory())
                    }
                }
                var seen = Set<ObjectIdentifier>()
                for await id in group { seen.insert(id) }
                #expect(seen.count == 1)
            }
        }
        #expect(counter.count == 1)
    }
}

/// Waiting, resets during creation, and the slow-wait warning.
@Suite
struct WaitingTests {
    @Test func aResetDuringCreationHandsTheValueOutWithoutCachingIt() {
        let container = Container()
        let counter = Counter()
        let factory = Factory<Counted>(container, key: "waitingReset") {
            let value = Counted(counter)
            container.manager.reset(options: .scope)
            return value
        }.cached
        let first = factory()
        #expect(first.number == 1)
        let second = factory()
        #expect(second !== first)
        #expect(counter.count == 2)
    }

    /// The first thread to wait installs the condition the others sleep on, racing the creator's
    /// `finish`: over many rounds, some waiters arrive before the condition exists, some as it is
    /// installed, some after the value is out. Each gets the one value, woken by the creator. A
    /// lost wake-up leaves a waiter asleep until its slow-wait timeout (5 s) instead: a round of
    /// four threads and a closure of at most 150 µs that lasts 4 s is one.
    @Test func waitersArrivingAsTheCreationFinishesGetItsValue() {
        for round in 0..<300 {
            let counter = Counter()
            let factory = Factory<Counted>(Container(), key: "finishRace") {
                usleep(UInt32(round % 4) * 50)
                return Counted(counter)
            }.cached
            let seen = LogRecorder()
            let began = ContinuousClock.now
            runConcurrently(4) { _ in seen.record("\(ObjectIdentifier(factory()).hashValue)") }
            let took = ContinuousClock.now - began
            #expect(counter.count == 1, "round \(round): the closure ran \(counter.count) times")
            #expect(Set(seen.lines).count == 1, "round \(round): the waiters got different values")
            if took >= .seconds(4) {
                Issue.record("round \(round) took \(took): a waiter slept until its timeout, not woken")
                break
            }
        }
    }

    @Test func aSlowCreationMakesItsWaitersSaySoOnce() {
        let mark = TestLog.mark()
        let container = Container()
        let previous = container.manager.waitWarningInterval
        container.manager.waitWarningInterval = 0.05
        defer { container.manager.waitWarningInterval = previous }
        let factory = Factory<Counted>(container, key: "waitingSlow") {
            Thread.sleep(forTimeInterval: 1.0)
            return Counted(Counter())
        }.cached
        runConcurrently(2) { _ in _ = factory() }
        let warnings = TestLog.lines(since: mark).filter {
            $0.contains("still waiting after") && $0.contains("Container.waitingSlow<Counted>")
        }
        #expect(warnings.count == 1)
    }
}

/// A cached value whose `deinit` resolves from its own container: dropping it must not happen
/// under the container's lock, which is not recursive (API.md §17: no user code under a lock).
///
/// It holds its container, which holds it (cached, as a singleton, or through a registration that
/// captures the container): a cycle built on purpose. The tests that leave one behind break it at the end with
/// `breakCycle`, so that the AddressSanitizer run (`.ci/check-asan`) reports no leak.
private final class ResolvesWhenReleased: @unchecked Sendable {
    let container: Container
    let seen: LogRecorder

    init(_ container: Container, _ seen: LogRecorder) {
        self.container = container
        self.seen = seen
    }

    deinit { seen.record("released, resolved \(container.releaseProbeNumber())") }
}

extension Container {
    // A singleton, so that a value released under a singleton's lock would also be caught.
    fileprivate var releaseProbeNumber: Factory<Int> { self { 42 }.singleton }
}

extension Scope {
    fileprivate static let releaseProbeSession = Cached()
}

@Suite
struct ReleasingOutsideTheLockTests {
    private func cachedProbe(_ container: Container, _ seen: LogRecorder) -> Factory<ResolvesWhenReleased> {
        Factory(container, key: "releaseProbe") { ResolvesWhenReleased(container, seen) }.cached
    }

    /// Drops what `container` keeps that holds it: its cached values and registrations, and the
    /// singletons of `singletons`, a test's own instance. Runs after the expectations; the values
    /// it drops record a second line in `seen`, which nothing reads any more.
    private func breakCycle(_ container: Container, singletons: Scope.Singleton? = nil) {
        container.manager.reset()
        singletons?.reset()
    }

    @Test func aRegistrationReleasesTheValueItReplacesAfterUnlocking() {
        let container = Container()
        let seen = LogRecorder()
        _ = cachedProbe(container, seen)()
        cachedProbe(container, seen).register { ResolvesWhenReleased(container, seen) }
        #expect(seen.lines == ["released, resolved 42"])
        breakCycle(container)
    }

    @Test func aScopeChangeReleasesTheCachedValueAfterUnlocking() {
        let container = Container()
        let seen = LogRecorder()
        _ = cachedProbe(container, seen)()
        _ = cachedProbe(container, seen).scope(.shared)
        #expect(seen.lines == ["released, resolved 42"])
    }

    @Test func scopeOnParametersReleasesTheCachedValueAfterUnlocking() {
        let container = Container()
        let seen = LogRecorder()
        let factory = ParameterFactory<Int, ResolvesWhenReleased>(container, key: "releaseProbeParameter") { _ in
            ResolvesWhenReleased(container, seen)
        }.cached
        _ = factory(1)
        _ = factory.scopeOnParameters
        #expect(seen.lines == ["released, resolved 42"])
    }

    @Test func popReleasesTheValuesItReplacesAfterUnlocking() {
        let container = Container()
        let seen = LogRecorder()
        container.manager.push()
        _ = cachedProbe(container, seen)()
        container.manager.pop()
        #expect(seen.lines == ["released, resolved 42"])
    }

    @Test func anExpiredValueIsReleasedAfterUnlocking() {
        let container = Container()
        let seen = LogRecorder()
        let factory = cachedProbe(container, seen).timeToLive(0)  // expires at once
        _ = factory()
        _ = factory()  // finds the first expired and replaces it
        #expect(seen.lines == ["released, resolved 42"])
        breakCycle(container)
    }

    @Test func anExpiredSingletonIsReleasedAfterUnlocking() {
        let singletons = Scope.Singleton()
        Scope.$singleton.withValue(singletons) {
            let container = Container()
            let seen = LogRecorder()
            let factory = Factory(container, key: "releaseProbeExpiring") { ResolvesWhenReleased(container, seen) }
            _ = factory.singleton.timeToLive(0)()
            _ = factory.singleton.timeToLive(0)()
            #expect(seen.lines == ["released, resolved 42"])
            breakCycle(container, singletons: singletons)
        }
    }

    @Test func valuesOfAScopeTheCacheNoLongerServesAreReleasedAfterUnlocking() {
        let container = Container()
        let seen = LogRecorder()
        let factory = Factory(container, key: "releaseProbeDefaultScope") { ResolvesWhenReleased(container, seen) }
        container.manager.defaultScope = .cached
        _ = factory()
        container.manager.defaultScope = .releaseProbeSession
        _ = factory()  // the cache now serves another scope instance and drops the first value
        #expect(seen.lines == ["released, resolved 42"])
        breakCycle(container)
    }

    @Test func aSingletonRegistrationReleasesTheValueAfterUnlocking() {
        let singletons = Scope.Singleton()
        Scope.$singleton.withValue(singletons) {
            let container = Container()
            let seen = LogRecorder()
            let factory = Factory(container, key: "releaseProbeSingleton") { ResolvesWhenReleased(container, seen) }
            _ = factory.singleton()
            factory.singleton.register { ResolvesWhenReleased(container, seen) }
            #expect(seen.lines == ["released, resolved 42"])
            breakCycle(container, singletons: singletons)
        }
    }
}
