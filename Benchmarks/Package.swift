// swift-tools-version: 6.2
import PackageDescription

// Benchmarks of FactoryKit against hand-written wiring. A separate package, so users of the
// library never build it.
let package = Package(
    name: "FactoryBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Factory", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "FactoryBenchmarks",
            dependencies: [.product(name: "FactoryKit", package: "Factory")]
        ),
        // Creates and drops containers and resolves across scopes: resident memory must stay
        // flat, and valgrind must find no leak (`.ci/check-memory`).
        .executableTarget(
            name: "MemoryCheck",
            dependencies: [.product(name: "FactoryKit", package: "Factory")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
