import Foundation

/// Type-checks Swift source against the FactoryKit module this test binary was built with, for
/// tests of what the compiler tells a user who misuses the API.
enum TypeChecker {
    /// The folder holding `FactoryKit.swiftmodule`: SwiftPM puts it in `Modules` beside the test
    /// binary, or a few levels up where the binary sits inside a bundle.
    static let modules: URL? = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = folder.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("FactoryKit.swiftmodule").path) {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }()

    /// The compiler's `error:` lines for `source`, as `line: message`.
    static func errors(in source: String) throws -> [String] {
        guard let modules else { throw Unavailable.noModules }
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("factorykit-typecheck-\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // FactoryKit's inlinable code calls its C atomics, so clients need that module's map too;
        // SwiftPM writes it beside `Modules`.
        let atomicsMap = modules.deletingLastPathComponent()
            .appendingPathComponent("FactoryKitAtomics.build/module.modulemap")
        process.arguments = [
            "swiftc", "-swift-version", "6", "-typecheck", "-I", modules.path,
            "-Xcc", "-fmodule-map-file=\(atomicsMap.path)", file.path,
        ]
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let prefix = file.path + ":"
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard line.hasPrefix(prefix), line.contains(": error: ") else { return nil }
            let rest = line.dropFirst(prefix.count)
            let number = rest.prefix { $0.isNumber }
            guard let message = rest.range(of: "error: ").map({ rest[$0.upperBound...] }) else { return nil }
            return "\(number): \(message)"
        }
    }

    enum Unavailable: Error {
        case noModules
    }
}
