import FactoryKit
import FactoryTesting
import Foundation
import Testing
import XCTest

final class AsyncDatabase: @unchecked Sendable {
    let name: String
    let number: Int
    init(name: String, number: Int = 0) {
        self.name = name
        self.number = number
    }
}

struct AsyncOpenError: Error, Equatable {
    let attempt: Int
}

/// Counts, and lets a test hold a creation open until it says so.
actor AsyncGate {
    private(set) var starts = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false

    func enter() async -> Int {
        starts += 1
        let number = starts
        if !isOpen { await withCheckedContinuation { waiters.append($0) } }
        return number
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}

extension Container {
    var asyncUnique: AsyncFactory<AsyncDatabase> { self { AsyncDatabase(name: "unique") } }
    var asyncConfig: Factory<String> { self { "config" } }
    var asyncUsesSync: AsyncFactory<AsyncDatabase> { self { AsyncDatabase(name: self.asyncConfig()) }.cached }
    var asyncReport: AsyncParameterFactory<Int, String> { self { id in "report \(id)" } }
    var asyncCycleA: AsyncFactory<AsyncDatabase> {
        self {
            _ = try await self.asyncCycleB()
            return AsyncDatabase(name: "a")
        }
    }
    var asyncCycleB: AsyncFactory<AsyncDatabase> {
        self {
            _ = try await self.asyncCycleA()
            return AsyncDatabase(name: "b")
        }
    }
    var asyncScopedCycleA: AsyncFactory<AsyncDatabase> {
        self {
            _ = try await self.asyncScopedCycleB()
            return AsyncDatabase(name: "a")
        }.singleton
    }
    var asyncScopedCycleB: AsyncFactory<AsyncDatabase> {
        self {
            _ = try await self.asyncScopedCycleA()
            return AsyncDatabase(name: "b")
        }.cached
    }
}

@Suite(.container)
struct AsyncFactoryTests {
    @Test func resolvesAndUniqueCreatesEveryTime() async throws {
        let first = try await Container.shared.asyncUnique()
        let second = try await Container.shared.asyncUnique.resolve()
        #expect(first !== second)
        #expect(first.name == "unique")
    }

    @Test func asyncFactoriesMayResolveSyncOnes() async throws {
        #expect(try await Container.shared.asyncUsesSync().name == "config")
        #expect(try await Container.shared.asyncUsesSync() === Container.shared.asyncUsesSync())
    }

    @Test func parameterFactory() async throws {
        #expect(try await Container.shared.asyncReport(7) == "report 7")
        #expect(try await dependency(\.asyncReport, parameter: 8) == "report 8")
    }

    @Test func registerAndSugar() async throws {
        Container.shared.asyncUnique.register { AsyncDatabase(name: "fake") }
        #expect(try await Container.shared.asyncUnique().name == "fake")
        Container.shared.asyncUnique { AsyncDatabase(name: "sugar") }
        #expect(try await dependency(\.asyncUnique).name == "sugar")
        Container.shared.asyncUnique.reset()
        #expect(try await Container.shared.asyncUnique().name == "unique")
    }

    @Test func contextOverridesAndDecorators() async throws {
        let seen = LogRecorder()
        let factory = Container.shared.asyncUnique
            .onArg("async-context") { AsyncDatabase(name: "arg") }
            .decorator { database, created in seen.record("\(database.name) \(created)") }
        FactoryContext.setArg("async-context", forKey: "async-context")
        defer { FactoryContext.removeArg(forKey: "async-context") }
        #expect(try await factory().name == "arg")
        #expect(seen.lines == ["arg true"])
    }

    @Test func hundredConcurrentFirstResolutionsRunTheClosureOnce() async throws {
        let gate = AsyncGate()
        let factory = AsyncFactory<AsyncDatabase>(Container.shared, key: "asyncOnce") {
            AsyncDatabase(name: "once", number: await gate.enter())
        }.singleton
        try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<100 { group.addTask { ObjectIdentifier(try await factory()) } }
            // Let every task arrive while the one creation is held open.
            try await Task.sleep(for: .milliseconds(50))
            await gate.open()
            var seen = Set<ObjectIdentifier>()
            for try await id in group { seen.insert(id) }
            #expect(seen.count == 1)
        }
        #expect(await gate.starts == 1)
        #expect(try await factory().number == 1)
    }

    @Test func anErrorReachesEveryWaiterAndIsNotCached() async throws {
        let attempts = Counter()
        let gate = AsyncGate()
        let factory = AsyncFactory<AsyncDatabase>(Container.shared, key: "asyncFailing") {
            let attempt = attempts.next()
            _ = await gate.enter()
            if attempt == 1 { throw AsyncOpenError(attempt: attempt) }
            return AsyncDatabase(name: "opened", number: attempt)
        }.cached
        let outcomes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    do { return try await factory().name } catch { return "\(error)" }
                }
            }
            try? await Task.sleep(for: .milliseconds(200))
            await gate.open()
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        // Every waiter of the first attempt gets its error. (A task the scheduler starts only after
        // that attempt failed begins a new one and succeeds: the error was not cached.)
        let failed = outcomes.filter { $0 == "AsyncOpenError(attempt: 1)" }
        #expect(failed.count >= 2)
        #expect(outcomes.allSatisfy { $0 == "AsyncOpenError(attempt: 1)" || $0 == "opened" })
        let retried = try await factory()
        #expect(retried.number == 2)
        #expect(try await factory() === retried)
        #expect(attempts.count == 2)
    }

    @Test func aCancelledWaiterLeavesWhileTheCreationGoesOn() async throws {
        let gate = AsyncGate()
        let factory = AsyncFactory<AsyncDatabase>(Container.shared, key: "asyncCancelWaiter") {
            AsyncDatabase(name: "slow", number: await gate.enter())
        }.cached
        let patient = Task { try await factory() }
        let impatient = Task { try await factory() }
        try await Task.sleep(for: .milliseconds(30))
        impatient.cancel()
        await #expect(throws: CancellationError.self) { try await impatient.value }
        await gate.open()
        let value = try await patient.value
        #expect(value.name == "slow")
        #expect(await gate.starts == 1)
    }

    @Test func theCreationIsCancelledWhenNobodyWaits() async throws {
        let cancelled = LogRecorder()
        let factory = AsyncFactory<AsyncDatabase>(Container.shared, key: "asyncCancelAll") {
            do {
                try await Task.sleep(for: .seconds(10))
            } catch {
                cancelled.record("creation cancelled")
                throw error
            }
            return AsyncDatabase(name: "never")
        }.cached
        let only = Task { try await factory() }
        try await Task.sleep(for: .milliseconds(30))
        only.cancel()
        await #expect(throws: CancellationError.self) { try await only.value }
        _ = try await eventually { !cancelled.lines.isEmpty }
        #expect(cancelled.lines == ["creation cancelled"])
    }

    @Test func aCycleThrowsWithItsPath() async {
        do {
            _ = try await Container.shared.asyncCycleA()
            Issue.record("expected a cycle")
        } catch let cycle as DependencyCycleError {
            #expect(
                cycle.path == [
                    "Container.asyncCycleA<AsyncDatabase>", "Container.asyncCycleB<AsyncDatabase>",
                    "Container.asyncCycleA<AsyncDatabase>",
                ])
            #expect(cycle.description.hasPrefix("Dependency cycle: Container.asyncCycleA<AsyncDatabase> → "))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aCycleThroughScopedCreationsThrowsInsteadOfHanging() async {
        await #expect(throws: DependencyCycleError.self) { try await Container.shared.asyncScopedCycleA() }
        // The failed creations were not cached: the next attempt fails the same way, not by waiting.
        await #expect(throws: DependencyCycleError.self) { try await Container.shared.asyncScopedCycleB() }
    }

    @Test func onceAndTimeToLive() async throws {
        let counter = Counter()
        let timed = AsyncFactory<AsyncDatabase>(Container.shared, key: "asyncTimed") {
            AsyncDatabase(name: "timed", number: counter.next())
        }.cached.timeToLive(0.3)
        let clock = ContinuousClock()
        let start = clock.now
        let first = try await timed()
        let second = try await timed()
        // Only a hit within the time to live proves anything (sanitizers slow everything down).
        if clock.now - start < .milliseconds(300) { #expect(second === first) }
        try await Task.sleep(for: .milliseconds(400))
        #expect(try await timed() !== first)

        let definition = { (container: Container) in
            AsyncFactory<AsyncDatabase>(container, key: "asyncOnce2") { AsyncDatabase(name: "definition") }
                .cached.once()
        }
        let cached = try await definition(Container.shared)()
        #expect(try await definition(Container.shared)() === cached)
        _ = definition(Container.shared).unique
        #expect(try await definition(Container.shared)() !== definition(Container.shared)())
    }

    @Test func sameFactoryOnAnotherContainerIsNotACycle() async throws {
        let other = Container()
        let factory = AsyncFactory<String>(Container.shared, key: "asyncNested") {
            try await AsyncFactory<String>(other, key: "asyncNested") { "inner" }()
        }
        #expect(try await factory() == "inner")
    }

    /// One definition site, so both containers' factories share one singleton.
    private func scoped(_ container: Container) -> AsyncFactory<AsyncDatabase> {
        AsyncFactory(container, key: "asyncScopes") { AsyncDatabase(name: "s") }
    }

    @Test func aScopedHitSeesResetsRegistrationsAndDecorators() async throws {
        // Hits skip the task's resolution stack; they must still see every change.
        let factory = scoped(Container.shared)
        let first = try await factory.singleton()
        #expect(try await factory.singleton() === first)
        Scope.singleton.reset()
        let second = try await factory.singleton()
        #expect(second !== first)
        factory.register { AsyncDatabase(name: "registered") }
        #expect(try await factory.singleton().name == "registered")
        let seen = LogRecorder()
        _ = try await factory.singleton.decorator { database, created in seen.record("\(database.name) \(created)") }()
        #expect(seen.lines == ["registered false"])
        let cached = try await factory.cached()
        #expect(try await factory.cached() === cached)
        #expect(seen.lines.suffix(2) == ["registered true", "registered false"])
        // The container's decorator sees hits of factories without one of their own.
        let plain = AsyncFactory(Container.shared, key: "asyncPlainHit") { AsyncDatabase(name: "plain") }.cached
        _ = try await plain()
        Container.shared.decorator { _ in seen.record("container") }
        _ = try await plain()
        #expect(seen.lines.last == "container")
    }

    @Test func scopedValuesFollowTheSyncRules() async throws {
        let factory = scoped(Container.shared)
        let cached = try await factory.cached()
        #expect(try await factory.cached() === cached)
        Container.shared.manager.reset(options: .scope)
        #expect(try await factory.cached() !== cached)
        let singleton = try await factory.singleton()
        #expect(try await scoped(Container()).singleton() === singleton)
        // A default scope does not apply to async factories.
        Container.shared.manager.defaultScope = .cached
        #expect(try await Container.shared.asyncUnique() !== Container.shared.asyncUnique())
    }
}

/// The same rules seen from XCTest.
final class AsyncFactoryXCTests: ContainerTestCase {
    /// The error `body` throws; when it returns instead, records a failure naming what was expected.
    private func thrownError<Value>(
        expecting expected: String, file: StaticString = #filePath, line: UInt = #line,
        _ body: () async throws -> Value
    ) async -> (any Error)? {
        do {
            _ = try await body()
            XCTFail("expected \(expected)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testResolvesRegistersAndResets() async throws {
        let original = try await Container.shared.asyncUnique()
        XCTAssertEqual(original.name, "unique")
        Container.shared.asyncUnique { AsyncDatabase(name: "xc") }
        let registered = try await Container.shared.asyncUnique()
        XCTAssertEqual(registered.name, "xc")
    }

    func testErrorsAreNotCached() async throws {
        let attempts = Counter()
        let factory = AsyncFactory<AsyncDatabase>(Container.shared, key: "asyncXCFailing") {
            let attempt = attempts.next()
            if attempt == 1 { throw AsyncOpenError(attempt: attempt) }
            return AsyncDatabase(name: "ok", number: attempt)
        }.singleton
        let error = await thrownError(expecting: "the first attempt to fail") { try await factory() }
        XCTAssertEqual(error as? AsyncOpenError, AsyncOpenError(attempt: 1))
        let value = try await factory()
        XCTAssertEqual(value.number, 2)
        let again = try await factory()
        XCTAssertTrue(again === value)
    }

    func testCycleThrows() async {
        let error = await thrownError(expecting: "a cycle") { try await Container.shared.asyncCycleB() }
        XCTAssertTrue(error is DependencyCycleError)
    }

    func testScopedCreationRunsOnceForManyTasks() async throws {
        let counter = Counter()
        let factory = AsyncFactory<AsyncDatabase>(Container.shared, key: "asyncXCOnce") {
            try await Task.sleep(for: .milliseconds(50))
            return AsyncDatabase(name: "once", number: counter.next())
        }.cached
        let numbers = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await factory().number } }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        XCTAssertEqual(numbers, [1])
        XCTAssertEqual(counter.count, 1)
    }

    func testTaskScopeGivesOneInstancePerBlock() async throws {
        let (first, again) = try await Container.shared.withScope(.request) {
            (try await Container.shared.requestAsyncLog(), try await Container.shared.requestAsyncLog())
        }
        XCTAssertTrue(first === again)
        let other = try await Container.shared.withScope(.request) { try await Container.shared.requestAsyncLog() }
        XCTAssertNotEqual(first.id, other.id)
        let error = await thrownError(expecting: "InactiveScopeError") { try await Container.shared.requestAsyncLog() }
        XCTAssertTrue(error is InactiveScopeError)
    }

    func testACancelledWaiterLeavesWhileTheCreationGoesOn() async throws {
        let gate = AsyncGate()
        let factory = AsyncFactory<AsyncDatabase>(Container.shared, key: "asyncXCCancel") {
            AsyncDatabase(name: "slow", number: await gate.enter())
        }.cached
        let patient = Task { try await factory() }
        let impatient = Task { try await factory() }
        try await Task.sleep(for: .milliseconds(30))
        impatient.cancel()
        let error = await thrownError(expecting: "CancellationError") { try await impatient.value }
        XCTAssertTrue(error is CancellationError)
        await gate.open()
        let value = try await patient.value
        XCTAssertEqual(value.name, "slow")
    }

    func testBlockEndShutsInstancesDownNewestFirst() async throws {
        let journal = ShutdownJournal()
        let first = Factory<Connection>(Container.shared, key: "xcShutdownFirst") { Connection("a", journal: journal) }
            .scope(.request)
        let second = Factory<Connection>(Container.shared, key: "xcShutdownSecond") {
            Connection("b", journal: journal)
        }
        .scope(.request)
        await Container.shared.withScope(.request) {
            _ = first()
            _ = second()
        }
        let entries = await journal.entries
        XCTAssertEqual(entries, ["b", "a"])
    }

    func testNestedAndConcurrentBlocksAreIndependent() async {
        await Container.shared.withScope(.request) {
            let outer = Container.shared.requestLog()
            await Container.shared.withScope(.request) {
                XCTAssertFalse(Container.shared.requestLog() === outer)
            }
            XCTAssertTrue(Container.shared.requestLog() === outer)
        }
        let ids = await withTaskGroup(of: UUID.self) { group in
            for _ in 0..<4 {
                group.addTask { await Container.shared.withScope(.request) { Container.shared.requestLog().id } }
            }
            return await group.reduce(into: Set<UUID>()) { $0.insert($1) }
        }
        XCTAssertEqual(ids.count, 4)
    }

    func testResetShutsDownCachedInstances() async throws {
        let journal = ShutdownJournal()
        let factory = Factory<Connection>(Container.shared, key: "xcResetShutdown") {
            Connection("cached", journal: journal)
        }
        .cached
        _ = factory()
        Container.shared.reset()
        _ = try await eventually { await !journal.entries.isEmpty }
        let entries = await journal.entries
        XCTAssertEqual(entries, ["cached"])
    }

    func testAsyncContextOverrideAndDecorator() async throws {
        let seen = LogRecorder()
        let factory = Container.shared.asyncUnique
            .onArg("xc-async-context") { AsyncDatabase(name: "arg") }
            .decorator { database in seen.record(database.name) }
        FactoryContext.setArg("xc-async-context", forKey: "xc-async-context")
        defer { FactoryContext.removeArg(forKey: "xc-async-context") }
        let value = try await factory()
        XCTAssertEqual(value.name, "arg")
        XCTAssertEqual(seen.lines, ["arg"])
    }
}

/// An async creation whose closure waits for two creations at once (`async let`), one of which,
/// begun by another task, waits for the first creation: a cycle, though the closure's other wait
/// began later.
private final class ParallelWaitsContainer: SharedContainer, @unchecked Sendable {
    static let shared = ParallelWaitsContainer()
    let manager = ContainerManager()

    var root: AsyncFactory<AsyncDatabase> {
        self {
            async let cyclic = self.cyclic()
            async let slow: AsyncDatabase = {
                // Begins its wait after the cyclic one has.
                try await Task.sleep(for: .milliseconds(50))
                return try await self.slow()
            }()
            _ = try await (cyclic, slow)
            return AsyncDatabase(name: "root")
        }
        .cached
    }
    var cyclic: AsyncFactory<AsyncDatabase> {
        self {
            try await Task.sleep(for: .milliseconds(150))
            _ = try await self.root()
            return AsyncDatabase(name: "cyclic")
        }
        .cached
    }
    var slow: AsyncFactory<AsyncDatabase> {
        self {
            try await Task.sleep(for: .milliseconds(400))
            return AsyncDatabase(name: "slow")
        }
        .cached
    }
}

@Suite struct AsyncParallelWaitTests {
    /// The cycle is found whichever of the closure's waits began last; it hung when the later
    /// wait took the place of the earlier one in the wait graph.
    @Test func aCycleThroughOneOfAClosuresParallelWaitsThrows() async {
        let container = ParallelWaitsContainer()
        // The resolution, raced against a deadline; a hang loses, and is then cancelled.
        let outcome = await withTaskGroup(of: Result<AsyncDatabase, any Error>?.self) { group in
            group.addTask {
                // The cyclic creation begins first, in a task of its own, so the cycle is not on
                // any one task's resolution stack: only the wait graph can find it.
                let cyclic = Task { try await container.cyclic() }
                try? await Task.sleep(for: .milliseconds(20))
                defer { cyclic.cancel() }
                do { return .success(try await container.root()) } catch { return .failure(error) }
            }
            group.addTask {
                // Long enough for a loaded machine whose cooperative pool other tests keep busy.
                try? await Task.sleep(for: .seconds(60))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let outcome else {
            Issue.record("the resolution hung on a cycle through a parallel wait")
            return
        }
        #expect(throws: DependencyCycleError.self) { try outcome.get() }
    }
}
