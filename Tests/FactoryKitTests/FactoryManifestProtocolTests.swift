import FactoryKit
import FactoryTesting
import Foundation
import Testing
import XCTest

/// A manifest as `validate-factories` generates it, with no `prepare(_:)` of its own.
private enum PlainManifest: FactoryManifestProtocol {
    @MainActor static let all: [FactoryManifestEntry] = [
        .factory(\Container.manifestPlain, in: { Container() }),
        .factory(\ManifestFeatureContainer.usesForgotten, in: { ManifestFeatureContainer() }),
        .factory(\ManifestFeatureContainer.lookup, in: { ManifestFeatureContainer() }),
    ]
}

/// A manifest that lists the promise nothing fulfils, so its problem has a definition to point at.
private enum LocatedManifest: FactoryManifestProtocol {
    @MainActor static let all: [FactoryManifestEntry] = [
        .factory(\ManifestFeatureContainer.forgotten, in: { ManifestFeatureContainer() })
    ]
}

/// The line of `forgotten`'s `promised()` in ValidateAllTests.swift.
private let forgottenLine = 15

/// A manifest whose extension declares `prepare(_:)`, as an app does to keep validation off real
/// resources.
private enum PreparedManifest: FactoryManifestProtocol {
    @MainActor static let all: [FactoryManifestEntry] = [
        .factory(\ManifestFeatureContainer.usesForgotten, in: { ManifestFeatureContainer() })
    ]
}

extension PreparedManifest {
    static func prepare(_ container: any ManagedContainer) {
        (container as? ManifestFeatureContainer)?.forgotten.register { ManifestService() }
    }
}

@Suite(.container)
struct FactoryManifestProtocolTests {
    @Test func validateResolvesEveryEntry() async throws {
        let report = try await PlainManifest.validate()
        #expect(report.factories.count == 3)
        #expect(report.problems.map(\.factory) == ["ManifestFeatureContainer.forgotten<Optional<ManifestService>>"])
        #expect(report.skipped.map(\.factory) == ["ManifestFeatureContainer.lookup<ManifestService>"])
    }

    @Test func aPrepareDeclaredInAnExtensionIsTheOneUsed() async throws {
        let report = try await PreparedManifest.validate()
        #expect(report.issues.isEmpty, "\(report)")
    }

    /// The package layout the command sees: a manifest at `Tests/AppTests/FactoryManifest.swift`.
    private func package() -> (root: URL, file: String, path: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID())")
        let path = "Tests/AppTests/FactoryManifest.swift"
        return (root, root.appendingPathComponent(path).path, path)
    }

    /// Issue 38: an XCTest case that shows as skipped in every run was noise; it passes, doing
    /// nothing, unless the command asked.
    @Test func theCommandsTestDoesNothingWhenTheCommandDidNotAsk() async throws {
        let (root, file, path) = package()
        defer { try? FileManager.default.removeItem(at: root) }
        try await PlainManifest.answerValidateFactoriesCommand(path: path, file: file)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent(".build").path))
    }

    @Test func aManifestMovedAwayFromItsPathFailsWithTheReason() async throws {
        let error = await #expect(throws: (any Error).self) {
            try await PlainManifest.answerValidateFactoriesCommand(
                path: "Tests/Elsewhere/FactoryManifest.swift", file: "/tmp/Tests/AppTests/FactoryManifest.swift")
        }
        #expect(String(describing: error).contains("does not end with Tests/Elsewhere/FactoryManifest.swift"))
        #expect(!(error is XCTSkip))
    }

    /// Issue 38: the in-test report gives each problem at its factory's definition, `path:line`,
    /// as the command prints it.
    @Test func expectNoProblemsRecordsEachProblemAtItsDefinition() async throws {
        let definitions = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("ValidateAllTests.swift").path
        try await withKnownIssue("expected: the manifest's unregistered promise, at its definition") {
            let report = try await LocatedManifest.expectNoProblems()
            #expect(report.problems.count == 1)
        } matching: { issue in
            issue.sourceLocation?.filePath == definitions && issue.sourceLocation?.line == forgottenLine
                && issue.comments.contains {
                    $0.rawValue.hasPrefix(
                        "\(definitions):\(forgottenLine): error: [unregisteredPromise] "
                            + "ManifestFeatureContainer.forgotten<Optional<ManifestService>> was promised")
                }
        }
    }

    @Test func expectNoProblemsRecordsNothingForASoundManifest() async throws {
        let report = try await PreparedManifest.expectNoProblems()
        #expect(report.issues.isEmpty)
    }

    @Test func theCommandsTestAnswersWithTheReportAndTheGraph() async throws {
        let (root, file, path) = package()
        defer { try? FileManager.default.removeItem(at: root) }
        let exchange = root.appendingPathComponent(".build/validate-factories")
        try FileManager.default.createDirectory(at: exchange, withIntermediateDirectories: true)
        try Data().write(to: exchange.appendingPathComponent("request"))

        try await PlainManifest.answerValidateFactoriesCommand(path: path, file: file)

        let data = try Data(contentsOf: exchange.appendingPathComponent("answer.json"))
        let answer = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        // Issue 38: plurals as English has them.
        #expect(answer["summary"] as? String == "Validated 3 factories: 1 problem, 1 skipped.")
        // Each problem with its factory, which the command prints at the factory's declaration.
        let problems = try #require(answer["problems"] as? [[String: String]])
        #expect(problems.count == 1)
        #expect(problems.first?["kind"] == "unregisteredPromise")
        #expect(problems.first?["factory"] == "ManifestFeatureContainer.forgotten<Optional<ManifestService>>")
        #expect(problems.first?["message"]?.hasPrefix("ManifestFeatureContainer.forgotten") == true)
        #expect((answer["skipped"] as? [String])?.first?.hasPrefix("ManifestFeatureContainer.lookup") == true)
        let dot = try #require(answer["dot"] as? String)
        #expect(dot.contains("\"ManifestFeatureContainer.usesForgotten<ManifestService>\" -> "))
        #expect((answer["mermaid"] as? String)?.hasPrefix("graph LR") == true)
        let json = try #require((answer["json"] as? String)?.data(using: .utf8))
        let graph = try JSONDecoder().decode(DependencyGraph.self, from: json)
        #expect(graph.nodes.contains { $0.id == "Container.manifestPlain<ManifestService>" })
    }
}
