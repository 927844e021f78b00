import FactoryKit
import FactoryTesting
import Foundation
import Testing

@Suite(.container)
struct WholeGraphTests {
    @Test func theManifestFindsEveryPlantedFaultAndNothingElse() async throws {
        let report = try await Container.shared.validateAll(FactoryManifest.all)
        // The cycle once, though both its factories are listed and each finds it.
        #expect(report.problems.map(\.kind) == [.cycle, .unregisteredPromise, .scopeSmell], "\(report)")
        // In the manifest's order, scope leaks last: they are read off the whole graph.
        #expect(
            report.problems.map(\.factory) == [
                "Container.orders<Orders>",
                "Container.receiptPrinter<Optional<String>>",
                "Container.checkout<Checkout>",
            ])
        // The promise Catalog made and the app's autoRegister() fulfilled is no problem.
        #expect(!report.issues.contains { $0.factory.hasPrefix("Container.pricing") })
        #expect(
            report.skipped.map(\.factory) == [
                "Container.productModel<ProductModel>", "Container.querySearch<Search>",
            ])
    }

    /// The in-test report (issue 38): each planted fault an issue of the test at its factory's
    /// definition, the `self { ... }` or `promised()` line, saying `path:line: error: [kind]`.
    @Test func eachProblemIsAnIssueAtItsDefinition() async throws {
        let app = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/App/App.swift").path
        let kinds = [34: "unregisteredPromise", 41: "scopeSmell", 45: "cycle"]
        try await withKnownIssue("expected: the three planted faults, each at its definition") {
            let report = try await FactoryManifest.expectNoProblems()
            #expect(report.problems.count == 3)
        } matching: { issue in
            guard let location = issue.sourceLocation, location.filePath == app, let kind = kinds[location.line] else {
                return false
            }
            return issue.comments.contains { $0.rawValue.hasPrefix("\(app):\(location.line): error: [\(kind)] ") }
        }
    }

    @Test func theGraphShowsWhoDependsOnWhom() async throws {
        let report = try await Container.shared.validateAll(FactoryManifest.all)
        #expect(
            report.graph.edges.contains(
                DependencyGraph.Edge(from: "Container.checkout<Checkout>", to: "Container.cart<Cart>")))
        #expect(report.graph.nodes.contains { $0.id == "CatalogContainer.cachedList<ProductList>" })
        // Declared in `extension SharedContainer`: listed, and resolved, on every container.
        #expect(report.graph.nodes.contains { $0.id == "CatalogContainer.catalogName<String>" })
        #expect(report.graph.nodes.contains { $0.id == "Container.catalogName<String>" })
        // Declared `@MainActor`: listed and resolved too.
        #expect(report.factories.contains("Container.banner<String>"))
        // A method-style factory: called by the manifest, resolved like the others.
        #expect(report.graph.nodes.contains { $0.id == "Container.legacyList()<ProductList>" })
    }
}
