// The snippets of ValidatingTheWholeGraph.md.
import FactoryKit
import FactoryTesting
import Foundation
import Testing

extension Container {
    var databasePath: Factory<String> { self { "/Users/someone/Library/app.sqlite" } }
}

/// The manifest as `validate-factories` writes it, with the article's `prepare(_:)`.
enum FactoryManifest: FactoryManifestProtocol {
    @MainActor static let all: [FactoryManifestEntry] = [
        .factory(\Container.appModel, in: { Container() }),
        .factory(\Container.databasePath, in: { Container() }),
        .factory(\Container.report, in: { Container() }),
    ]
}

extension FactoryManifest {
    static func prepare(_ container: any ManagedContainer) {
        (container as? Container)?.databasePath.register { ":memory:" }
    }
}

@Suite(.container)
struct ValidatingTheWholeGraphArticleTests {
    @Test func theWholeGraphIsSound() async throws {
        try await FactoryManifest.expectNoProblems()
    }

    @Test func validateReturnsTheSameReport() async throws {
        let report = try await FactoryManifest.validate()
        #expect(report.problems.isEmpty, "\(report)")
    }

    @Test func prepareKeepsValidationOffTheRealDatabase() async throws {
        var paths: [String] = []
        let report = try await Container.shared.validateAll(FactoryManifest.all) { container in
            FactoryManifest.prepare(container)
            paths.append((container as? Container)?.databasePath() ?? "")
        }
        #expect(paths == [":memory:", ":memory:", ":memory:"])
        #expect(report.skipped.map(\.factory) == ["Container.report<Report>"])
    }
}

/// The hand-written manifest of the article.
enum HandWritten {
    enum FactoryManifest {
        static let all: [FactoryManifestEntry] = [
            .factory(\Container.appModel, in: { Container() }),
            .factory(\Container.report, in: { Container() }),
        ]
    }

    @Suite(.container)
    struct Tests {
        @Test func theListedFactoriesAreSound() async throws {
            let report = try await Container.shared.validateAll(FactoryManifest.all)
            #expect(report.problems.isEmpty, "\(report)")
        }

        @Test func theParameterFactoryIsListedAsSkipped() async throws {
            let report = try await Container.shared.validateAll(FactoryManifest.all)
            #expect(report.skipped.map(\.factory) == ["Container.report<Report>"])
        }
    }

    // Never called: it writes a file.
    static func drawTheWholeGraph() async throws {
        let report = try await Container.shared.validateAll(FactoryManifest.all)
        try report.graph.dot().write(toFile: "graph.dot", atomically: true, encoding: .utf8)
    }
}
