// swift-tools-version: 6.2
import PackageDescription

// The example application: `notes`, a small notes tool on SQLite, wired with FactoryKit.
// A separate package, so users of the library never build it.
let package = Package(
    name: "FactoryExamples",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "notes", targets: ["notes"])
    ],
    dependencies: [
        // `name:` keeps the identity stable whatever the checkout's folder is called.
        .package(name: "Factory", path: "..")
    ],
    targets: [
        // The system's SQLite. Install it with `apt-get install libsqlite3-dev` on Debian and Ubuntu.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // Everything but `main`: model, seams, storage, services, the command line and the
        // composition root, so tests can drive all of it in-process.
        .target(
            name: "NotesCore",
            dependencies: ["CSQLite", .product(name: "FactoryKit", package: "Factory")]
        ),
        .executableTarget(name: "notes", dependencies: ["NotesCore"]),
        .testTarget(
            name: "NotesCoreTests",
            dependencies: [
                "NotesCore",
                "notes",  // built before the tests, which also run it as separate processes
                .product(name: "FactoryTesting", package: "Factory"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
