import Foundation

/// Keeps a synchronous dependency cycle out of the process that calls `validate`.
///
/// A synchronous factory returns a value or nothing, so a cycle in it cannot be unwound: the
/// resolution that meets one stops its process. `validate` therefore starts this executable again
/// as a child process (in a test under FactoryTesting, only the running test), and ``variable``
/// names the call to answer: in the child, the same `validate` call (the same call site, as often
/// reached in the same test) resolves the factories from the one asked for on, in order, as the
/// parent would. At a cycle it writes that factory's findings and the graph it recorded to the
/// result file and exits; the parent starts another child for the factories after it. Having run
/// them all, it writes that it is done and exits. Every other `validate` call of a child returns
/// at once, having resolved nothing.
///
/// The parent then resolves in its own process each factory that met no cycle, so what the
/// caller sees (its `prepare`, the order of the report and the graph) is as if nothing had run
/// elsewhere, and never runs a factory of a cycle: no frame is abandoned, no lock or `static let`
/// is left taken. A child costs a process start: about 80 ms for a debug test bundle on Linux
/// running one test, about 3 s when FactoryKit's whole test run starts again.
///
/// Where no child process can be started (iOS, tvOS, watchOS and visionOS, where an app cannot
/// start processes, or when `FACTORYKIT_VALIDATE_IN_PROCESS` is set), or a child gave no answer
/// (it never reached the call, or crashed), the parent resolves the rest itself and a cycle
/// stops it, naming each factory of the cycle with `path:line`.
enum ValidationChild {
    /// The environment variable that makes a process a child: `call@start@result file`.
    static let variable = "FACTORYKIT_VALIDATE_CHILD"

    /// What a child writes to its result file, one line of JSON: a cycle met in factory `index`,
    /// or that it is done.
    struct Line: Codable {
        var index: Int
        var done: Bool
        /// The findings of factory `index`.
        var findings: [ValidationFinding] = []
        /// What the child resolved, up to the cycle.
        var graph = DependencyGraph()
    }

    /// The call a child answers (see ``call(at:)``), the first factory to resolve, and the file
    /// to write to; nil in any other process.
    static let request: (call: String, start: Int, result: String)? = {
        guard let value = ProcessInfo.processInfo.environment[variable] else { return nil }
        let parts = value.split(separator: "@", maxSplits: 2).map(String.init)
        guard parts.count == 3, let start = Int(parts[1]) else { return nil }
        return (parts[0], start, parts[2])
    }()

    /// The arguments a child is started with: FactoryTesting's, which run only the current test,
    /// or this process's own.
    static var arguments: [String] {
        TestSupport.reporter?.relaunchArguments ?? Array(CommandLine.arguments.dropFirst())
    }

    /// How often each call site was reached, per set of arguments (that is, per test).
    private static let reached = Locked<[String: Int]>([:])

    /// The call: `site`, and how often it was reached before in this test, `fileID:line:column#n`.
    static func call(at site: String) -> String {
        let key = ([site] + arguments).joined(separator: "\u{1}")
        let count = reached.withLock { reached in
            defer { reached[key, default: 0] += 1 }
            return reached[key, default: 0]
        }
        return "\(site)#\(count)"
    }

    /// The factories of `count` that met a cycle in a child process, by index, with what the
    /// child found; empty where no child could run.
    static func cycles(of call: String, count: Int) async -> [Int: Line] {
        var cycles: [Int: Line] = [:]
        var start = 0
        while start < count, canStart {
            guard let line = await answer(to: call, from: start) else {
                Diagnostics.log(
                    "FactoryKit: validate at \(call) had no answer from a child process; a cycle stops this one.")
                break
            }
            if line.done { break }
            cycles[line.index] = line
            start = line.index + 1
        }
        return cycles
    }

    /// Whether this process can start a child.
    private static var canStart: Bool {
        #if os(Linux) || os(macOS)
            return ProcessInfo.processInfo.environment["FACTORYKIT_VALIDATE_IN_PROCESS"] == nil
        #else
            return false
        #endif
    }

    /// Starts a child that answers `call` from factory `start` on, and returns its line, or nil
    /// when it gave none.
    private static func answer(to call: String, from start: Int) async -> Line? {
        #if os(Linux) || os(macOS)
            let result = FileManager.default.temporaryDirectory.appendingPathComponent("factorykit-\(UUID())")
            guard let executable = Bundle.main.executableURL else { return nil }
            defer { try? FileManager.default.removeItem(at: result) }
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(
                [variable: "\(call)@\(start)@\(result.path)"], uniquingKeysWith: { $1 })
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let ran = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                process.terminationHandler = { _ in continuation.resume(returning: true) }
                do { try process.run() } catch { continuation.resume(returning: false) }
            }
            guard ran, let data = FileManager.default.contents(atPath: result.path) else { return nil }
            return try? JSONDecoder().decode(Line.self, from: data)
        #else
            return nil
        #endif
    }

    /// What a child is answering: the run, the factory it resolves now, and where that factory's
    /// findings begin.
    private static let answering = Locked<(run: ValidationRun, index: Int, findings: Int)?>(nil)

    /// Answers `request` in a child: resolves the factories from the one asked for on, writes
    /// that it is done, and exits. A cycle met meanwhile ends the child earlier (``exitAtCycle(_:)``).
    static func answer(
        _ request: (call: String, start: Int, result: String), for run: ValidationRun, count: Int,
        _ resolve: (Int) async -> Void
    ) async -> Never {
        for index in request.start..<count {
            answering.withLock { $0 = (run, index, run.sink.findings.count) }
            await resolve(index)
        }
        await run.sink.closeBlocks()
        write(Line(index: count, done: true))
    }

    /// In a child, inside the resolution it answers for: reports `finding`, a cycle, writes it
    /// with what the factory found and resolved before, and exits. Returns anywhere else.
    static func exitAtCycle(_ finding: ValidationFinding) {
        guard let answering = answering.withLock({ $0 }), ValidationSink.current === answering.run.sink else { return }
        answering.run.sink.report(finding)
        write(
            Line(
                index: answering.index, done: false,
                findings: Array(answering.run.sink.findings.dropFirst(answering.findings)),
                graph: answering.run.recorder.graph))
    }

    /// Writes `line` to the result file and ends the child.
    private static func write(_ line: Line) -> Never {
        if let request, let data = try? JSONEncoder().encode(line) {
            _ = FileManager.default.createFile(atPath: request.result, contents: data)
        }
        exit(0)
    }
}
