import Foundation

/// Instruction counts under `valgrind --tool=callgrind`, which repeat exactly from run to run.
///
/// Each side of a scenario runs twice in a child process, for `count` and `2 × count` operations;
/// the difference divided by `count` is the cost of one operation, with start-up, warm-up and
/// set-up cancelled out. Allocations per operation come from the same runs (calls to
/// `swift_slowAlloc`, which every Swift allocation goes through).
struct InstructionCount: Codable {
    let instructions: Int
    let allocations: Double
}

enum InstructionCounts {
    static func measure(_ scenario: Scenario, side: String, count: Int) throws -> InstructionCount {
        let single = try callgrind(scenario.id, side: side, count: count)
        let double = try callgrind(scenario.id, side: side, count: 2 * count)
        return InstructionCount(
            instructions: (double.instructions - single.instructions) / count,
            allocations: Double(double.allocations - single.allocations) / Double(count))
    }

    struct Totals {
        let instructions: Int
        let allocations: Int
    }

    static func callgrind(_ id: String, side: String, count: Int) throws -> Totals {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent(
                "factorykit-callgrind-\(ProcessInfo.processInfo.processIdentifier)-\(id)-\(side)-\(count)")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "valgrind", "--tool=callgrind", "--callgrind-out-file=\(output.path)",
            executablePath, "run", id, side, String(count),
        ]
        // Dictionary hashing is seeded per process; fixing the seed makes counts repeat exactly.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError(
                "valgrind failed for \(id) \(side) (status \(process.terminationStatus)); is valgrind installed?")
        }
        return try parse(String(contentsOf: output, encoding: .utf8))
    }

    /// Reads the total instruction count and the number of calls to `swift_slowAlloc`.
    static func parse(_ text: String) throws -> Totals {
        var total: Int?
        var names: [String: String] = [:]
        var calledName = ""
        var allocations = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("summary:") || line.hasPrefix("totals:") {
                total = Int(line.split(separator: " ").last ?? "")
            } else if line.hasPrefix("cfn=") {
                calledName = resolveName(String(line.dropFirst(4)), names: &names)
            } else if line.hasPrefix("fn=") {
                _ = resolveName(String(line.dropFirst(3)), names: &names)
            } else if line.hasPrefix("calls="), calledName == "swift_slowAlloc" {
                let value = line.dropFirst(6).split(separator: " ").first ?? ""
                allocations += Int(value) ?? 0
            }
        }
        guard let total else { throw BenchmarkError("no instruction total in callgrind's output") }
        return Totals(instructions: total, allocations: allocations)
    }

    /// Callgrind names a function in full once, as `(id) name`, and by `(id)` alone afterwards.
    static func resolveName(_ field: String, names: inout [String: String]) -> String {
        guard field.hasPrefix("("), let close = field.firstIndex(of: ")") else { return field }
        let id = String(field[field.startIndex...close])
        let rest = field[field.index(after: close)...].trimmingCharacters(in: .whitespaces)
        if !rest.isEmpty { names[id] = rest }
        return names[id] ?? ""
    }

    static var executablePath: String {
        #if os(Linux)
            if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                return resolved
            }
        #endif
        return CommandLine.arguments[0]
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
