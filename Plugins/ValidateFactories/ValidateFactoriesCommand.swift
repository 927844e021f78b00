import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory validate-factories --target MyApp
/// [--output Tests/MyAppTests/FactoryManifest.swift] [--check] [--graph dot|mermaid|json
/// [--graph-output PATH]]`: finds every factory of a target and of the package targets it depends
/// on, in their symbol graphs, writes the manifest listing them (with `--check`, fails if the one
/// on disk differs), then resolves every factory through the test the manifest holds and prints
/// what is wrong with the wiring: each problem as `path:line: error: message`, at the factory's
/// declaration, as compilers print theirs (so CI systems and editors annotate the line), then
/// the skipped factories, then the summary, last whatever the output is connected to. Exits
/// non-zero on a stale manifest or a problem.
/// Without `--output`, the manifest is `FactoryManifest.swift` in the one test target that
/// depends on the target.
///
/// Symbol graphs, not a scan of the source text: the compiler has already resolved every
/// declaration form (extensions of `Container`, of `SharedContainer`, conformances declared apart
/// from the type, `typealias`es, nested containers) and names each property's exact type and owner,
/// so nothing is guessed. The price is a build of the target, which the command runs.
///
/// Validation runs inside the test target, where `@testable import` reaches internal factories and
/// the app's `FactoryManifest.prepare(_:)` is compiled: the command asks SwiftPM to run the
/// manifest's `FactoryManifestCommandTests`, which finds the command's request in
/// `.build/validate-factories/` and writes its answer there.
@main
struct ValidateFactoriesCommand: CommandPlugin {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What the generated test writes; the same shape as FactoryTesting's
    /// `ValidateFactoriesExchange.Answer`.
    struct Answer: Decodable {
        struct Problem: Decodable {
            var kind: String
            var factory: String
            var message: String
        }
        var summary: String
        var problems: [Problem]
        var skipped: [String]
        var dot: String
        var mermaid: String
        var json: String
    }

    static let usage =
        "swift package --allow-writing-to-package-directory validate-factories --target MyApp "
        + "[--output Tests/MyAppTests/FactoryManifest.swift] [--check] [--graph dot|mermaid|json [--graph-output PATH]]"

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let outputs = extractor.extractOption(named: "output")
        let graphFormats = extractor.extractOption(named: "graph")
        let graphOutputs = extractor.extractOption(named: "graph-output")
        let check = extractor.extractFlag(named: "check") > 0
        guard extractor.remainingArguments.isEmpty else {
            throw Failure(description: "validate-factories: unknown arguments \(extractor.remainingArguments).")
        }
        guard targetNames.count == 1, let targetName = targetNames.first, outputs.count <= 1 else {
            throw Failure(
                description: "validate-factories needs one --target, and --output once at most: \(Self.usage)")
        }
        guard graphFormats.count <= 1, graphOutputs.count <= 1, graphOutputs.isEmpty || !graphFormats.isEmpty,
            graphFormats.allSatisfy(["dot", "mermaid", "json"].contains)
        else {
            throw Failure(
                description:
                    "validate-factories: --graph takes dot, mermaid or json, once; --graph-output needs it. \(Self.usage)"
            )
        }
        guard let target = try context.package.targets(named: [targetName]).first as? SwiftSourceModuleTarget else {
            throw Failure(description: "validate-factories: \(targetName) is not a Swift target of this package.")
        }
        let root = context.package.directoryURL
        let output = try outputs.first ?? Self.defaultOutput(for: target, in: context.package)
        let url = root.appending(path: output)
        guard let testTarget = Self.testTarget(containing: url, in: context.package) else {
            throw Failure(
                description:
                    "validate-factories: --output \(output) is not in a test target. The manifest holds the test that "
                    + "validates it: put it in a test target that depends on \(targetName) and FactoryTesting.")
        }
        let started = Date()
        // The report, written at the end in one piece (see `finish`).
        var report: [String] = []
        let (text, count, modules, places) = try manifest(of: target, in: context.package, output: output)
        let current = try? String(contentsOf: url, encoding: .utf8)
        if check {
            guard current == text else {
                throw Failure(
                    description:
                        "\(output) is stale: the factories of \(targetName) changed since it was generated. Run "
                        + "`swift package --allow-writing-to-package-directory validate-factories --target "
                        + "\(targetName) --output \(output)` and commit the result.")
            }
            report.append("\(output) is up to date: \(counted(count, "factory", "factories")).")
        } else {
            if current != text { try text.write(to: url, atomically: true, encoding: .utf8) }
            report.append(
                "Wrote \(output): \(counted(count, "factory", "factories")) in \(counted(modules, "module", "modules"))."
            )
        }

        let answer = try validate(testTarget: testTarget, root: root)
        for problem in answer.problems {
            let place = Self.place(of: problem.factory, in: places).map { "\($0): " } ?? ""
            report.append("\(place)error: [\(problem.kind)] \(problem.message)")
        }
        report += answer.skipped.map { "skipped: \($0)" }
        if let format = graphFormats.first {
            let graph = format == "dot" ? answer.dot : format == "mermaid" ? answer.mermaid : answer.json
            if let graphOutput = graphOutputs.first {
                let url =
                    graphOutput.hasPrefix("/") ? URL(fileURLWithPath: graphOutput) : root.appending(path: graphOutput)
                try graph.write(to: url, atomically: true, encoding: .utf8)
                report.append("Wrote the graph to \(graphOutput) (\(format)).")
            } else {
                report.append(graph.hasSuffix("\n") ? String(graph.dropLast()) : graph)
            }
        }
        report.append(String(format: "validate-factories took %.1f s.", Date().timeIntervalSince(started)))
        // Last, where a reader of the log looks first.
        report.append(answer.summary)
        try finish(report, problems: answer.problems.count, in: targetName)
    }

    /// Writes `report`, whose last line is the summary, so that it ends the command's output
    /// whatever that is connected to.
    ///
    /// SwiftPM prints the plugin's output on its standard output, which it flushes only when it
    /// exits if that is a pipe (a CI log), and a failure on standard error at once: printed, the
    /// report would follow the failure in a log, and a reader of the failure alone (standard
    /// error, an editor's list of errors) would not see it. So a sound report is the output, and
    /// a report with problems is the failure itself, under a heading, the summary its last line;
    /// nothing goes to standard output then.
    private func finish(_ report: [String], problems: Int, in targetName: String) throws {
        guard problems == 0 else {
            let heading = "validate-factories found problems in the factories of \(targetName):"
            throw Failure(description: ([heading] + report).joined(separator: "\n"))
        }
        print(report.joined(separator: "\n"))
    }

    /// The manifest's text for `target`, how many factories it lists, in how many modules, and
    /// where each is declared (see ``FactoryDiscovery/places``).
    private func manifest(
        of target: SwiftSourceModuleTarget, in package: Package, output: String
    ) throws -> (text: String, factories: Int, modules: Int, places: [String: String]) {
        // The target and the package's own Swift targets it depends on, directly or not.
        let packageTargets = Set(package.targets.map(\.id))
        let modules = ([target] + target.recursiveTargetDependencies.compactMap { $0 as? SwiftSourceModuleTarget })
            .filter { packageTargets.contains($0.id) }
        var graphs: [SymbolGraph] = []
        for module in modules {
            let result = try packageManager.getSymbolGraph(
                for: module, options: .init(minimumAccessLevel: .internal, includeSynthesized: false))
            graphs += try SymbolGraph.all(in: result.directoryURL)
                .filter { $0.module.name == module.moduleName }
        }
        let discovery = FactoryDiscovery(graphs: graphs, root: package.directoryURL.path)
        for message in discovery.unsupported { Diagnostics.warning(message) }
        let text = ManifestWriter.manifest(
            target: target.name, modules: modules.map(\.moduleName), factories: discovery.factories,
            unsupported: discovery.unsupported, output: output,
            command:
                "swift package --allow-writing-to-package-directory validate-factories --target \(target.name) "
                + "--output \(output)")
        return (text, discovery.factories.count, modules.count, discovery.places)
    }

    /// Runs the manifest's generated test, which resolves every factory and answers in
    /// `.build/validate-factories/answer.json`.
    private func validate(testTarget: SwiftSourceModuleTarget, root: URL) throws -> Answer {
        let exchange = root.appending(path: ".build/validate-factories")
        let request = exchange.appending(path: "request")
        let answerURL = exchange.appending(path: "answer.json")
        try FileManager.default.createDirectory(at: exchange, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: answerURL)
        try Data().write(to: request)
        defer {
            try? FileManager.default.removeItem(at: request)
            try? FileManager.default.removeItem(at: answerURL)
        }
        let test = "\(testTarget.moduleName).FactoryManifestCommandTests"
        let result = try packageManager.test(.filtered([test]), parameters: .init(enableCodeCoverage: false))
        guard let data = try? Data(contentsOf: answerURL) else {
            let ran = result.testTargets.flatMap(\.testCases).flatMap(\.tests).count
            throw Failure(
                description:
                    ran == 0
                    ? "validate-factories: \(test) did not run. Does \(testTarget.name) build, and does it depend on "
                        + "FactoryTesting? `swift build --build-tests` shows why."
                    : "validate-factories: \(test) failed before it answered; `swift test --filter \(test)` shows why.")
        }
        return try JSONDecoder().decode(Answer.self, from: data)
    }

    /// `FactoryManifest.swift` in the test target that depends on `target`, when there is exactly one.
    static func defaultOutput(for target: SwiftSourceModuleTarget, in package: Package) throws -> String {
        let testTargets = package.targets.compactMap { $0 as? SwiftSourceModuleTarget }.filter { candidate in
            candidate.kind == .test
                && candidate.dependencies.contains {
                    if case .target(let dependency) = $0 { return dependency.id == target.id }
                    return false
                }
        }
        let root = package.directoryURL.standardizedFileURL.path
        guard testTargets.count == 1, let testTarget = testTargets.first,
            testTarget.directoryURL.standardizedFileURL.path.hasPrefix(root + "/")
        else {
            throw Failure(
                description:
                    "validate-factories: \(testTargets.isEmpty ? "no" : "more than one") test target depends on "
                    + "\(target.name) (\(testTargets.map(\.name).joined(separator: ", "))), so pass the manifest's path "
                    + "in one with --output, as in: \(Self.usage)")
        }
        return String(testTarget.directoryURL.standardizedFileURL.path.dropFirst(root.count + 1))
            + "/FactoryManifest.swift"
    }

    /// Where the factory a report names as `Container.name<Type>` (or `Container.name()<Type>`) is
    /// declared, as `path:line`, if discovery found it.
    static func place(of factory: String, in places: [String: String]) -> String? {
        var name = String(factory.prefix { $0 != "<" })
        if name.hasSuffix("()") { name.removeLast(2) }
        return places[name]
    }

    /// The test target whose folder holds `file`.
    private static func testTarget(containing file: URL, in package: Package) -> SwiftSourceModuleTarget? {
        package.targets.compactMap { $0 as? SwiftSourceModuleTarget }.first {
            $0.kind == .test && file.standardizedFileURL.path.hasPrefix($0.directoryURL.standardizedFileURL.path + "/")
        }
    }

    /// Writes `line` to standard output at once. SwiftPM reads the plugin's output through a
    /// pipe, where `print` keeps it in a buffer until the plugin exits: the warnings and the
    /// closing error, which reach SwiftPM through its own channel, were printed before it.
    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// `1 factory`, `2 factories`.
    private func counted(_ count: Int, _ one: String, _ many: String) -> String {
        "\(count) \(count == 1 ? one : many)"
    }
}
