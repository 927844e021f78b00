// swift-tools-version: 6.2
import PackageDescription

// Getting Started, followed literally by a new user, with FactoryKit as a path dependency (as a
// fork or a local checkout would be): CI builds and tests it, and `.ci/check-snippets` finds the
// article's code blocks here.
let package = Package(
    name: "MyApp",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Factory", path: "../.."),
    ],
    targets: [
        .target(name: "MyApp", dependencies: [.product(name: "FactoryKit", package: "Factory")]),
        .testTarget(name: "MyAppTests", dependencies: ["MyApp", .product(name: "FactoryTesting", package: "Factory")]),
    ],
    swiftLanguageModes: [.v6]
)
