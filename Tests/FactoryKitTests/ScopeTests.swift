import FactoryKit
import FactoryTesting
import Foundation
import Testing

let scopeCounter = Counter()

extension Scope {
    static let scopeTestSession = Cached()
    static let scopeTestWeak = Shared()
}

extension Container {
    var scopeCached: Factory<Counted> { self { Counted(scopeCounter) }.cached }
    var scopeShared: Factory<Counted> { self { Counted(scopeCounter) }.shared }
    var scopeSingleton: Factory<Counted> { self { Counted(scopeCounter) }.singleton }
    var scopeUnique: Factory<Counted> { self { Counted(scopeCounter) }.unique }
    var scopeSession: Factory<Counted> { self { Counted(scopeCounter) }.scope(.scopeTestSession) }
    var scopeWeak: Factory<Counted> { self { Counted(scopeCounter) }.scope(.scopeTestWeak) }
    var scopeDefault: Factory<Counted> { self { Counted(scopeCounter) } }
    var scopeOptional: Factory<Counted?> { self { nil }.cached }
    var scopeSharedPoint: Factory<Point> { self { Point(x: 1, y: 2) }.shared }
    var scopeSharedOptional: Factory<Counted?> { self { Counted(scopeCounter) }.shared }
    var scopeTimed: Factory<Counted> { self { Counted(scopeCounter) }.cached.timeToLive(0.2) }
    var scopeSlidingTimed: Factory<Counted> { self { Counted(scopeCounter) }.cached.timeToLive(0.5) }
    var scopePerParameter: ParameterFactory<Int, Counted> {
        self { _ in Counted(scopeCounter) }.cached.scopeOnParameters
    }
    var scopeFirstParameter: ParameterFactory<Int, Counted> { self { _ in Counted(scopeCounter) }.cached }
    var scopeGraphLeaf: Factory<Counted> { self { Counted(scopeCounter) }.graph }
    var scopeGraphPair: Factory<(Counted, Counted)> { self { (self.scopeGraphLeaf(), self.scopeGraphLeaf()) } }
    var scopeGraphStamp: Factory<Int> { self { scopeCounter.next() }.graph }
    var scopeGraphStamps: Factory<[Int]> { self { [self.scopeGraphStamp(), self.scopeGraphStamp()] } }
    var scopeGraphGreeting: Factory<any Greeting> { self { MockGreeter("\(scopeCounter.next())") }.graph }
    var scopeGraphGreetings: Factory<[String]> {
        self { [self.scopeGraphGreeting().text, self.scopeGraphGreeting().text] }
    }
    var scopeGraphText: Factory<any CustomStringConvertible> { self { scopeCounter.next() }.graph }
    var scopeGraphTexts: Factory<[String]> {
        self { [self.scopeGraphText().description, self.scopeGraphText().description] }
    }
}

extension SharedContainer {
    /// One definition in a SharedContainer extension: one singleton for every container type.
    var scopeCommonSingleton: Factory<Counted> { self { Counted(scopeCounter) }.singleton }
}

final class ScopeOtherContainer: SharedContainer {
    @TaskLocal static var shared = ScopeOtherContainer()
    let manager = ContainerManager()
    var scopeLogger: Factory<Counted> { self { Counted(scopeCounter) }.singleton }
}

extension Container {
    var scopeLogger: Factory<Counted> { self { Counted(scopeCounter) }.singleton }
}

@Suite(.container)
struct ScopeTests {
    @Test func cachedKeepsOneValuePerContainer() {
        let first = Container.shared.scopeCached()
        #expect(Container.shared.scopeCached() === first)
        #expect(Container().scopeCached() !== first)
    }

    @Test func uniqueAlwaysCreates() {
        #expect(Container.shared.scopeUnique() !== Container.shared.scopeUnique())
    }

    @Test func sharedLivesWhileHeld() {
        var held: Counted? = Container.shared.scopeShared()
        let id = ObjectIdentifier(held!)
        #expect(ObjectIdentifier(Container.shared.scopeShared()) == id)
        held = nil
        let next = Container.shared.scopeShared()
        #expect(next.number != 0)
        withExtendedLifetime(next) {
            #expect(Container.shared.scopeShared() === next)
        }
        _ = held
    }

    @Test func sharedHoldsOptionalClassInstances() {
        let held = Container.shared.scopeSharedOptional()
        #expect(held != nil)
        #expect(Container.shared.scopeSharedOptional() === held)
    }

    @Test func sharedValueTypeIsUniqueAndWarnsOnce() {
        let mark = TestLog.mark()
        #expect(Container.shared.scopeSharedPoint() == Point(x: 1, y: 2))
        #expect(Container.shared.scopeSharedPoint() == Point(x: 1, y: 2))
        let warnings = TestLog.lines(since: mark).filter {
            $0.contains("Container.scopeSharedPoint<Point> is scoped .shared but produced a value type")
        }
        #expect(warnings.count == 1)
    }

    @Test func singletonIsSharedAcrossContainers() {
        let first = Container.shared.scopeSingleton()
        #expect(Container().scopeSingleton() === first)
        Container.shared.manager.reset()
        #expect(Container.shared.scopeSingleton() === first)
        Scope.singleton.reset()
        #expect(Container.shared.scopeSingleton() !== first)
    }

    @Test func oneSharedDefinitionGivesOneSingletonToEveryContainerType() {
        let first = Container.shared.scopeCommonSingleton()
        #expect(ScopeOtherContainer.shared.scopeCommonSingleton() === first)
    }

    @Test func sameNameOnDifferentContainersGivesDifferentSingletons() {
        // API.md D4: keyed by name and type alone, the second closure would never run.
        let mine = Container.shared.scopeLogger()
        let theirs = ScopeOtherContainer.shared.scopeLogger()
        #expect(mine !== theirs)
        #expect(Container.shared.scopeLogger() === mine)
        #expect(ScopeOtherContainer.shared.scopeLogger() === theirs)
    }

    @Test func singletonCloneStartsWithTheValuesOfTheOriginal() {
        let original = Container.shared.scopeSingleton()
        let clone = Scope.singleton.clone()
        Scope.$singleton.withValue(clone) {
            #expect(Container.shared.scopeSingleton() === original)
            Scope.singleton.reset()
            #expect(Container.shared.scopeSingleton() !== original)
        }
        #expect(Container.shared.scopeSingleton() === original)
    }

    @Test func customCachedScopeResetsIndependently() {
        let session = Container.shared.scopeSession()
        let cached = Container.shared.scopeCached()
        Container.shared.manager.reset(scope: .scopeTestSession)
        #expect(Container.shared.scopeSession() !== session)
        #expect(Container.shared.scopeCached() === cached)
        Container.shared.manager.reset(scope: .cached)
        #expect(Container.shared.scopeCached() !== cached)
    }

    @Test func customSharedScope() {
        let value = Container.shared.scopeWeak()
        #expect(Container.shared.scopeWeak() === value)
    }

    @Test func resetScopeIgnoresSingletonsAndSaysSo() {
        let mark = TestLog.mark()
        let singleton = Container.shared.scopeSingleton()
        Container.shared.manager.reset(scope: Scope.singleton)
        #expect(Container.shared.scopeSingleton() === singleton)
        #expect(TestLog.lines(since: mark).contains { $0.contains("reset(scope:) ignores singletons") })
        Container.shared.manager.reset(scope: .unique)
        Container.shared.manager.reset(scope: .graph)
        #expect(Container.shared.scopeSingleton() === singleton)
    }

    @Test func nilIsNeverCached() {
        let counter = Counter()
        let container = Container()
        let factory = Factory<Counted?>(container, key: "scopeNil") {
            _ = counter.next()
            return nil
        }.cached
        #expect(factory() == nil)
        #expect(factory() == nil)
        #expect(counter.count == 2)
        #expect(Container.shared.scopeOptional() == nil)
    }

    @Test func defaultScopeAppliesToFactoriesWithoutOne() {
        Container.shared.manager.defaultScope = .cached
        let value = Container.shared.scopeDefault()
        #expect(Container.shared.scopeDefault() === value)
        #expect(Container.shared.scopeUnique() !== Container.shared.scopeUnique())
        Container.shared.manager.reset()
        #expect(Container.shared.manager.defaultScope == nil)
        #expect(Container.shared.scopeDefault() !== value)
    }

    /// A resolution reads options frozen when they last changed; every kind of change after a
    /// first resolution must still reach the next one.
    @Test func changesAfterAResolutionReachTheNextOne() {
        let container = Container()
        #expect(container.scopeDefault() !== container.scopeDefault())
        container.manager.defaultScope = .cached
        let cached = container.scopeDefault()
        #expect(container.scopeDefault() === cached)
        let seen = Counter()
        container.decorator { _ in _ = seen.next() }
        _ = container.scopeDefault()
        #expect(seen.count == 1)
        container.decorator(nil)
        container.manager.defaultScope = nil
        #expect(container.scopeDefault() !== container.scopeDefault())
        #expect(seen.count == 1)
        let replacement = Counted(Counter())
        container.scopeDefault.register { replacement }
        #expect(container.scopeDefault() === replacement)
        container.manager.reset(options: .registration)
        #expect(container.scopeDefault() !== replacement)
    }

    @Test func timeToLiveExpiresOnAMonotonicClock() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let first = Container.shared.scopeTimed()
        let second = Container.shared.scopeTimed()
        // Unless the scheduler held this thread past the time to live between the two.
        if clock.now - start < .milliseconds(200) { #expect(second === first) }
        try await Task.sleep(for: .milliseconds(400))
        #expect(Container.shared.scopeTimed() !== first)
    }

    @Test func timeToLiveSlidesOnEveryHit() async throws {
        // Hits 0.15 s apart keep a 0.5 s value alive well past 0.5 s. A gap the scheduler
        // stretches beyond the time to live proves nothing, so the chain restarts after one;
        // the hits go on until one unbroken chain has outlived the time to live (or 40 hits).
        let clock = ContinuousClock()
        var value = Container.shared.scopeSlidingTimed()
        var last = clock.now
        var provenSpan = Duration.zero
        var hits = 0
        while provenSpan <= .milliseconds(600) && hits < 40 {
            hits += 1
            try await Task.sleep(for: .milliseconds(150))
            let now = clock.now
            let gap = now - last
            last = now
            let next = Container.shared.scopeSlidingTimed()
            if gap < .milliseconds(450) {
                #expect(next === value)
                provenSpan += gap
            } else {
                provenSpan = .zero
            }
            value = next
        }
        #expect(provenSpan > .milliseconds(500), "no chain of hits outlived the time to live")
    }

    @Test func scopeOnParametersKeepsOneValuePerParameter() {
        let one = Container.shared.scopePerParameter(1)
        let two = Container.shared.scopePerParameter(2)
        #expect(one !== two)
        #expect(Container.shared.scopePerParameter(1) === one)
        #expect(Container.shared.scopePerParameter(2) === two)
    }

    @Test func scopedParameterFactoryReturnsTheFirstValueForAllParameters() {
        // API.md §16 (7).
        let one = Container.shared.scopeFirstParameter(1)
        #expect(Container.shared.scopeFirstParameter(2) === one)
    }

    @Test func graphSharesWithinOneResolutionOnly() {
        let (a, b) = Container.shared.scopeGraphPair()
        #expect(a === b)
        let (c, _) = Container.shared.scopeGraphPair()
        #expect(c !== a)
        #expect(Container.shared.scopeGraphLeaf() !== Container.shared.scopeGraphLeaf())
        #expect(Scope.graph.depth == 0)
    }

    /// Values that are not plain class instances (a number, existentials, one class-bound) are
    /// kept boxed; the graph still makes them once per resolution.
    @Test func graphSharesValuesThatAreNotObjects() {
        let stamps = Container.shared.scopeGraphStamps()
        #expect(stamps[0] == stamps[1])
        #expect(Container.shared.scopeGraphStamps()[0] != stamps[0])
        let greetings = Container.shared.scopeGraphGreetings()
        #expect(greetings[0] == greetings[1])
        #expect(Container.shared.scopeGraphGreetings()[0] != greetings[0])
        let texts = Container.shared.scopeGraphTexts()
        #expect(texts[0] == texts[1])
        #expect(Container.shared.scopeGraphTexts()[0] != texts[0])
    }

    @Test func graphValuesAreNotSharedBetweenContainers() {
        let other = Container()
        let pair = Factory<(Counted, Counted)>(Container.shared, key: "scopeMixedGraph") {
            (Container.shared.scopeGraphLeaf(), other.scopeGraphLeaf())
        }
        let (mine, theirs) = pair()
        #expect(mine !== theirs)
    }

    @Test func scopeChangeDropsThePreviousValue() {
        let factory = Factory<Counted>(Container.shared, key: "scopeChange") { Counted(scopeCounter) }
        let cached = factory.cached()
        #expect(factory.cached() === cached)
        _ = factory.scope(.scopeTestSession)
        #expect(factory.cached() !== cached)
    }

    @Test func customScopesAreDistinctInstances() {
        #expect(Scope.Cached() !== Scope.cached)
        #expect(Scope.Shared() !== Scope.shared)
        #expect(Scope.Singleton() !== Scope.singleton)
        #expect(Scope.Unique() !== Scope.unique)
    }
}
