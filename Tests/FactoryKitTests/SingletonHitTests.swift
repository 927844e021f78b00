import Foundation
import Testing

@testable import FactoryKit

/// A hit on `Scope.Singleton.main` for a factory with nothing to check or decorate takes only the
/// singleton cache's lock, not its container's, once the record's word says so
/// (`FactoryRecord.singletonHitFlag`). These check the word, and that such hits see every write.
@Suite struct SingletonHitTests {
    @Test func aSingletonWithNothingToCheckPublishesTheHitFlag() {
        let census = Census()
        let container = Container()
        // A definition, re-applying its modifiers on each access.
        let factory = { Factory<Tracked>(container, key: "singletonHitFlag") { Tracked(census) }.singleton }
        _ = factory()()
        #expect(plainWord(factory(), in: container) == FactoryRecord.singletonHitFlag)
        // A registration or an override changes what a creation runs, not what a hit returns.
        factory().register { Tracked(census) }
        factory().onArg("singleton-hit-flag-argument") { Tracked(census) }
        _ = factory()()
        #expect(plainWord(factory(), in: container) == FactoryRecord.singletonHitFlag)
    }

    @Test func eachOptionAHitMustReadWithdrawsTheFlag() {
        let census = Census()
        let container = Container()
        // Read and resolved without modifiers, which the definition would apply again.
        let bare = Factory<Tracked>(container, key: "singletonHitWithdrawn") { Tracked(census) }
        let definition = { bare.singleton }
        let writes: [(String, () -> Void)] = [
            ("decorator", { _ = bare.decorator { _ in } }),
            ("container decorator", { container.decorator { _ in } }),
            ("time to live", { _ = bare.timeToLive(60) }),
            ("another singleton cache", { _ = bare.scope(Scope.Singleton()) }),
            ("another scope", { _ = bare.cached }),
        ]
        for (name, write) in writes {
            container.manager.reset()
            _ = definition()()
            #expect(plainWord(bare, in: container) == FactoryRecord.singletonHitFlag, "before \(name)")
            write()
            #expect(plainWord(bare, in: container) == 0, "after \(name)")
            _ = bare()
            #expect(
                plainWord(bare, in: container).map { $0 & FactoryRecord.singletonHitFlag } == 0,
                "resolved after \(name)")
        }
    }

    /// In a process of its own, where `main` is the only singleton cache alive, so the shortcut
    /// is taken (other tests here bind caches of their own).
    @Test func hitsWithoutTheContainersLockSeeEveryWrite() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            SingletonHitChecks.run()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.isEmpty, "\(message)")
    }
}

/// The checks `hitsWithoutTheContainersLockSeeEveryWrite` runs in its child process; a failure
/// names itself on standard error and exits with 1.
enum SingletonHitChecks {
    static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        guard !condition else { return }
        FileHandle.standardError.write(Data("FAILED: \(message())\n".utf8))
        exit(1)
    }

    static func run() {
        _ = Scope.Singleton.main
        check(Scope.Singleton.currentAddressIfMain != nil, "main is not the only singleton cache")
        theShortcutStandsOnlyWhileBothWordsHold()
        hitsSeeResetsRegistrationsDecoratorsAndBoundCaches()
        aRegistrationOnAnotherThreadIsSeen()
        aDecoratorAddedOnAnotherThreadRuns()
    }

    static func record<T>(of factory: Factory<T>, in container: Container) -> (Unmanaged<FactoryRecord>, UInt) {
        guard let found = container.manager.directory.recordAfterAutoRegistration(for: factory.registration.key) else {
            check(false, "no record")
            fatalError()
        }
        return found
    }

    static func theShortcutStandsOnlyWhileBothWordsHold() {
        let census = Census()
        let container = Container()
        let factory = Factory<Tracked>(container, key: "shortcutWords") { Tracked(census) }.singleton
        let value = factory()
        let (record, count) = record(of: factory, in: container)
        let directory = container.manager.directory
        let site = factory.registration.site
        let hit = {
            record._withUnsafeGuaranteedRef {
                Scope.Singleton.hitWithoutContainerLock($0, directory: directory, count: count, site: site)
            }
        }
        check(hit().map { SlotLookup.value($0, boxed: true, as: Tracked.self) } === value, "no hit on the words read")
        check(
            record._withUnsafeGuaranteedRef {
                Scope.Singleton.hitWithoutContainerLock($0, directory: directory, count: count &+ 2, site: site)
            } == nil, "a hit across a reset of the container")
        // Called as if the flag had been read before the decorator was added: the check under
        // the lock must see it cleared.
        _ = factory.decorator { _ in }
        check(hit() == nil, "a hit on a flag cleared since")
    }

    static func hitsSeeResetsRegistrationsDecoratorsAndBoundCaches() {
        let census = Census()
        let container = Container()
        let definition = { (container: Container) in
            Factory<Tracked>(container, key: "shortcutWrites") { Tracked(census) }.singleton
        }
        let factory = { definition(container) }
        do {
            let first = factory()()
            check(factory()() === first && factory()() === first, "a singleton that is not one")
        }
        Scope.singleton.reset()
        check(census.alive == 0, "a reset singleton stayed alive")
        let second = factory()()
        check(second.number == 2 && factory()() === second, "no new singleton after a reset")
        // Another instance of the container type has the same singleton, and drops it when it
        // registers.
        definition(Container()).register { Tracked(census) }
        let third = factory()()
        check(third !== second, "a registration through another container left the old singleton")
        let seen = LogRecorder()
        _ = factory().decorator { seen.record("\($0.number)") }
        _ = factory()()
        check(seen.lines == ["\(third.number)"], "a decorator did not run on a hit: \(seen.lines)")
        container.manager.reset()
        _ = factory()()
        let isolated = Scope.$singleton.withValue(Scope.Singleton()) { factory()() }
        check(isolated !== factory()(), "a task bound to another cache got main's singleton")
        check(factory()() === factory()(), "main's singleton changed")
    }

    /// Runs `write(round)` for 300 rounds on one thread, each between two steps of a sequence
    /// lock, while two readers call `read()`: a read whose whole call fell between two of the
    /// writer's steps must return the round last written.
    static func inRounds(write: @escaping @Sendable (Int) -> Void, read: @escaping @Sendable () -> Int) {
        let steps = SequencedRound()
        runConcurrently(3) { index in
            if index == 0 {
                for round in 1...300 {
                    steps.begin()
                    write(round)
                    steps.end(round)
                    check(steps.awaitCheck(of: round), "no reader checked round \(round)")
                }
                steps.finish()
                return
            }
            while !steps.isFinished {
                let (before, round) = steps.read()
                let read = read()
                guard before % 2 == 0, steps.read().sequence == before else { continue }
                check(read == round, "round \(round) read \(read)")
                steps.checked(round)
            }
        }
    }

    static func aRegistrationOnAnotherThreadIsSeen() {
        // The writer registers round `r` (which drops the singleton) and resolves it, so the
        // flag is set again; a reader must get round `r`'s value.
        let container = Container()
        let factory = { @Sendable in Factory<Round>(container, key: "shortcutAcrossThreads") { Round(0) }.singleton }
        inRounds(
            write: { round in
                factory().register { Round(round) }
                check(factory()().number == round, "the writer's own resolution")
            },
            read: { factory()().number })
    }

    static func aDecoratorAddedOnAnotherThreadRuns() {
        // The writer clears the options, resolves (so the flag is set again) and adds a decorator
        // naming round `r`; a reader must run it.
        let container = Container()
        let census = Census()
        let factory = { @Sendable in
            Factory<Tracked>(container, key: "shortcutDecorator") { Tracked(census) }.singleton
        }
        let seen = ThreadRounds()
        inRounds(
            write: { round in
                factory().reset(.all)
                _ = factory()()
                _ = factory().decorator { _ in seen.note(round) }
            },
            read: {
                seen.note(0)
                // The definition's `.singleton` writes nothing while the scope is already set.
                _ = factory()()
                return seen.last
            })
    }
}

/// A value that says which round of a test made it.
final class Round: Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
}

/// The round each thread's decorator last named.
private final class ThreadRounds: @unchecked Sendable {
    private let lock = NSLock()
    private var rounds: [ObjectIdentifier: Int] = [:]

    func note(_ round: Int) { lock.withLock { rounds[ObjectIdentifier(Thread.current)] = round } }
    var last: Int { lock.withLock { rounds[ObjectIdentifier(Thread.current)] ?? -1 } }
}
