/// What ``Container/validateAll(_:preparing:fileID:line:column:)`` found: the factories it checked, the issues, and the graph
/// of every resolution it made.
///
/// ```swift
/// let report = try await Container.shared.validateAll(FactoryManifest.all)
/// #expect(report.problems.isEmpty, "\(report)")
/// print(report.graph.dot())
/// ```
public struct ValidationReport: Sendable, Equatable, CustomStringConvertible {
    /// Each factory of the manifest, as `Container.factory<Type>`, in the manifest's order.
    public let factories: [String]
    /// Every issue found, skipped factories included, in the order they were found.
    public let issues: [ValidationIssue]
    /// Which factory resolved which while the manifest was validated, across container types.
    public let graph: DependencyGraph

    /// Creates a report.
    public init(factories: [String], issues: [ValidationIssue], graph: DependencyGraph) {
        self.factories = factories
        self.issues = issues
        self.graph = graph
    }

    /// The issues that are faults in the wiring: every issue but the skipped factories.
    public var problems: [ValidationIssue] { issues.filter { $0.kind != .skipped } }

    /// The factories validation could not resolve: those that take a parameter.
    public var skipped: [ValidationIssue] { issues.filter { $0.kind == .skipped } }

    /// `Validated 15 factories: 1 problem, 2 skipped.`
    package var summary: String {
        let (factories, problems) = (factories.count, problems.count)
        return "Validated \(factories) \(factories == 1 ? "factory" : "factories"): \(problems) "
            + "\(problems == 1 ? "problem" : "problems"), \(skipped.count) skipped."
    }

    /// A summary line, then one line per problem and one per skipped factory.
    public var description: String {
        var lines = [summary]
        lines += problems.map { "error: [\($0.kind.rawValue)] \($0.message)" }
        lines += skipped.map { "skipped: \($0.message)" }
        return lines.joined(separator: "\n")
    }
}
