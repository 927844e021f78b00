public import FactoryKit
import Foundation

/// A list of every factory of an app, as `swift package validate-factories` generates it, with
/// how to keep validation off real resources.
///
/// The command writes an `enum FactoryManifest: FactoryManifestProtocol` listing each factory of
/// a target in ``all``. Validate the whole graph in a test with one call, which records each
/// problem as an issue of the test at the factory's definition, `path:line`:
///
/// ```swift
/// @Test func theWholeGraphIsSound() async throws {
///     try await FactoryManifest.expectNoProblems()
/// }
/// ```
///
/// Validation really resolves each factory. When one would reach a real resource, declare
/// ``prepare(_:)`` in an extension of your own, next to the generated file: the command and
/// ``validate()`` both call it on each fresh container before its factory is resolved.
///
/// ```swift
/// extension FactoryManifest {
///     static func prepare(_ container: any ManagedContainer) {
///         (container as? Container)?.databasePath.register { ":memory:" }
///     }
/// }
/// ```
public protocol FactoryManifestProtocol: SendableMetatype {
    /// One entry per factory. On the main actor, so it may name factories declared `@MainActor`.
    @MainActor static var all: [FactoryManifestEntry] { get }

    /// Called with each fresh container after its `autoRegister()` and before its factory is
    /// resolved; does nothing unless you declare it.
    static func prepare(_ container: any ManagedContainer)
}

extension FactoryManifestProtocol {
    /// Does nothing: declare `static func prepare(_:)` in an extension of the manifest to register
    /// stand-ins for real resources.
    public static func prepare(_ container: any ManagedContainer) {}

    /// Resolves every factory of ``all``, each in a fresh container prepared by ``prepare(_:)``,
    /// and reports what is wrong with the wiring: see
    /// `Container.validateAll(_:preparing:fileID:line:column:)`.
    public static func validate() async throws -> ValidationReport {
        try await Container().validateAll(all, preparing: prepare)
    }

    /// Validates ``all`` as ``validate()`` does, and records each problem as an issue of the
    /// running test at the definition of the factory at fault, saying
    /// `path:line: error: [kind] message` as `swift package validate-factories` prints it. Returns
    /// the report.
    ///
    /// In a Swift Testing test the issue points at the definition; under XCTest, a failure at the
    /// definition in a ``ContainerTestCase``, else at this call (`file` and `line`, which you
    /// leave to their defaults). A problem whose factory is not in ``all`` has no definition to
    /// point at: it is recorded at this call, without a `path:line`.
    @discardableResult
    public static func expectNoProblems(file: StaticString = #filePath, line: UInt = #line) async throws
        -> ValidationReport
    {
        let report = try await validate()
        guard !report.problems.isEmpty else { return report }
        let sites = await MainActor.run { TestSupport.definitionSites(of: all) }
        let reporter = TestSupport.reporter ?? CallSiteIssueReporter(file: file, line: line)
        for problem in report.problems {
            let site = sites[problem.factory]
            let place = site.map { "\($0.filePath):\($0.line): " } ?? ""
            reporter.recordIssue("\(place)error: [\(problem.kind.rawValue)] \(problem.message)", at: site)
        }
        return report
    }

    /// The body of the test that `swift package validate-factories` generates next to the list
    /// and runs: validates ``all`` and hands the report to the command. Does nothing unless the
    /// command asked for it, so an ordinary test run neither validates twice nor lists the test
    /// as skipped.
    ///
    /// - Parameters:
    ///   - path: the manifest's path in its package, as the command's `--output` gave it.
    ///   - file: the manifest's path on disk; leave it to the default.
    /// - Throws: when the manifest is no longer at `path` (regenerate it), or validation threw.
    public static func answerValidateFactoriesCommand(path: String, file: String = #filePath) async throws {
        guard let exchange = ValidateFactoriesExchange(manifestFile: file, path: path) else {
            throw ValidateFactoriesExchange.Moved(file: file, path: path)
        }
        guard FileManager.default.fileExists(atPath: exchange.request.path) else { return }
        let report = try await validate()
        try exchange.answer(with: report)
    }
}

/// How the generated test and the `validate-factories` command talk: the command leaves a request
/// in `.build/validate-factories/` of the package, the test writes its answer beside it.
/// The plugin decodes ``Answer`` with a copy of this shape; change both together.
struct ValidateFactoriesExchange {
    /// The manifest is not where its generated test says: the command could not find its answer.
    struct Moved: Error, CustomStringConvertible {
        let file: String
        let path: String
        var description: String {
            "\(file) does not end with \(path): run validate-factories again to regenerate the manifest"
        }
    }

    /// What the command prints and writes.
    struct Answer: Codable {
        /// A problem: the plugin prints it at the factory's declaration, which it knows.
        struct Problem: Codable {
            /// The issue's kind, such as `cycle`.
            var kind: String
            /// The factory at fault, `Container.name<Type>`.
            var factory: String
            /// What went wrong, and what to do about it.
            var message: String
        }
        /// The report's summary line.
        var summary: String
        /// Each problem, in the report's order.
        var problems: [Problem]
        /// One line per skipped factory.
        var skipped: [String]
        /// The graph of every resolution, in each format the command offers.
        var dot: String
        var mermaid: String
        var json: String
    }

    /// The file whose presence asks the test to answer.
    let request: URL
    /// Where the answer goes.
    let answer: URL

    /// The exchange of the package holding `manifestFile`, whose path in the package is `path`.
    init?(manifestFile: String, path: String) {
        guard manifestFile.hasSuffix("/" + path) else { return nil }
        let root = URL(fileURLWithPath: String(manifestFile.dropLast(path.count)), isDirectory: true)
        let folder = root.appendingPathComponent(".build/validate-factories", isDirectory: true)
        request = folder.appendingPathComponent("request")
        answer = folder.appendingPathComponent("answer.json")
    }

    /// Writes the answer for `report`.
    func answer(with report: ValidationReport) throws {
        let answer = Answer(
            summary: report.summary,
            problems: report.problems.map {
                Answer.Problem(kind: $0.kind.rawValue, factory: $0.factory, message: $0.message)
            },
            skipped: report.skipped.map(\.message),
            dot: report.graph.dot(),
            mermaid: report.graph.mermaid(),
            json: try report.graph.json())
        try JSONEncoder().encode(answer).write(to: self.answer, options: .atomic)
    }

}
