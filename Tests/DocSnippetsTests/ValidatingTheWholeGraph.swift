// The snippets of ValidatingTheWholeGraph.md.
import FactoryKit
import Foundation
import Testing

enum FactoryManifest {
    static let all: [FactoryManifestEntry] = [
        .factory(\Container.appModel, in: { Container() }),
        .factory(\Container.report, in: { Container() }),
    ]
}

@Suite(.container)
struct ValidatingTheWholeGraphArticleTests {
    @Test func theWholeGraphIsSound() async throws {
        let report = try await Container.shared.validateAll(FactoryManifest.all)
        #expect(report.problems.isEmpty, "\(report)")
    }

    @Test func theParameterFactoryIsListedAsSkipped() async throws {
        let report = try await Container.shared.validateAll(FactoryManifest.all)
        #expect(report.skipped.map(\.factory) == ["Container.report<Report>"])
    }
}

// Never called: it writes a file.
func drawTheWholeGraph() async throws {
    let report = try await Container.shared.validateAll(FactoryManifest.all)
    try report.graph.dot().write(toFile: "graph.dot", atomically: true, encoding: .utf8)
}
