// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Factory",
    platforms: [
        .iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v8), .visionOS(.v1), .macCatalyst(.v13),
    ],
    products: [
        .library(name: "FactoryKit", targets: ["FactoryKit"]),
        .library(name: "FactoryKitDynamic", type: .dynamic, targets: ["FactoryKit"]),
        .library(name: "FactoryTesting", targets: ["FactoryTesting"]),
        // For packages written against Factory 2.x, which name the product `Factory` and write
        // `import Factory`: the same library under that name.
        .library(name: "Factory", targets: ["Factory"]),
        .plugin(name: "ValidateFactories", targets: ["ValidateFactories"]),
    ],
    targets: [
        .target(name: "FactoryKit", dependencies: ["FactoryKitAtomics"]),
        // `import Factory`, as Factory 2.x clients write it: re-exports FactoryKit.
        .target(name: "Factory", dependencies: ["FactoryKit"]),
        // C11 atomics for FactoryKit, available on every platform and OS version it supports.
        .target(name: "FactoryKitAtomics"),
        // `swift package validate-factories`: writes the manifest of every factory of a target,
        // found in its symbol graphs, resolves each through the manifest's test, and reports
        // (and draws, with --graph) the wiring.
        .plugin(
            name: "ValidateFactories",
            capability: .command(
                intent: .custom(
                    verb: "validate-factories",
                    description:
                        "Lists every factory of a target in a manifest, resolves each one, and reports problems"),
                permissions: [
                    .writeToPackageDirectory(
                        reason: "Writes the manifest given by --output, the graph, and its request in .build")
                ]
            )
        ),
        .target(
            name: "FactoryTesting",
            dependencies: ["FactoryKit"]
        ),
        .testTarget(
            name: "FactoryKitTests",
            dependencies: ["FactoryKit", "FactoryTesting"]
        ),
        // Built the way new Xcode projects are: every unannotated declaration is main-actor
        // isolated. Proves that client code written that way compiles against FactoryKit.
        .testTarget(
            name: "FactoryKitMainActorTests",
            dependencies: ["FactoryKit", "FactoryTesting"],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        // The code blocks of the DocC articles, compiled and, where cheap, run;
        // `.ci/check-snippets` checks every block appears here.
        .testTarget(
            name: "DocSnippetsTests",
            dependencies: ["FactoryKit", "FactoryTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
