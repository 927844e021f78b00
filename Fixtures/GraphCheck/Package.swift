// swift-tools-version: 6.2
import PackageDescription

// An app with planted wiring faults, for `swift package validate-factories` and
// `Container.validateAll(_:)`: `Catalog` declares factories in every form the documentation shows,
// `App` wires them in `autoRegister()` and holds a forgotten promise, a cycle and a scope leak.
// `.ci/check-factory-manifest` runs the command on it; its tests validate the generated manifest.
let package = Package(
    name: "GraphCheckFixture",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Factory", path: "../..")
    ],
    targets: [
        .target(name: "Catalog", dependencies: [.product(name: "FactoryKit", package: "Factory")]),
        .target(name: "App", dependencies: ["Catalog"]),
        .testTarget(
            name: "AppTests",
            dependencies: ["App", .product(name: "FactoryTesting", package: "Factory")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
