import FactoryKit
import Foundation
import Testing

/// The cheapest resolutions (a factory without options, a plain singleton or cached hit) must
/// still see every write that could change their answer, and a value the scope lets go must be
/// released, however many readers race it. (These guarded the lock-free published hits of an
/// earlier core; they hold any shortcut a later one takes to the same standard.)
@Suite
struct HitVisibilityTests {
    /// Runs `body` with a singleton scope of its own, so no other test's resets interfere.
    private func isolated(_ body: () -> Void) {
        Scope.$singleton.withValue(Scope.Singleton()) { body() }
    }

    @Test func aResetReleasesThePublishedValueAndTheNextResolutionCreatesAnother() {
        let census = Census()
        isolated {
            let container = Container()
            let factory = Factory<Tracked>(container, key: "publishedReset") { Tracked(census) }
            do {
                let first = factory.singleton()
                // The second resolution publishes the hit; the third reads it without the lock.
                #expect(factory.singleton() === first)
                #expect(factory.singleton() === first)
                #expect(first.number == 1)
            }
            Scope.singleton.reset()
            #expect(census.alive == 0, "the published hit kept a reset singleton alive")
            let second = factory.singleton()
            #expect(second.number == 2)
            #expect(factory.singleton() === second)
            #expect(factory.singleton() === second)
        }
    }

    @Test func aRegistrationReplacesAPublishedHit() {
        isolated {
            let container = Container()
            let factory = Factory<Greeting>(container, key: "publishedRegister") { Greeter() }
            for _ in 0..<3 { #expect(factory.singleton().text == "hello") }
            factory.register { MockGreeter() }
            for _ in 0..<3 { #expect(factory.singleton().text == "mock") }
        }
    }

    @Test func aDecoratorAddedLaterRunsOnPublishedHits() {
        isolated {
            let container = Container()
            let factory = Factory<Greeting>(container, key: "publishedDecorator") { Greeter() }
            for _ in 0..<3 { _ = factory.singleton() }
            let seen = LogRecorder()
            _ = factory.decorator { seen.record($0.text) }
            _ = factory.singleton()
            _ = factory.singleton()
            #expect(seen.lines == ["hello", "hello"])
        }
    }

    @Test func aContainerDecoratorAddedLaterRunsOnPublishedHits() {
        isolated {
            let container = Container()
            let factory = Factory<Greeting>(container, key: "publishedContainerDecorator") { Greeter() }
            for _ in 0..<3 { _ = factory.singleton() }
            let seen = LogRecorder()
            container.decorator { _ in seen.record("decorated") }
            _ = factory.singleton()
            #expect(seen.lines == ["decorated"])
        }
    }

    @Test func aScopeChangeEndsPublishedHits() {
        isolated {
            let census = Census()
            let container = Container()
            let factory = Factory<Tracked>(container, key: "publishedScopeChange") { Tracked(census) }
            for _ in 0..<3 { _ = factory.singleton() }
            let unique = factory.unique
            #expect(unique() !== unique())
        }
    }

    @Test func aBoundSingletonScopeIsNotAnsweredFromAnotherOnesPublishedHit() {
        let census = Census()
        let container = Container()
        let factory = Factory<Tracked>(container, key: "publishedTwoScopes") { Tracked(census) }
        let outer = Scope.Singleton()
        let inner = Scope.Singleton()
        let fromOuter = Scope.$singleton.withValue(outer) { (0..<3).map { _ in factory.singleton() } }
        let fromInner = Scope.$singleton.withValue(inner) { (0..<3).map { _ in factory.singleton() } }
        #expect(Set(fromOuter.map(ObjectIdentifier.init)).count == 1)
        #expect(Set(fromInner.map(ObjectIdentifier.init)).count == 1)
        #expect(fromOuter[0] !== fromInner[0])
        #expect(Scope.$singleton.withValue(outer) { factory.singleton() } === fromOuter[0])
    }

    @Test func twoDefinitionsSharingAKeyNeverShareAPublishedHit() {
        isolated {
            let census = Census()
            let container = Container()
            // Same container, name and type; different definition sites (lines).
            let first = Factory<Tracked>(container, key: "publishedSameKey") { Tracked(census) }
            let second = Factory<Tracked>(container, key: "publishedSameKey") { Tracked(census) }
            let a = (0..<3).map { _ in first.singleton() }
            let b = (0..<3).map { _ in second.singleton() }
            #expect(a[0] === a[2])
            #expect(b[0] === b[2])
            #expect(a[0] !== b[0])
        }
    }

    @Test func tracesAndGraphsStillSeePublishedHits() {
        isolated {
            let container = Container()
            let factory = Factory<Greeting>(container, key: "publishedTraced") { Greeter() }
            for _ in 0..<3 { _ = factory.singleton() }
            let graph = DependencyGraph.record { _ = factory.singleton() }
            // Recordings are process-wide; other tests may resolve meanwhile.
            let labels = graph.nodes.filter { $0.factory == "publishedTraced" }.map(\.label)
            #expect(labels == ["Container.publishedTraced: Greeting [singleton]"])
        }
    }

    @Test func aFactoryWithoutOptionsSeesEveryLaterWriteOfItsOwn() {
        let container = Container()
        let factory = Factory<Greeting>(container, key: "plainLater") { Greeter() }
        // The first resolution publishes that the factory has no options; the others use that.
        for _ in 0..<3 { #expect(factory().text == "hello") }
        factory.register { MockGreeter() }
        #expect(factory().text == "mock")
        factory.reset(.registration)
        for _ in 0..<3 { #expect(factory().text == "hello") }
        FactoryContext.setArg("plain-later", forKey: "plain-later")
        defer { FactoryContext.removeArg(forKey: "plain-later") }
        factory.onArg("plain-later") { MockGreeter("arg") }
        #expect(factory().text == "arg")
        factory.reset(.context)
        for _ in 0..<3 { #expect(factory().text == "hello") }
        let seen = LogRecorder()
        _ = factory.decorator { seen.record($0.text) }
        _ = factory()
        #expect(seen.lines == ["hello"])
        _ = factory.cached
        #expect(factory() === factory())
    }

    @Test func aFactoryWithoutOptionsSeesContainerWideChanges() {
        let census = Census()
        let container = Container()
        let factory = Factory<Tracked>(container, key: "plainContainerWide") { Tracked(census) }
        for _ in 0..<3 { _ = factory() }
        container.manager.defaultScope = .cached
        #expect(factory() === factory())
        container.manager.defaultScope = nil
        #expect(factory() !== factory())
        let seen = LogRecorder()
        container.decorator { _ in seen.record("decorated") }
        _ = factory()
        #expect(seen.lines == ["decorated"])
        container.decorator(nil)
        for _ in 0..<3 { _ = factory() }
        container.manager.push()
        _ = factory.register { Tracked(census) }.cached
        #expect(factory() === factory())
        container.manager.pop()
        #expect(factory() !== factory())
        #expect(seen.lines == ["decorated"])
    }

    @Test func aFactoryWithoutOptionsSeesARegistrationMadeOnAnotherThread() {
        // A factory without options resolves without the container's lock. The writer makes it
        // plain (reset, then resolve), registers round `r`, and says so; a reader whose whole
        // resolution fell between two of the writer's steps must see exactly round `r`.
        let container = Container()
        let factory = Factory<Int>(container, key: "plainAcrossThreads") { 0 }
        let steps = SequencedRound()
        let rounds = 1_000
        runConcurrently(3) { index in
            if index == 0 {
                for round in 1...rounds {
                    steps.begin()
                    factory.reset(.registration)
                    #expect(factory() == 0)
                    factory.register { round }
                    steps.end(round)
                    // Each round, at least one reader's resolution falls in the window.
                    #expect(steps.awaitCheck(of: round))
                }
                steps.finish()
                return
            }
            while !steps.isFinished {
                let (before, round) = steps.read()
                let value = factory()
                guard before % 2 == 0, steps.read().sequence == before else { continue }
                #expect(value == round)
                steps.checked(round)
            }
        }
    }

    @Test func asyncSingletonHitsSeeResetsRegistrationsAndDecorators() async throws {
        let census = Census()
        let singleton = Scope.Singleton()
        try await Scope.$singleton.withValue(singleton) {
            let container = Container()
            let factory = AsyncFactory<Tracked>(container, key: "publishedAsync") { Tracked(census) }.singleton
            do {
                let first = try await factory()
                // The second resolution publishes the hit; the third reads it without the lock.
                #expect(try await factory() === first)
                #expect(try await factory() === first)
            }
            singleton.reset()
            #expect(census.alive == 0, "the published hit kept a reset singleton alive")
            let second = try await factory()
            #expect(second.number == 2)
            #expect(try await factory() === second)
            _ = factory.register { Tracked(census) }
            let registered = try await factory()
            #expect(registered.number == 3)
            #expect(try await factory() === registered)
            let seen = LogRecorder()
            _ = factory.decorator { seen.record("\($0.number)") }
            _ = try await factory()
            #expect(seen.lines == ["3"])
        }
        singleton.reset()
        #expect(census.alive == 0)
    }

    @Test func cachedHitsSeeResetsRegistrationsScopeChangesAndPushPop() {
        let census = Census()
        do {
            let container = Container()
            let factory = Factory<Tracked>(container, key: "publishedCached") { Tracked(census) }
            // The second resolution publishes the hit; the others read it without the lock.
            let first = factory.cached()
            for _ in 0..<3 { #expect(factory.cached() === first) }
            container.manager.push()
            container.manager.reset(options: .scope)
            let second = factory.cached()
            for _ in 0..<3 { #expect(factory.cached() === second) }
            container.manager.pop()
            for _ in 0..<3 { #expect(factory.cached() === first) }
            container.manager.reset(scope: .cached)
            let third = factory.cached()
            #expect(third !== first && third !== second)
            for _ in 0..<3 { #expect(factory.cached() === third) }
            factory.register { Tracked(census) }
            let registered = factory.cached()
            #expect(registered !== third)
            for _ in 0..<3 { #expect(factory.cached() === registered) }
            let unique = factory.unique
            #expect(unique() !== unique())
        }
        #expect(census.alive == 0, "a published cached hit kept a value alive")
    }

    @Test func twoDefinitionsSharingAKeyShareACachedValueAsBefore() {
        let census = Census()
        let container = Container()
        let first = Factory<Tracked>(container, key: "publishedSharedCache") { Tracked(census) }.cached
        let second = Factory<Tracked>(container, key: "publishedSharedCache") { Tracked(census) }.cached
        let value = first()
        for _ in 0..<3 {
            #expect(first() === value)
            #expect(second() === value)
        }
    }

    @Test func asyncCachedHitsSeeResets() async throws {
        let census = Census()
        do {
            let container = Container()
            let factory = AsyncFactory<Tracked>(container, key: "publishedAsyncCached") { Tracked(census) }.cached
            let first = try await factory()
            for _ in 0..<3 { #expect(try await factory() === first) }
            container.manager.reset(options: .scope)
            let second = try await factory()
            #expect(second !== first)
            for _ in 0..<3 { #expect(try await factory() === second) }
        }
        #expect(census.alive == 0)
    }

    @Test func stressReadingCachedHitsWhileResetting() {
        let census = Census()
        do {
            let container = Container()
            let factory = Factory<Tracked>(container, key: "publishedCachedStress") { Tracked(census) }
            runConcurrently(6) { index in
                for round in 0..<2_000 {
                    switch (index, round % 50) {
                    case (0, 0): container.manager.reset(options: .scope)
                    case (1, 0): factory.register { Tracked(census) }
                    case (2, 0):
                        container.manager.push()
                        container.manager.pop()
                    case (3, 0): factory.reset(.scope)
                    default:
                        let value = factory.cached()
                        #expect(value.number > 0)
                    }
                }
            }
            // The threads' closures, which hold the container, may outlive the wait by a moment;
            // the cache is emptied here so that only a leak can leave an instance alive.
            container.manager.reset(options: .scope)
        }
        #expect(census.alive == 0)
    }

    @Test func stressReadingPublishedHitsWhileResetting() {
        // Readers take published values while other threads reset the scope, re-register and
        // change the decorator. A value must never be used after its release (ThreadSanitizer and
        // the census check that), and once everything settles none may be left alive.
        let census = Census()
        isolated {
            let singleton = Scope.singleton
            let container = Container()
            let factory = Factory<Tracked>(container, key: "publishedStress") { Tracked(census) }
            runConcurrently(6) { index in
                Scope.$singleton.withValue(singleton) {
                    for round in 0..<2_000 {
                        switch (index, round % 50) {
                        case (0, 0): singleton.reset()
                        case (1, 0): factory.register { Tracked(census) }
                        case (2, 0): _ = factory.decorator { #expect($0.number > 0) }
                        case (3, 0): factory.reset(.scope)
                        default:
                            let value = factory.singleton()
                            #expect(value.number > 0)
                        }
                    }
                }
            }
            singleton.reset()
            factory.reset()
        }
        #expect(census.alive == 0)
    }

    /// Plans that only read are made under the container's lock shared with other readers: a
    /// registration to run, a cached value to hand over. A resolution that begins after a
    /// `register` returned must still get a value of that registration, never of the one before.
    @Test func resolutionsSharingTheLockSeeEveryRegistrationBeforeThem() {
        let container = Container()
        let unique = Factory<Versioned>(container, key: "sharedPlanUnique") { Versioned(0) }
        let cached = Factory<Versioned>(container, key: "sharedPlanCached") { Versioned(0) }.cached
        // Counts up to the version registered last; the readers count what they saw stale.
        let registered = Counter()
        let stale = Counter()
        runConcurrently(4) { index in
            guard index > 0 else {
                for version in 1...2_000 {
                    unique.register { Versioned(version) }
                    cached.register { Versioned(version) }
                    _ = registered.next()
                }
                return
            }
            for _ in 0..<6_000 {
                let atLeast = registered.count
                if unique().version < atLeast { _ = stale.next() }
                if cached.cached().version < atLeast { _ = stale.next() }
            }
        }
        #expect(stale.count == 0)
        #expect(cached.cached().version == 2_000)
    }
}

/// A value that says which registration made it.
private final class Versioned: Sendable {
    let version: Int
    init(_ version: Int) { self.version = version }
}
