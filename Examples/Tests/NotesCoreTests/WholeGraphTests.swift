import FactoryKit
import FactoryTesting
import NotesCore
import Testing

/// Every factory of the program, as `swift package validate-factories` lists them in
/// FactoryManifest.swift, resolved and checked in one test.
@Suite(.container)
struct WholeGraphTests {
    @Test func everyFactoryOfTheProgramIsWired() async throws {
        let report = try await Container.shared.validateAll(FactoryManifest.all) { container in
            // Validation really opens the database: a private one, not the user's.
            (container as? Container)?.databaseLocation.register {
                DatabaseLocation(path: ":memory:", createIfMissing: true)
            }
        }
        #expect(report.problems.isEmpty, "\(report)")
        #expect(report.factories.count == 16)
        // Factories of the request scope are resolved only inside withScope(.request): the
        // importer tests check them there.
        #expect(
            Set(report.skipped.map(\.factory)) == [
                "Container.importRequest<ImportRequest>", "Container.requestLogger<NotesLogger>",
            ], "\(report)")
    }
}
