import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory validate-factories --target MyApp
/// --output Tests/MyAppTests/FactoryManifest.swift [--check]`: finds every factory of a target and
/// of the package targets it depends on, in their symbol graphs, and writes the manifest that
/// `Container.validateAll(_:)` checks in a test.
///
/// Symbol graphs, not a scan of the source text: the compiler has already resolved every
/// declaration form (extensions of `Container`, of `SharedContainer`, conformances declared apart
/// from the type, `typealias`es, nested containers) and names each property's exact type and owner,
/// so nothing is guessed. The price is a build of the target, which the command runs.
@main
struct ValidateFactoriesCommand: CommandPlugin {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let outputs = extractor.extractOption(named: "output")
        let check = extractor.extractFlag(named: "check") > 0
        guard extractor.remainingArguments.isEmpty else {
            throw Failure(description: "validate-factories: unknown arguments \(extractor.remainingArguments).")
        }
        guard targetNames.count == 1, let targetName = targetNames.first, outputs.count == 1, let output = outputs.first
        else {
            throw Failure(
                description:
                    "validate-factories needs one --target and one --output, as in: swift package "
                    + "--allow-writing-to-package-directory validate-factories --target MyApp "
                    + "--output Tests/MyAppTests/FactoryManifest.swift [--check]")
        }
        guard let target = try context.package.targets(named: [targetName]).first as? SwiftSourceModuleTarget else {
            throw Failure(description: "validate-factories: \(targetName) is not a Swift target of this package.")
        }
        // The target and the package's own Swift targets it depends on, directly or not.
        let packageTargets = Set(context.package.targets.map(\.id))
        let modules = ([target] + target.recursiveTargetDependencies.compactMap { $0 as? SwiftSourceModuleTarget })
            .filter { packageTargets.contains($0.id) }
        var graphs: [SymbolGraph] = []
        for module in modules {
            let result = try packageManager.getSymbolGraph(
                for: module, options: .init(minimumAccessLevel: .internal, includeSynthesized: false))
            graphs += try SymbolGraph.all(in: result.directoryURL)
                .filter { $0.module.name == module.moduleName }
        }
        let discovery = FactoryDiscovery(graphs: graphs, root: context.package.directoryURL.path)
        for message in discovery.unsupported { Diagnostics.warning(message) }
        let text = ManifestWriter.manifest(
            target: targetName, modules: modules.map(\.moduleName), factories: discovery.factories,
            unsupported: discovery.unsupported,
            command: "swift package validate-factories --target \(targetName) --output \(output)")
        let url = context.package.directoryURL.appending(path: output)
        let current = try? String(contentsOf: url, encoding: .utf8)
        if check {
            guard current == text else {
                throw Failure(
                    description:
                        "\(output) is stale: the factories of \(targetName) changed since it was generated. Run "
                        + "`swift package --allow-writing-to-package-directory validate-factories --target "
                        + "\(targetName) --output \(output)` and commit the result.")
            }
            print("\(output) is up to date: \(counted(discovery.factories.count, "factory", "factories")).")
        } else {
            if current != text { try text.write(to: url, atomically: true, encoding: .utf8) }
            print(
                "Wrote \(output): \(counted(discovery.factories.count, "factory", "factories")) in "
                    + "\(counted(modules.count, "module", "modules")).")
        }
    }

    /// `1 factory`, `2 factories`.
    private func counted(_ count: Int, _ one: String, _ many: String) -> String {
        "\(count) \(count == 1 ? one : many)"
    }
}
