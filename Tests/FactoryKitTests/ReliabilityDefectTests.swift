import FactoryKit
import Foundation
import Testing

/// A value that remembers which `Scope.Singleton` its creator was bound to.
final class BoundSingletonValue: @unchecked Sendable {
    let creatorsSingleton: ObjectIdentifier
    init() { creatorsSingleton = ObjectIdentifier(Scope.singleton) }
}

/// Defects found by stress and differential runs against FactoryKit itself (issue 16), each
/// with the test that failed before its fix.
@Suite
struct ReliabilityDefectTests {
    /// Threads bound to different singleton caches share one container; each must get the
    /// singleton of its own cache. Before the fix the record remembered one singleton scope, and
    /// threads got each other's values.
    @Test func threadsBoundToDifferentSingletonsGetTheirOwn() {
        let container = Container()
        let factory: @Sendable () -> Factory<BoundSingletonValue> = {
            Factory(container, key: "reliabilityBound") { BoundSingletonValue() }
        }
        let caches = [Scope.Singleton(), Scope.Singleton()]
        let wrong = Counter()
        let deadline = Date(timeIntervalSinceNow: 0.5)
        runConcurrently(4) { index in
            let cache = caches[index % 2]
            Scope.$singleton.withValue(cache) {
                var rounds = 0
                while rounds < 2_000 || Date() < deadline && rounds < 200_000 {
                    let value = factory().singleton()
                    if value.creatorsSingleton != ObjectIdentifier(cache) { _ = wrong.next() }
                    rounds += 1
                }
            }
        }
        #expect(wrong.count == 0, "\(wrong.count) resolutions returned another cache's singleton")
    }

    /// The same through `.scope(.singleton)`, the form `defaultScope` and definitions also take,
    /// and sequentially: a resolution bound to a cache that has no value yet creates its own.
    @Test func aBoundCacheNeverServesAnotherCachesValue() {
        let container = Container()
        let factory = {
            Factory<BoundSingletonValue>(container, key: "reliabilityBoundScope") { BoundSingletonValue() }
        }
        let first = Scope.Singleton()
        let second = Scope.Singleton()
        let a = Scope.$singleton.withValue(first) { factory().scope(.singleton)() }
        // Resolved without re-applying the scope, as `factory().callAsFunction()` on a stored value.
        let stored = factory()
        let b = Scope.$singleton.withValue(second) { stored() }
        let again = Scope.$singleton.withValue(first) { stored() }
        #expect(a.creatorsSingleton == ObjectIdentifier(first))
        #expect(b.creatorsSingleton == ObjectIdentifier(second))
        #expect(again === a)
    }

    /// A cache named explicitly, not the one the writer is bound to, serves every caller.
    @Test func anExplicitSingletonCacheServesEveryCaller() {
        let container = Container()
        let explicit = Scope.Singleton()
        let factory = Factory<BoundSingletonValue>(container, key: "reliabilityExplicit") { BoundSingletonValue() }
            .scope(explicit)
        let a = factory()
        let b = Scope.$singleton.withValue(Scope.Singleton()) { factory() }
        #expect(a === b)
        explicit.reset()
        #expect(factory() !== a)
    }

    /// With `defaultScope = .cached`, naming `.cached` on the factory does not change its effective
    /// scope, so the cached value stays (as in Factory). Before the fix the write emptied the cache.
    @Test func namingTheDefaultScopeKeepsTheCachedValue() {
        let container = Container()
        container.manager.defaultScope = .cached
        let counter = Counter()
        let factory = Factory<Counted>(container, key: "reliabilityDefaultCached") { Counted(counter) }
        let a = factory()
        _ = factory.cached
        let b = factory()
        #expect(a === b)
        #expect(counter.count == 1)
    }

    /// The same for `.shared`, while the first value is held.
    @Test func namingTheDefaultSharedScopeKeepsTheSharedValue() {
        let container = Container()
        container.manager.defaultScope = .shared
        let counter = Counter()
        let factory = Factory<Counted>(container, key: "reliabilityDefaultShared") { Counted(counter) }
        let a = factory()
        _ = factory.shared
        let b = factory()
        withExtendedLifetime(a) { #expect(a === b) }
        #expect(counter.count == 1)
    }

    /// A real change of scope still drops the values of the previous one.
    @Test func changingTheEffectiveScopeStillDropsTheValue() {
        let container = Container()
        container.manager.defaultScope = .cached
        let counter = Counter()
        let factory = Factory<Counted>(container, key: "reliabilityDefaultChanged") { Counted(counter) }
        let a = factory()
        _ = factory.shared
        let b = factory()
        #expect(a !== b)
        #expect(counter.count == 2)
    }
}
