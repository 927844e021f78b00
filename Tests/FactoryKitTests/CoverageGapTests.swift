// Behaviour that the other suites never exercised, found by `.ci/check-coverage`: each test states
// the documented rule it checks, so that a regression fails here rather than only lowering the
// coverage number.
import FactoryKit
import FactoryTesting
import Foundation
import Testing

/// A custom shared container with a task-local `shared`, as the docs recommend for tests.
final class CoverageContainer: SharedContainer {
    @TaskLocal static var shared = CoverageContainer()
    let manager = ContainerManager()
    var label: Factory<String> { self { "coverage" } }
    var labelled: ParameterFactory<Int, String> { self { "coverage \($0)" } }
    var asyncLabel: AsyncFactory<String> { self { "async coverage" } }
}

/// A type-keyed container.
final class CoverageServices: SharedContainer, Resolving {
    static let shared = CoverageServices()
    let manager = ContainerManager()
}

/// A parameter that is not `Hashable`, so FactoryKit cannot tell two resolutions' parameters apart.
struct CoverageOpaqueParameter {
    let value: Int
}

extension Container {
    var coverageReport: AsyncParameterFactory<Int, String> { self { "report \($0)" } }
    var coverageGreeter: Factory<Greeter> { self { Greeter("original") }.cached }
    var coverageMockGreeter: Factory<Greeter> { self { Greeter("mock") }.cached }
    var coverageEndless: ParameterFactory<CoverageOpaqueParameter, Int> { self { self.coverageEndless($0) } }
    var coverageCycleA: AsyncFactory<Int> { self { try await self.coverageCycleB() } }
    var coverageCycleB: AsyncFactory<Int> { self { try await self.coverageCycleA() } }
    var coverageAsyncCountdown: AsyncParameterFactory<Int, Int> {
        self { $0 <= 0 ? 0 : try await self.coverageAsyncCountdown($0 - 1) + 1 }
    }
    var coverageAsyncSelf: AsyncParameterFactory<Int, Int> { self { try await self.coverageAsyncSelf($0) } }
    var coverageAsyncPoint: AsyncFactory<Point> { self { Point(x: 3, y: 4) }.shared }
    var coverageGraphItem: ParameterFactory<Int, Greeter> { self { Greeter("item \($0)") }.graph.scopeOnParameters }
    var coverageGraphItems: Factory<[Greeter]> {
        self { [self.coverageGraphItem(1), self.coverageGraphItem(1), self.coverageGraphItem(2)] }
    }
}

extension TraceContainer {
    var coverageRequestStore: AsyncFactory<TraceStore> { self { TraceStore() }.scope(.request) }
}

/// A value with both lazy wrappers, whose projected values the tests replace.
struct CoverageWrapperHolder {
    @LazyInjected(\.coverageGreeter) var lazy: Greeter
    @WeakLazyInjected(\.coverageGreeter) var weak: Greeter?
}

@Suite(.container)
struct CoverageGapTests {
    /// An async parameter factory resolves, registers (also with the call-with-closure shorthand)
    /// and resets like a synchronous one (AsyncFactories.md, "Registering and modifiers").
    @Test func asyncParameterFactoryResolvesRegistersAndResets() async throws {
        #expect(try await Container.shared.coverageReport.resolve(1) == "report 1")
        Container.shared.coverageReport.register { "registered \($0)" }
        #expect(try await Container.shared.coverageReport.resolve(2) == "registered 2")
        Container.shared.coverageReport { "shorthand \($0)" }
        #expect(try await Container.shared.coverageReport(3) == "shorthand 3")
        Container.shared.coverageReport.reset()
        #expect(try await Container.shared.coverageReport(4) == "report 4")
    }

    /// A scoped async parameter factory returns its first value for every parameter, unless
    /// `scopeOnParameters` keeps one value per parameter (Parameters.md, "Scoped parameter
    /// factories").
    @Test func asyncScopedParameterFactoryKeepsOneValuePerParameterOnlyWhenAsked() async throws {
        let definition = { (key: StaticString) in
            AsyncParameterFactory<Int, AsyncDatabase>(Container.shared, key: key) {
                AsyncDatabase(name: "parameter", number: $0)
            }
            .cached
        }
        let first = try await definition("coverageFirstValue")(1)
        #expect(try await definition("coverageFirstValue")(2) === first)

        let perParameter = definition("coveragePerParameter").scopeOnParameters
        let one = try await perParameter(1)
        let two = try await perParameter(2)
        #expect(one.number == 1)
        #expect(two.number == 2)
        #expect(try await perParameter(1) === one)
        #expect(try await perParameter(2) === two)
    }

    /// The `shared` scope keeps an async factory's value only while someone else holds it.
    @Test func asyncSharedScopeKeepsAValueOnlyWhileItIsHeld() async throws {
        let counter = Counter()
        let factory = AsyncFactory<AsyncDatabase>(Container.shared, key: "coverageAsyncShared") {
            AsyncDatabase(name: "shared", number: counter.next())
        }
        .shared
        var held: AsyncDatabase? = try await factory()
        #expect(try await factory() === held)
        held = nil
        // Compared by number: a released instance's address may be reused.
        #expect(try await factory().number == 2)
        #expect(counter.count == 2)
    }

    /// Changing an async factory's scope drops the value the previous scope held: the new scope
    /// creates its own, and returning to the old one creates another (AsyncFactoryModifying.scope).
    @Test func changingAnAsyncFactorysScopeDropsTheOldScopesValue() async throws {
        let counter = Counter()
        let factory = AsyncFactory<AsyncDatabase>(Container.shared, key: "coverageScopeChange") {
            AsyncDatabase(name: "scoped", number: counter.next())
        }
        let session = Scope.Cached()
        #expect(try await factory.cached().number == 1)
        #expect(try await factory.cached().number == 1)
        #expect(try await factory.scope(session)().number == 2)
        #expect(try await factory.scope(session)().number == 2)
        #expect(try await factory.cached().number == 3)
    }

    /// An async `shared` factory of a value type cannot hold it weakly: it creates it on every
    /// resolution and warns once (API.md D6, as for synchronous factories).
    @Test func asyncSharedValueTypeIsCreatedEachTimeAndWarnsOnce() async throws {
        let mark = TestLog.mark()
        #expect(try await Container.shared.coverageAsyncPoint() == Point(x: 3, y: 4))
        #expect(try await Container.shared.coverageAsyncPoint() == Point(x: 3, y: 4))
        let warnings = TestLog.lines(since: mark).filter {
            $0.contains("Container.coverageAsyncPoint<Point> is scoped .shared but produced a value type")
        }
        #expect(warnings.count == 1)
    }

    /// Async cycle detection is keyed by parameter too: recursing with other parameters is not a
    /// cycle, recursing with the same one throws with its path (Design.md, "Cycles").
    @Test func asyncParameterFactoryCyclesAreKeyedByParameter() async throws {
        #expect(try await Container.shared.coverageAsyncCountdown(20) == 20)
        await #expect {
            try await Container.shared.coverageAsyncSelf(3)
        } throws: { error in
            (error as? DependencyCycleError)?.path == [
                "Container.coverageAsyncSelf<Int>", "Container.coverageAsyncSelf<Int>",
            ]
        }
    }

    /// A graph-scoped parameter factory with `scopeOnParameters` shares one value per parameter
    /// within a resolution, and nothing across resolutions (API.md §5, §6.2).
    @Test func graphScopeOnParametersSharesOneValuePerParameterWithinAResolution() {
        let items = Container.shared.coverageGraphItems()
        #expect(items[0] === items[1])
        #expect(items[2] !== items[0])
        #expect(items.map(\.text) == ["item 1", "item 1", "item 2"])
        #expect(Container.shared.coverageGraphItems()[0] !== items[0])
    }

    /// `dependency` reads the custom container's `shared` when called, so a task-local binding is
    /// honoured, for plain, parameter and async factories alike (API.md §3.2, §10).
    @Test func dependencyResolvesFromTheCustomContainerBoundToTheTask() async throws {
        let bound = CoverageContainer()
        bound.label.register { "bound" }
        bound.labelled.register { "bound \($0)" }
        bound.asyncLabel.register { "bound async" }
        try await CoverageContainer.$shared.withValue(bound) { () async throws in
            #expect(dependency(\CoverageContainer.label) == "bound")
            #expect(dependency(\CoverageContainer.labelled, parameter: 3) == "bound 3")
            #expect(try await dependency(\CoverageContainer.asyncLabel) == "bound async")
        }
        #expect(dependency(\CoverageContainer.label) == "coverage")
        #expect(dependency(\CoverageContainer.labelled, parameter: 4) == "coverage 4")
        #expect(try await dependency(\CoverageContainer.asyncLabel) == "async coverage")
    }

    /// The Factory that `Resolving` hands out carries the registered closure as its own, so it goes
    /// on producing the registered value after the registration is reset, while `resolve` then
    /// finds nothing (API.md §11).
    @Test func resolvingFactoriesCarryTheRegisteredClosure() throws {
        let services = CoverageServices()
        let registered = services.register { Greeter("registered") }
        let found = try #require(services.factory(Greeter.self))
        services.manager.reset(options: .registration)
        #expect(services.resolve(Greeter.self) == nil)
        #expect(services.factory(Greeter.self) == nil)
        #expect(found().text == "registered")
        #expect(registered().text == "registered")
    }

    /// Assigning an `@InjectedType` value replaces it in that wrapper only (API.md §10).
    @Test func assigningAnInjectedTypeChangesThatWrapperOnly() {
        let services = CoverageServices()
        services.register { Greeter("registered") }
        var assigned = InjectedType<Greeter>(services)
        let other = InjectedType<Greeter>(services)
        assigned.wrappedValue = Greeter("assigned")
        #expect(assigned.wrappedValue?.text == "assigned")
        #expect(other.wrappedValue?.text == "registered")
        #expect(services.resolve(Greeter.self)?.text == "registered")
    }

    /// Assigning a lazy wrapper's projected value swaps the whole wrapper: the new one resolves
    /// its own factory, lazily, on the next read (API.md §10: `projectedValue { get set }`).
    @Test func assigningAProjectedValueSwapsTheLazyWrapper() {
        var holder = CoverageWrapperHolder()
        holder.$lazy = LazyInjected(\.coverageMockGreeter)
        holder.$weak = WeakLazyInjected(\.coverageMockGreeter)
        #expect(holder.$lazy.resolvedOrNil() == nil)
        #expect(holder.lazy.text == "mock")
        #expect(holder.weak?.text == "mock")
        #expect(holder.weak === holder.lazy)
    }

    /// `circularDependencyTesting` is kept for source compatibility only: turning it off leaves
    /// cycle detection on (ContainerManager's documentation).
    @Test func turningCycleTestingOffLeavesCyclesDetected() async {
        let manager = Container.shared.manager
        manager.circularDependencyTesting = false
        defer { manager.circularDependencyTesting = true }
        #expect(!manager.circularDependencyTesting)
        await #expect(throws: DependencyCycleError.self) { try await Container.shared.coverageCycleA() }
    }

    /// The logger is process-wide: any container's manager hands out the one installed
    /// (API.md §3.4, §16 item 12).
    @Test func everyManagerHandsOutTheOneLogger() {
        let mark = TestLog.mark()
        Container().manager.logger("coverage: logged through another container's manager")
        #expect(TestLog.lines(since: mark).contains("coverage: logged through another container's manager"))
    }

    /// A validation issue prints as its message.
    @Test func aValidationIssuePrintsAsItsMessage() {
        let issue = ValidationIssue(kind: .threw, factory: "Container.coverage<Int>", message: "it threw")
        #expect("\(issue)" == "it threw")
    }

    /// A task-bound block whose body throws still shuts its instances down before the error
    /// reaches the caller (AsyncFactories.md, "One instance per request").
    @Test func aBlockThatThrowsShutsItsInstancesDownAndRethrows() async {
        let journal = ShutdownJournal()
        let factory = Factory<Connection>(Container.shared, key: "coverageThrowingBlock") {
            Connection("thrown", journal: journal)
        }
        .scope(.request)
        await #expect(throws: AsyncOpenError(attempt: 7)) {
            try await Container.shared.withScope(.request) {
                _ = factory()
                throw AsyncOpenError(attempt: 7)
            }
        }
        #expect(await journal.entries == ["thrown"])
    }

    /// A container reset shuts down a `shared` instance that is still alive, and a failing
    /// shutdown is logged with the instance's type and the error (AsyncFactories.md).
    @Test func aResetShutsDownLiveSharedInstancesAndLogsFailures() async throws {
        let journal = ShutdownJournal()
        let factory = Factory<Connection>(Container.shared, key: "coverageSharedShutdown") {
            Connection("shared", journal: journal, fails: true)
        }
        .shared
        let mark = TestLog.mark()
        let held = factory()
        Container.shared.manager.reset(options: .scope)
        #expect(try await eventually { await journal.entries == ["shared"] })
        let expected = "shutting down Connection after a reset failed: AsyncOpenError(attempt: 0)"
        #expect(try await eventually { TestLog.lines(since: mark).contains { $0.contains(expected) } })
        withExtendedLifetime(held) {}
    }

    /// A resolution nested deeper than 200 levels whose repetition cannot be proven, because its
    /// parameter is not `Hashable`, stops the program as a suspected cycle naming the innermost
    /// factories instead of overflowing the stack (ResolutionChain.maximumDepth).
    @Test func endlessRecursionWithAnUncomparableParameterStopsAsASuspectedCycle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container().coverageEndless(CoverageOpaqueParameter(value: 1))
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains("Dependency cycle suspected: resolution nested deeper than 200 levels"), "\(message)")
        #expect(message.contains("Container.coverageEndless<Int> → Container.coverageEndless<Int>"))
    }
}

/// Async factories select contexts like synchronous ones. In `ContextSelectionTests`, which is
/// serialized, because it changes the process-wide context flags.
extension ContextSelectionTests {
    /// The order of AsyncFactories.md, "Registering and modifiers", and API.md §7.2: arguments
    /// (any of `onArgs`), preview, test, simulator, device; debug last, in debug builds.
    @Test func asyncFactoriesSelectContextsInTheDocumentedOrder() async throws {
        let saved = FactoryContext.current
        defer {
            FactoryContext.current.isPreview = saved.isPreview
            FactoryContext.current.isTest = saved.isTest
            FactoryContext.current.isSimulator = saved.isSimulator
        }
        let factory = AsyncFactory<String>(Container.shared, key: "coverageAsyncContexts") { "original" }
            .onArgs(["coverage-async-a", "coverage-async-b"]) { "arg" }
            .onPreview { "preview" }
            .onTest { "test" }
            .onSimulator { "simulator" }
            .onDevice { "device" }
        let debugOnly = AsyncFactory<String>(Container.shared, key: "coverageAsyncDebug") { "original" }
            .onDebug { "debug" }
        FactoryContext.setArg("coverage-async-b", forKey: "coverage-async")
        #expect(try await factory() == "arg")
        FactoryContext.removeArg(forKey: "coverage-async")
        FactoryContext.current.isTest = false
        FactoryContext.current.isSimulator = true
        #expect(try await factory() == "simulator")
        FactoryContext.current.isSimulator = false
        #expect(try await factory() == "device")
        #if DEBUG
            FactoryContext.current.isPreview = true
            #expect(try await factory() == "preview")
            FactoryContext.current.isPreview = false
            FactoryContext.current.isTest = true
            #expect(try await factory() == "test")
            #expect(try await debugOnly() == "debug")
        #else
            FactoryContext.current.isPreview = true
            FactoryContext.current.isTest = true
            #expect(try await factory() == "device")
            #expect(try await debugOnly() == "original")
        #endif
    }
}

/// In `TraceTests`, which is serialized, because it turns the process-wide trace on.
extension TraceTests {
    /// The trace shows the error of an async factory that fails before its closure runs, because
    /// its task-bound scope is not active (AsyncFactories.md, "One instance per request").
    @Test func traceShowsAnAsyncFactoryOutsideItsTaskBoundScope() async {
        let container = TraceContainer()
        let mark = TestLog.mark()
        container.manager.trace = true
        await #expect(throws: InactiveScopeError.self) { try await container.coverageRequestStore() }
        container.manager.trace = false
        let lines = TestLog.lines(since: mark).filter { $0.contains("TraceContainer.coverageRequestStore") }
        #expect(lines.count == 1)
        #expect(
            lines.first?.hasPrefix(
                "0: TraceContainer.coverageRequestStore<TraceStore> threw "
                    + "TraceContainer.coverageRequestStore<TraceStore> is scoped to a task-bound scope") == true,
            "\(lines)")
    }
}
