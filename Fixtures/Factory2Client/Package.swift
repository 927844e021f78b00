// swift-tools-version: 5.9
import PackageDescription

// A package written for Factory 2.x, unchanged but for where the package comes from: it names the
// product `Factory`, writes `import Factory`, and builds in the Swift 5 language mode its tools
// version implies. CI builds and tests it against this checkout.
let package = Package(
    name: "LegacyApp",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Factory", path: "../.."),
    ],
    targets: [
        .target(name: "LegacyApp", dependencies: [.product(name: "Factory", package: "Factory")]),
        .testTarget(name: "LegacyAppTests", dependencies: ["LegacyApp", .product(name: "Factory", package: "Factory")]),
    ]
)
