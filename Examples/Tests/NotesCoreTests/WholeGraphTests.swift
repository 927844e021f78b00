import FactoryKit
import FactoryTesting
import NotesCore
import Testing

/// Every factory of the program, as `swift package validate-factories` lists them in
/// FactoryManifest.swift, resolved and checked in one test.
@Suite(.container)
struct WholeGraphTests {
    @Test func everyFactoryOfTheProgramIsWired() async throws {
        // Each container is prepared by FactoryManifest.prepare: the database is in memory.
        let report = try await FactoryManifest.validate()
        #expect(report.problems.isEmpty, "\(report)")
        #expect(report.factories.count == 16)
        // Factories of the request scope too, in a block of it that validation opens.
        #expect(report.skipped.isEmpty, "\(report)")
        #expect(
            report.graph.edges.contains(
                DependencyGraph.Edge(
                    from: "Container.lineImporter<LineImporter>", to: "Container.requestLogger<NotesLogger>")))
    }
}
