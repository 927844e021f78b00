import FactoryKit
import FactoryTesting
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
