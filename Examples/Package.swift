// swift-tools-version: 6.2
import PackageDescription

// The example programs. A separate package, so users of the library never build them.
let package = Package(
    name: "FactoryExamples",
    platforms: [.macOS(.v13)],
    dependencies: [
        // `name:` keeps the identity stable whatever the checkout's folder is called.
        .package(name: "Factory", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "demo",
            dependencies: [.product(name: "FactoryKit", package: "Factory")]
        )
    ],
    swiftLanguageModes: [.v6]
)
