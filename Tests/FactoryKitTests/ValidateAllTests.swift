import FactoryKit
import FactoryTesting
import Testing
import XCTest

final class ManifestService: @unchecked Sendable {}

/// A feature module's container: it promises a service and fulfils one of its promises itself,
/// the way an app's `autoRegister()` does.
final class ManifestFeatureContainer: SharedContainer, AutoRegistering {
    static let shared = ManifestFeatureContainer()
    let manager = ContainerManager()

    var fulfilled: Factory<ManifestService?> { promised() }
    var forgotten: Factory<ManifestService?> { promised() }
    var usesForgotten: Factory<ManifestService> { self { self.forgotten() ?? ManifestService() } }
    var usesMainContainer: Factory<ManifestService> {
        self { Container.shared.manifestPlain() }.singleton
    }
    var lookup: ParameterFactory<Int, ManifestService> { self { _ in ManifestService() } }

    func autoRegister() {
        fulfilled.register { ManifestService() }
    }
}

extension Container {
    func methodPlain() -> Factory<ManifestService> { self { ManifestService() } }
    func methodAsyncThrowing() -> AsyncFactory<ManifestService> { self { throw CancellationError() } }
    func methodLookup() -> ParameterFactory<Int, ManifestService> { self { _ in ManifestService() } }
    func methodAsyncLookup() -> AsyncParameterFactory<Int, ManifestService> { self { _ in ManifestService() } }
    var validationJournal: Factory<ShutdownJournal> { self { ShutdownJournal() } }
    var validationRequestConnection: Factory<Connection> {
        self { Connection("validation", journal: self.validationJournal()) }.scope(.request)
    }
    var validationRequestUser: Factory<Connection> {
        self { self.validationRequestConnection() }.singleton
    }
    var manifestPlain: Factory<ManifestService> { self { ManifestService() } }
    var manifestSingleton: Factory<ManifestService> {
        self {
            _ = self.manifestPlain()
            return ManifestService()
        }.singleton
    }
    var manifestCycleA: AsyncFactory<ManifestService> {
        self {
            _ = try await self.manifestCycleB()
            return ManifestService()
        }
    }
    var manifestCycleB: AsyncFactory<ManifestService> {
        self {
            _ = try await self.manifestCycleA()
            return ManifestService()
        }
    }
    var manifestSyncCycleA: Factory<ManifestService> {
        self {
            _ = self.manifestSyncCycleB()
            return ManifestService()
        }
    }
    var manifestSyncCycleB: Factory<ManifestService> {
        self {
            _ = self.manifestSyncCycleA()
            return ManifestService()
        }
    }
    var manifestAsyncLookup: AsyncParameterFactory<String, ManifestService> { self { _ in ManifestService() } }
}

@Suite(.container)
struct ValidateAllTests {
    @Test func aSoundManifestAcrossContainerTypesHasNoProblems() async throws {
        let report = try await Container.shared.validateAll([
            .factory(\Container.manifestPlain, in: { Container() }),
            .factory(\ManifestFeatureContainer.fulfilled, in: { ManifestFeatureContainer() }),
        ])
        #expect(report.issues.isEmpty)
        #expect(
            report.factories == [
                "Container.manifestPlain<ManifestService>",
                "ManifestFeatureContainer.fulfilled<Optional<ManifestService>>",
            ])
        #expect(report.description == "Validated 2 factories: 0 problems, 0 skipped.")
    }

    /// The summary counts in English: one factory, one problem.
    @Test func theSummaryUsesTheSingularForOne() {
        let problem = ValidationIssue(kind: .cycle, factory: "Container.a<A>", message: "Dependency cycle: ...")
        let report = ValidationReport(
            factories: ["Container.a<A>"], issues: [problem], graph: DependencyGraph(nodes: [], edges: []))
        #expect(
            report.description == "Validated 1 factory: 1 problem, 0 skipped.\nerror: [cycle] Dependency cycle: ...")
    }

    @Test func reportsEveryKindOfProblemAcrossContainerTypes() async throws {
        let report = try await Container.shared.validateAll([
            .factory(\ManifestFeatureContainer.usesForgotten, in: { ManifestFeatureContainer() }),
            .factory(\Container.manifestCycleA, in: { Container() }),
            .factory(\Container.manifestSingleton, in: { Container() }),
            .factory(\Container.manifestSyncCycleA, in: { Container() }),
            .factory(\ManifestFeatureContainer.lookup, in: { ManifestFeatureContainer() }),
            .factory(\Container.manifestAsyncLookup, in: { Container() }),
        ])
        #expect(report.problems.map(\.kind) == [.unregisteredPromise, .cycle, .cycle, .scopeSmell])
        #expect(
            report.problems.map(\.factory) == [
                "ManifestFeatureContainer.forgotten<Optional<ManifestService>>",
                "Container.manifestCycleA<ManifestService>",
                "Container.manifestSyncCycleA<ManifestService>",
                "Container.manifestSingleton<ManifestService>",
            ])
        #expect(
            report.skipped.map(\.factory) == [
                "ManifestFeatureContainer.lookup<ManifestService>", "Container.manifestAsyncLookup<ManifestService>",
            ])
        #expect(report.factories.count == 6)
        #expect(
            report.description.hasPrefix("Validated 6 factories: 4 problems, 2 skipped.\nerror: [unregisteredPromise] ")
        )
        #expect(
            report.description.hasSuffix(
                "\nskipped: Container.manifestAsyncLookup<ManifestService> takes a parameter, so validate cannot "
                    + "resolve it and skipped it. Validate the factories it resolves instead, or a Factory that calls "
                    + "it with a typical parameter.")
        )
    }

    @Test func eachCycleIsReportedOnceHoweverManyOfItsFactoriesAreListed() async throws {
        let report = try await Container.shared.validateAll([
            .factory(\Container.manifestSyncCycleA, in: { Container() }),
            .factory(\Container.manifestSyncCycleB, in: { Container() }),
            .factory(\Container.manifestCycleA, in: { Container() }),
            .factory(\Container.manifestCycleB, in: { Container() }),
        ])
        // Each is found from both ends, with its path starting at either; reported by the first.
        #expect(report.problems.map(\.kind) == [.cycle, .cycle], "\(report)")
        #expect(
            report.problems.map(\.factory) == [
                "Container.manifestSyncCycleA<ManifestService>", "Container.manifestCycleA<ManifestService>",
            ])
        #expect(report.description.hasPrefix("Validated 4 factories: 2 problems, 0 skipped."))
    }

    @Test func factoriesInATaskBoundScopeAreResolvedInABlockValidationOpens() async throws {
        // Outside every withScope block, resolving these would stop the program; validation opens
        // a block of their scope, resolves them there and ends it before it returns.
        let journal = ShutdownJournal()
        let report = try await Container.shared.validateAll([
            .factory(\Container.requestLog, in: { Container() }),
            .factory(\Container.requestAsyncLog, in: { Container() }),
            .factory(\Container.validationRequestConnection, in: { Container() }),
            .factory(\Container.validationRequestUser, in: { Container() }),
        ]) { container in
            (container as? Container)?.validationJournal.register { journal }
        }
        #expect(report.skipped.isEmpty, "\(report)")
        #expect(
            Set(report.graph.nodes.map(\.id)).isSuperset(of: [
                "Container.requestLog<RequestLog>", "Container.requestAsyncLog<RequestLog>",
                "Container.validationRequestConnection<Connection>",
            ]))
        // The block ended: what was created in it is shut down once, before validateAll returns.
        #expect(await journal.entries == ["validation", "validation"])
        // A singleton holding a request-scoped value outlives the request: a scope leak.
        #expect(report.problems.map(\.kind) == [.scopeSmell], "\(report)")
        #expect(
            report.problems.first?.message
                == "Container.validationRequestUser<Connection> is a singleton but depends on "
                + "Container.validationRequestConnection<Connection>, which is task-bound: the singleton keeps the first "
                + "one forever. Make Container.validationRequestUser<Connection> task-bound too, or resolve "
                + "Container.validationRequestConnection<Connection> each time it is used instead of keeping it.")
    }

    @Test func aCancelledValidationStillEndsTheBlocksItOpened() async throws {
        // The first entry opens a block of `.request`; the second's preparation cancels the task,
        // so the loop throws before the third. The block must end all the same.
        let journal = ShutdownJournal()
        let task = Task {
            var prepared = 0
            return try await Container.shared.validateAll([
                .factory(\Container.validationRequestConnection, in: { Container() }),
                .factory(\Container.requestLog, in: { Container() }),
                .factory(\Container.requestLog, in: { Container() }),
            ]) { container in
                (container as? Container)?.validationJournal.register { journal }
                prepared += 1
                if prepared == 2 { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(await journal.entries == ["validation"])
    }

    @Test func methodStyleFactoriesAreCalledByTheirEntries() async throws {
        let report = try await Container.shared.validateAll([
            .factory(calling: { (container: Container) in container.methodPlain() }, in: { Container() }),
            .factory(calling: { (container: Container) in container.methodAsyncThrowing() }, in: { Container() }),
            .factory(calling: { (container: Container) in container.methodLookup() }, in: { Container() }),
            .factory(calling: { (container: Container) in container.methodAsyncLookup() }, in: { Container() }),
        ])
        #expect(
            report.factories == [
                "Container.methodPlain()<ManifestService>", "Container.methodAsyncThrowing()<ManifestService>",
                "Container.methodLookup()<ManifestService>", "Container.methodAsyncLookup()<ManifestService>",
            ])
        #expect(report.graph.nodes.contains { $0.id == "Container.methodPlain()<ManifestService>" })
        #expect(report.problems.map(\.kind) == [.threw], "\(report)")
        #expect(
            report.skipped.map(\.factory) == [
                "Container.methodLookup()<ManifestService>", "Container.methodAsyncLookup()<ManifestService>",
            ])
    }

    @Test func validationInsideAWithScopeBlockLeavesThatBlockOpen() async throws {
        let outer = try await Container.shared.withScope(.request) {
            let log = Container.shared.requestLog()
            let report = try await Container.shared.validateAll([.factory(\Container.requestLog, in: { Container() })])
            #expect(report.issues.isEmpty)
            return (log, Container.shared.requestLog())
        }
        #expect(outer.0 === outer.1)
    }

    @Test func eachFreshContainerIsPreparedAfterItsAutoRegister() async throws {
        let preparedResolutions = Counter()
        let report = try await Container.shared.validateAll([
            .factory(\ManifestFeatureContainer.usesForgotten, in: { ManifestFeatureContainer() }),
            .factory(\ManifestFeatureContainer.fulfilled, in: { ManifestFeatureContainer() }),
        ]) { container in
            guard let container = container as? ManifestFeatureContainer else { return }
            container.forgotten.register { ManifestService() }
            container.fulfilled.register {
                _ = preparedResolutions.next()
                return ManifestService()
            }
        }
        #expect(report.issues.isEmpty)
        // Registered after autoRegister(), so the preparation's registration is the one used.
        #expect(preparedResolutions.count == 1)
    }

    @Test func theGraphSpansContainerTypes() async throws {
        let report = try await Container.shared.validateAll([
            .factory(\ManifestFeatureContainer.usesMainContainer, in: { ManifestFeatureContainer() }),
            .factory(\Container.manifestSingleton, in: { Container() }),
        ])
        // What a factory resolves through `Container.shared` is drawn too: validation binds a fresh
        // `Container` of its own there, and records it.
        #expect(
            report.graph.nodes.map(\.id) == [
                "ManifestFeatureContainer.usesMainContainer<ManifestService>",
                "Container.manifestPlain<ManifestService>",
                "Container.manifestSingleton<ManifestService>",
            ])
        #expect(
            report.graph.edges == [
                DependencyGraph.Edge(
                    from: "ManifestFeatureContainer.usesMainContainer<ManifestService>",
                    to: "Container.manifestPlain<ManifestService>"),
                DependencyGraph.Edge(
                    from: "Container.manifestSingleton<ManifestService>", to: "Container.manifestPlain<ManifestService>"
                ),
            ])
        #expect(report.graph.dot().contains("\"Container.manifestSingleton<ManifestService>\" -> "))
    }
}

/// A `ContainerTestCase`, so that `validate`'s child process runs only this test.
final class ValidateAllXCTests: ContainerTestCase {
    func testAForgottenPromiseIsReportedAndAFulfilledOneIsNot() async throws {
        let report = try await Container.shared.validateAll([
            .factory(\ManifestFeatureContainer.fulfilled, in: { ManifestFeatureContainer() }),
            .factory(\ManifestFeatureContainer.usesForgotten, in: { ManifestFeatureContainer() }),
        ])
        XCTAssertEqual(report.problems.map(\.kind), [.unregisteredPromise])
        XCTAssertEqual(report.problems.first?.factory, "ManifestFeatureContainer.forgotten<Optional<ManifestService>>")
        XCTAssertEqual(report.graph.nodes.count, 3)
    }
}
