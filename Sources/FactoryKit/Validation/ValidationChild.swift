import Foundation

/// Keeps a synchronous dependency cycle out of the process that calls `validate`.
///
/// A synchronous factory returns a value or nothing, so a cycle in it cannot be unwound: the
/// resolution that meets one stops its process. `validate` therefore starts this executable again
/// as a child process (in a test under FactoryTesting, only the running test), and ``variable``
/// names the call to answer: in the child, the same `validate` call resolves the factories from
/// the one asked for on, in order, as the parent would. At a cycle it writes that factory's
/// findings and the graph it recorded to the result file and exits; the parent starts another
/// child for the factories after it. Having run them all, it writes that it is done and exits.
/// Every other `validate` call of a child returns at once, having resolved nothing: a call that is
/// reached only depending on what an earlier one returned (`if !issues.isEmpty { … }`) is never
/// reached in the child, gets no answer, and the parent resolves its factories itself. A process
/// with ``variable`` set, whether or not it can read it, never starts a child itself.
///
/// A call is the same in parent and child when it has the same call site, validates the same
/// list (the container type and the listed factories, see ``call(at:validating:)``), and is the
/// same time the site was reached with that list in this test. Concurrent calls with different
/// lists therefore cannot be confused, whatever order they reach the site in. Each line names the
/// call it answers, how many factories the child had and, with no factories listed, which it
/// found registered; the parent trusts no answer that does not match its own, and resolves as if
/// no child had answered. Concurrent calls with the same site and the same list may still get
/// each other's answer; that differs from their own only if their factories resolve differently
/// depending on state that differs between the calls.
///
/// The parent then resolves in its own process each factory that met no cycle, so what the
/// caller sees (its `prepare`, the order of the report and the graph) is as if nothing had run
/// elsewhere, and never runs a factory of a cycle: no frame is abandoned, no lock or `static let`
/// is left taken. A child costs a process start: about 80 ms for a debug test bundle on Linux
/// running one test, about 3 s when FactoryKit's whole test run starts again.
///
/// A child runs this executable from its start, so it may wait before it reaches the call (for a
/// lock the parent holds). It reads no input: its standard input is `/dev/null`, so what the
/// parent has yet to read stays the parent's. As soon as it reaches the call it creates a marker
/// file; one that has not within ``reachDeadline(in:)`` (300 s, or
/// `FACTORYKIT_VALIDATE_CHILD_DEADLINE` seconds; `inf` is in effect none) is terminated, and
/// counts as giving no answer. Resolving has no deadline. When the
/// task awaiting `validate` is cancelled, the child is terminated (`SIGTERM`, then `SIGKILL`
/// after 2 s) and `validate` throws `CancellationError`. No child outlives the parent's call,
/// unless the parent is itself killed meanwhile.
///
/// Where no child process can be started (iOS, tvOS, watchOS and visionOS, where an app cannot
/// start processes, or when `FACTORYKIT_VALIDATE_IN_PROCESS` is set), or a child gave no answer
/// (it never reached the call, or crashed), or none that matched, the parent resolves the rest
/// itself, from the factory that child was asked about on, and a cycle among them stops it,
/// naming each factory of the cycle with `path:line`; the cycles earlier children found stand,
/// and are never resolved here. A cycle met in a child on a thread where no validation is bound
/// (one a factory hands work to and waits for) counts as the answering factory's.
enum ValidationChild {
    /// The environment variable that makes a process a child: a ``Request``, as JSON. A process
    /// with it set, whatever its value, never starts a child itself.
    static let variable = "FACTORYKIT_VALIDATE_CHILD"

    /// The environment variable that sets ``reachDeadline(in:)``, in seconds.
    static let deadlineVariable = "FACTORYKIT_VALIDATE_CHILD_DEADLINE"

    /// What a child writes to its result file, one line of JSON: a cycle met in factory `index`
    /// (-1: while listing the factories, before any was resolved), or that it is done.
    struct Line: Codable {
        /// The call the child answered.
        var call: String
        var index: Int
        var done: Bool
        /// How many factories the child had to resolve; 0 when it met a cycle listing them.
        var count: Int
        /// With no factories listed, those the child found registered (see ``listing(of:)``).
        var listing: String?
        /// The findings of factory `index`.
        var findings: [ValidationFinding] = []
        /// What the child resolved, up to the cycle.
        var graph = DependencyGraph()
    }

    /// What the children of one call found: the factories that met a cycle, by index, and the
    /// list they resolved.
    struct Answers {
        var cycles: [Int: Line] = [:]
        var count: Int?
        var listing: String?

        /// Whether the children resolved the list this process has: `count` factories, `listing`.
        func match(count: Int, listing: String?) -> Bool {
            (self.count == nil || self.count == count) && self.listing == listing
        }
    }

    /// What a child is asked: the call it answers (see ``call(at:validating:)``), the first
    /// factory to resolve, and the file to write to. ``variable`` holds it as JSON, so no
    /// character of the call site or the path (an `@` in a file's name) can be taken for the
    /// end of a field.
    struct Request: Codable, Equatable {
        var call: String
        var start: Int
        var result: String

        /// The value of ``variable`` that asks for this.
        var encoded: String {
            // Encoding strings and an integer cannot fail.
            String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self)
        }

        /// The request `value` of ``variable`` encodes, or nil.
        init?(decoding value: String) {
            guard let request = try? JSONDecoder().decode(Request.self, from: Data(value.utf8)) else { return nil }
            self = request
        }

        init(call: String, start: Int, result: String) {
            self.call = call
            self.start = start
            self.result = result
        }
    }

    /// What this process is asked, as a child; nil in any other process, and in one whose
    /// ``variable`` is set to something else, which answers nothing and starts no child.
    static let request: Request? = ProcessInfo.processInfo.environment[variable].flatMap(Request.init(decoding:))

    /// The arguments a child is started with: FactoryTesting's, which run only the current test,
    /// or this process's own.
    static var arguments: [String] {
        TestSupport.reporter?.relaunchArguments ?? Array(CommandLine.arguments.dropFirst())
    }

    /// How often each call was reached, per set of arguments (that is, per test).
    private static let reached = Locked<[String: Int]>([:])

    /// The call at `site` (`fileID:line:column`) validating `list` (what names the factories, the
    /// same in every run of this executable: see ``stable(_:)``): `site~hash#n`, where `hash`
    /// identifies the list and `n` counts how often the site was reached before with that list in
    /// this test. Concurrent calls with different lists are told apart whatever order they
    /// reach the site in.
    static func call(at site: String, validating list: String) -> String {
        let identity = "\(site)~\(hash(list))"
        let key = ([identity] + arguments).joined(separator: "\u{1}")
        let count = reached.withLock { reached in
            defer { reached[key, default: 0] += 1 }
            return reached[key, default: 0]
        }
        return "\(identity)#\(count)"
    }

    /// What a child compares to the parent's list of registered factories: their names.
    static func listing(of names: [String]) -> String {
        hash(names.joined(separator: "\u{1}"))
    }

    /// FNV-1a, 64 bits, in hex: the same in every process, unlike `Hasher`.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `description` of a key path or type, with each address in it (a key path to a computed
    /// property whose getter has no symbol name reads `\Container.<computed 0x55d1… (Factory<Int>)>`)
    /// replaced by the symbol or image and offset it falls in: the same in every run of this
    /// executable, wherever it is loaded. An address it cannot place (no `dladdr`, no
    /// `/proc/self/maps`) reads `?`: key paths that differ only there are not told apart.
    static func stable(_ description: String) -> String {
        // Read at the first address, once for the whole description (Linux).
        var maps: String?
        var result = ""
        var rest = Substring(description)
        while let prefix = rest.range(of: "0x") {
            result += rest[..<prefix.lowerBound]
            let digits = rest[prefix.upperBound...].prefix { $0.isHexDigit }
            rest = rest[prefix.upperBound...].dropFirst(digits.count)
            guard let address = UInt(digits, radix: 16) else {
                result += "0x" + digits
                continue
            }
            result += symbol(at: address, maps: &maps)
        }
        return result + rest
    }

    /// The symbol, or the image and offset, `address` falls in; on Linux, from `maps`, the text of
    /// `/proc/self/maps`, read into it on first use.
    private static func symbol(at address: UInt, maps: inout String?) -> String {
        #if canImport(Darwin)
            var info = Dl_info()
            guard let pointer = UnsafeRawPointer(bitPattern: address), dladdr(pointer, &info) != 0 else {
                return "?"
            }
            if let name = info.dli_sname { return String(cString: name) }
            let image = info.dli_fname.map { String(cString: $0).split(separator: "/").last.map(String.init) ?? "" }
            return "\(image ?? "?")+\(address &- UInt(bitPattern: info.dli_fbase))"
        #elseif os(Linux)
            // `start-end perms offset dev inode path`, one mapping a line. Read to the end: procfs
            // gives no size, and `String(contentsOfFile:)` stops after the first 4 KB.
            if maps == nil {
                maps =
                    FileHandle(forReadingAtPath: "/proc/self/maps").map {
                        String(decoding: $0.readDataToEndOfFile(), as: UTF8.self)
                    } ?? ""
            }
            for line in (maps ?? "").split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                let range = fields.first?.split(separator: "-") ?? []
                guard fields.count >= 6, range.count == 2, let start = UInt(range[0], radix: 16),
                    let end = UInt(range[1], radix: 16), let offset = UInt(fields[2], radix: 16),
                    start <= address, address < end
                else { continue }
                let image = fields[5...].joined(separator: " ").split(separator: "/").last.map(String.init) ?? ""
                return "\(image)+\(address - start + offset)"
            }
            return "?"
        #else
            return "?"
        #endif
    }

    /// How long a child may take to reach the call before it is terminated: `deadline` of the
    /// environment, else 300 s, which a child of a test bundle on a loaded machine (it took over
    /// 20 s to start at load 25 on 2 cores) stays well within. A value that is not a positive
    /// number (`nan`, `-5`, `abc`) gives 300 s; one of ``longestDeadline`` or more (`inf`,
    /// `1e17`), in effect none, gives ``longestDeadline``.
    static func reachDeadline(in environment: [String: String]) -> Duration {
        guard let text = environment[deadlineVariable], let seconds = Double(text), seconds > 0 else {
            return .seconds(300)
        }
        guard seconds < longestDeadlineSeconds else { return longestDeadline }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// The longest ``reachDeadline(in:)``, about 31 years: no deadline in effect, and far from
    /// what overflows a `Duration` or a clock's instant.
    static let longestDeadline = Duration.seconds(Int64(longestDeadlineSeconds))
    private static let longestDeadlineSeconds: Double = 1_000_000_000

    /// A deadline for tests, in place of the environment's.
    @TaskLocal static var deadlineForTests: Duration?

    /// The factories that met a cycle in a child process, by index, with what the child found;
    /// nil where no child could run, or the first gave no answer or answered another call. When a
    /// later child does, the answers of those before it stand: the factories from the one it was
    /// asked about on are unanswered, and this process resolves them itself. Throws
    /// `CancellationError` when the task is cancelled, having ended the child.
    static func cycles(of call: String) async throws -> Answers? {
        let environment = ProcessInfo.processInfo.environment
        if environment[variable] != nil {
            Diagnostics.log(
                "FactoryKit: validate at \(call): \(variable) is set, but not to a request this process can "
                    + "read; a process with it set starts no child process, so this one resolves the factories "
                    + "itself, and a cycle stops it.")
        }
        guard canStart(in: environment) else { return nil }
        var answers = Answers()
        var start = 0
        while true {
            // What a later child leaves unanswered, this process resolves; the cycles found before stand.
            let rest =
                start == 0
                ? "a cycle stops this one."
                : "this process resolves the factories from number \(start + 1) on itself, and a cycle among "
                    + "them stops it; the cycles earlier children found (\(answers.cycles.count)) stand."
            guard let line = try await answer(to: call, from: start) else {
                Diagnostics.log("FactoryKit: validate at \(call) had no answer from a child process; " + rest)
                return start == 0 ? nil : answers
            }
            guard line.call == call, line.done || line.index >= start || (line.index == -1 && start == 0),
                answers.count == nil || (answers.count == line.count && answers.listing == line.listing)
            else {
                Diagnostics.log(
                    "FactoryKit: validate at \(call) had an answer from a child process for another call or list "
                        + "(\(line.call)); " + rest)
                return start == 0 ? nil : answers
            }
            answers.count = line.count
            answers.listing = line.listing
            if line.done { return answers }
            answers.cycles[line.index] = line
            start = line.index + 1
            if line.index < 0 || start >= line.count { return answers }
        }
    }

    /// Whether this process can start a child: not where `environment` sets
    /// `FACTORYKIT_VALIDATE_IN_PROCESS`, nor ``variable`` (this process is itself a child, even
    /// one whose request it cannot read: a child that started children could start them without
    /// end).
    static func canStart(in environment: [String: String]) -> Bool {
        #if os(Linux) || os(macOS)
            return environment["FACTORYKIT_VALIDATE_IN_PROCESS"] == nil && environment[variable] == nil
        #else
            return false
        #endif
    }

    /// Starts a child that answers `call` from factory `start` on, and returns its line, or nil
    /// when it gave none. Ends the child before it returns or throws.
    private static func answer(to call: String, from start: Int) async throws -> Line? {
        #if os(Linux) || os(macOS)
            let result = FileManager.default.temporaryDirectory.appendingPathComponent("factorykit-\(UUID())")
            let marker = result.path + ".reached"
            guard canStart(in: ProcessInfo.processInfo.environment), let executable = Bundle.main.executableURL
            else { return nil }
            defer {
                try? FileManager.default.removeItem(at: result)
                try? FileManager.default.removeItem(atPath: marker)
            }
            // Before the child starts: nothing between its start and its end may stop this process.
            let deadline = deadlineForTests ?? reachDeadline(in: ProcessInfo.processInfo.environment)
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(
                [variable: Request(call: call, start: start, result: result.path).encoded], uniquingKeysWith: { $1 })
            // The child reads no input: what this process has yet to read stays this process's.
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let ended = Locked(false)
            process.terminationHandler = { _ in ended.withLock { $0 = true } }
            do { try process.run() } catch { return nil }
            let clock = ContinuousClock()
            let latest = clock.now.advanced(by: deadline)
            var reachedCall = false
            while !ended.withLock({ $0 }) {
                if Task.isCancelled {
                    await end(process, ended)
                    throw CancellationError()
                }
                if !reachedCall {
                    reachedCall = FileManager.default.fileExists(atPath: marker)
                    if !reachedCall && clock.now >= latest {
                        await end(process, ended)
                        Diagnostics.log(
                            "FactoryKit: validate at \(call): the child process did not reach the call within "
                                + "\(deadline) (\(deadlineVariable) sets it), so it was terminated. It runs this "
                                + "executable from its start: something before the call waits (for input, or a "
                                + "lock this process holds).")
                        return nil
                    }
                }
                await pause(.milliseconds(25))
            }
            guard let data = FileManager.default.contents(atPath: result.path) else { return nil }
            return try? JSONDecoder().decode(Line.self, from: data)
        #else
            return nil
        #endif
    }

    #if os(Linux) || os(macOS)
        /// Terminates `process` (`SIGTERM`, then `SIGKILL` after 2 s) and waits until it has ended.
        private static func end(_ process: Process, _ ended: Locked<Bool>) async {
            if !ended.withLock({ $0 }) { process.terminate() }
            let clock = ContinuousClock()
            let latest = clock.now.advanced(by: .seconds(2))
            var killed = false
            while !ended.withLock({ $0 }) {
                if !killed && clock.now >= latest {
                    kill(process.processIdentifier, SIGKILL)
                    killed = true
                }
                await pause(.milliseconds(10))
            }
        }
    #endif

    /// Waits `duration`, also in a cancelled task (where `Task.sleep` returns at once).
    private static func pause(_ duration: Duration) async {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
                continuation.resume()
            }
        }
    }

    /// What a child is answering: the run, the factory it resolves now (-1 while it lists them),
    /// where that factory's findings begin, and the list.
    private static let answering = Locked<
        (call: String, run: ValidationRun, index: Int, findings: Int, count: Int, listing: String?)?
    >(nil)

    /// Answers `request` in a child: says it reached the call, lists the factories (`list`, which
    /// returns how many there are and, with no factories listed, ``listing(of:)`` of them),
    /// resolves them from the one asked for on, writes that it is done, and exits. A cycle met
    /// meanwhile ends the child earlier (``exitAtCycle(_:)``).
    static func answer(
        _ request: Request, for run: ValidationRun,
        list: () async -> (count: Int, listing: String?), _ resolve: (Int) async -> Void
    ) async -> Never {
        _ = FileManager.default.createFile(atPath: request.result + ".reached", contents: nil)
        answering.withLock { $0 = (request.call, run, -1, run.sink.findings.count, 0, nil) }
        let (count, listing) = await list()
        for index in request.start..<max(count, request.start) {
            answering.withLock { $0 = (request.call, run, index, run.sink.findings.count, count, listing) }
            await resolve(index)
        }
        await run.sink.closeBlocks()
        write(Line(call: request.call, index: count, done: true, count: count, listing: listing))
    }

    /// In a child, inside the resolution it answers for: reports `finding`, a cycle, writes it
    /// with what the factory found and resolved before, and exits. So too on a thread where no
    /// validation is bound, as one a factory hands work to and waits for (`DispatchQueue.async`
    /// and a semaphore): what meets a cycle in a child while it answers is the factory's doing.
    /// Returns anywhere else: outside a child, before it answers, or where another validation
    /// is bound.
    static func exitAtCycle(_ finding: ValidationFinding) {
        guard let answering = answering.withLock({ $0 }) else { return }
        let sink = ValidationSink.current
        guard sink == nil || sink === answering.run.sink else { return }
        answering.run.sink.report(finding)
        write(
            Line(
                call: answering.call, index: answering.index, done: false, count: answering.count,
                listing: answering.listing, findings: Array(answering.run.sink.findings.dropFirst(answering.findings)),
                graph: answering.run.recorder.graph))
    }

    /// Taken by the first thread to write the result, and never released: another waits until
    /// the process has ended.
    private static let writing = NSLock()

    /// Writes `line` to the result file and ends the child.
    private static func write(_ line: Line) -> Never {
        writing.lock()
        if let request, let data = try? JSONEncoder().encode(line) {
            _ = FileManager.default.createFile(atPath: request.result, contents: data)
        }
        exit(0)
    }
}
