// swift-tools-version: 6.2
import PackageDescription

// A multi-module app in miniature, built and tested by CI: a shared `Services` module re-exports
// FactoryKit and promises a dependency, `Accounts` implements it, `AppCore` wires them together,
// and the tests depend on the app and FactoryTesting only.
let package = Package(
    name: "ModulesFixture",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Factory", path: "../..")
    ],
    targets: [
        .target(name: "Services", dependencies: [.product(name: "FactoryKit", package: "Factory")]),
        .target(name: "Accounts", dependencies: ["Services"]),
        .target(name: "AppCore", dependencies: ["Services", "Accounts"]),
        .testTarget(
            name: "AppCoreTests",
            dependencies: ["AppCore", .product(name: "FactoryTesting", package: "Factory")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
