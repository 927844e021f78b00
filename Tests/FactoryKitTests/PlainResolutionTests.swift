import Testing

@testable import FactoryKit

/// A factory without options resolves without its container's lock once its record says so
/// (`FactoryRecord.plainFlag`). These check the word itself: that the shortcut is taken where it
/// may be, and withdrawn by each write that gives the factory something to read.
@Suite struct PlainResolutionTests {
    @Test func theFirstResolutionPublishesThatTheFactoryHasNoOptions() {
        let container = Container()
        let factory = Factory<Greeting>(container, key: "plainWordFirst") { Greeter() }
        #expect(plainWord(factory, in: container) == nil)
        _ = factory()
        #expect(plainWord(factory, in: container) == 1)
        #expect(factory().text == "hello")
    }

    @Test func eachWriteThatGivesTheFactorySomethingToReadWithdrawsIt() {
        let container = Container()
        let factory = Factory<Greeting>(container, key: "plainWordWrites") { Greeter() }
        let writes: [(String, () -> Void)] = [
            ("register", { factory.register { MockGreeter() } }),
            // An argument context: release builds drop `onTest` and the other debug contexts.
            ("onArg", { factory.onArg("plain-word-argument") { MockGreeter() } }),
            ("decorator", { _ = factory.decorator { _ in } }),
            ("scope", { _ = factory.cached }),
            ("default scope", { container.manager.defaultScope = .cached }),
            ("container decorator", { container.decorator { _ in } }),
        ]
        for (name, write) in writes {
            container.manager.reset()
            _ = factory()
            #expect(plainWord(factory, in: container) == 1, "before \(name)")
            write()
            #expect(plainWord(factory, in: container) != 1, "after \(name)")
            _ = factory()
            #expect(
                plainWord(factory, in: container).map { $0 & FactoryRecord.plainFlag } == 0, "resolved after \(name)")
        }
        container.manager.reset()
        _ = factory()
        #expect(plainWord(factory, in: container) == 1)
    }

    @Test func aResetWithdrawsItUntilAutoRegistrationHasRunAgain() {
        let container = Container()
        let factory = Factory<Greeting>(container, key: "plainWordReset") { Greeter() }
        _ = factory()
        let count = container.manager.directory.autoRegistered.loadAcquiring()
        container.manager.reset()
        // Not auto-registered: no record is handed out without the lock.
        #expect(plainWord(factory, in: container) == nil)
        _ = factory()
        #expect(plainWord(factory, in: container) == 1)
        // Done again, under a count of its own: a reader from before the reset sees the change.
        let again = container.manager.directory.autoRegistered.loadAcquiring()
        #expect(again & 1 == 1 && again != count)
        #expect(!container.manager.directory.isStillAutoRegistered(since: count))
    }
}

/// The `plainWord` of `factory`'s record in `container`; `nil` until `autoRegister()` has run and
/// the record exists.
func plainWord<T>(_ factory: Factory<T>, in container: Container) -> UInt? {
    container.manager.directory.recordAfterAutoRegistration(for: factory.registration.key)?.record
        ._withUnsafeGuaranteedRef { $0.plainWord.loadAcquiring() }
}

/// A plan that only reads is made under the container's lock shared with other readers once the
/// record says so (`FactoryRecord.sharedPlanFlag`): for options whose scope needs no slot written
/// to answer, withdrawn by each write until the next resolution rebuilds the options.
@Suite struct SharedPlanFlagTests {
    @Test func optionsThatOnlyNeedReadingPublishTheFlag() {
        let container = Container()
        let cases: [(String, Factory<Greeting>, Bool)] = [
            ("registered", Factory<Greeting>(container, key: "sharedRegistered") { Greeter() }, true),
            ("cached", Factory<Greeting>(container, key: "sharedCached") { Greeter() }.cached, true),
            ("shared", Factory<Greeting>(container, key: "sharedShared") { Greeter() }.shared, true),
            ("graph", Factory<Greeting>(container, key: "sharedGraph") { Greeter() }.graph, true),
            ("decorated", Factory<Greeting>(container, key: "sharedDecorated") { Greeter() }.decorator { _ in }, true),
            ("time to live", Factory<Greeting>(container, key: "sharedTTL") { Greeter() }.cached.timeToLive(60), false),
            ("singleton", Factory<Greeting>(container, key: "sharedSingleton") { Greeter() }.singleton, false),
        ]
        cases[0].1.register { MockGreeter() }
        for (name, factory, shares) in cases {
            _ = factory()
            let word = plainWord(factory, in: container) ?? 0
            #expect((word & FactoryRecord.sharedPlanFlag != 0) == shares, "\(name)")
        }
    }

    /// A `shared` value is held weakly: while someone holds it, a hit (planned under the shared
    /// lock) hands over that instance; once it is gone, the next resolution creates another.
    @Test func aSharedValueIsHandedOverWhileHeldAndRecreatedAfter() {
        let census = Census()
        let container = Container()
        let factory = Factory<Tracked>(container, key: "sharedHeldValue") { Tracked(census) }.shared
        do {
            let first = factory()
            #expect((plainWord(factory, in: container) ?? 0) & FactoryRecord.sharedPlanFlag != 0)
            for _ in 0..<3 { #expect(factory() === first) }
            #expect(census.alive == 1)
        }
        #expect(census.alive == 0)
        let second = factory()
        #expect(second.number == 2)
        #expect(factory() === second)
    }

    @Test func eachWriteWithdrawsItUntilTheNextResolution() {
        let container = Container()
        let definition = { Factory<Greeting>(container, key: "sharedWithdrawn") { Greeter() }.cached }
        let writes: [(String, () -> Void)] = [
            ("register", { definition().register { MockGreeter() } }),
            ("scope", { _ = definition().shared }),
            ("time to live", { _ = definition().timeToLive(60) }),
            ("decorator", { _ = definition().decorator { _ in } }),
            ("reset", { container.manager.reset() }),
        ]
        for (name, write) in writes {
            container.manager.reset()
            _ = definition()()
            #expect((plainWord(definition(), in: container) ?? 0) & FactoryRecord.sharedPlanFlag != 0, "before \(name)")
            write()
            #expect((plainWord(definition(), in: container) ?? 0) & FactoryRecord.sharedPlanFlag == 0, "after \(name)")
        }
    }
}
