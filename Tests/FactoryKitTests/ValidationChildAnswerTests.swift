import FactoryTesting
import Foundation
import Testing

@testable import FactoryKit

// What the parent makes of its children's answers, and what a child inherits: the second
// review's findings about `validate`'s child processes.

/// How often `answeredCycle` was resolved in this process while not a child of `validate`.
let answeredCycleInTheParent = ChildBox(0)

extension Container {
    /// A cycle in a child process of `validate`; a plain value here, counted.
    var answeredCycle: Factory<Int> {
        self {
            guard isValidationChild else {
                answeredCycleInTheParent.set(answeredCycleInTheParent.value + 1)
                return 1
            }
            return self.answeredCycleBack()
        }
    }
    var answeredCycleBack: Factory<Int> { self { self.answeredCycle() } }

    /// Ends a child process of `validate` without an answer, as a crash would; a plain value here.
    var endsTheChild: Factory<Int> {
        self {
            if isValidationChild { _exit(1) }
            return 1
        }
    }

    /// Resolves `hopCycleB` on another thread and waits for it there: in a child process of
    /// `validate`, that thread meets a cycle, with no validation bound to it.
    var hopsToAnotherThread: Factory<Int> {
        self {
            let result = ChildBox(0)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                result.set(self.hopCycleB())
                done.signal()
            }
            done.wait()
            return result.value
        }
    }
    var hopCycleB: Factory<Int> { self { isValidationChild ? self.hopCycleC() : 1 }.cached }
    var hopCycleC: Factory<Int> { self { self.hopCycleB() }.cached }

    /// In a child process of `validate`, writes what its standard input is to
    /// `childRecord("stdin")`.
    var recordsStandardInput: Factory<Int> {
        self {
            if isValidationChild {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/0")) ?? "?"
                _ = FileManager.default.createFile(atPath: childRecord("stdin"), contents: Data(target.utf8))
            }
            return 1
        }
    }
}

@Suite(.container)
struct ValidationChildAnswerTests {
    /// A cycle a first child found stays reported, and is not resolved here, when a later child
    /// gives no answer (all answers were dropped, and the parent resolved the cycle itself).
    @Test func aCycleFoundBeforeAChildGaveNoAnswerStaysReported() async throws {
        let mark = TestLog.mark()
        let issues = try await Container.shared.validate(\.answeredCycle, \.endsTheChild)
        guard !isValidationChild else { return }
        #expect(issues.map(\.kind) == [.cycle])
        #expect(answeredCycleInTheParent.value == 0)
        #expect(
            TestLog.lines(since: mark).contains {
                $0.contains("ValidationChildAnswerTests.swift") && $0.contains("had no answer from a child process")
            })
    }

    /// A cycle met on another thread inside a factory, where no validation is bound, is the
    /// answering factory's (the child stopped, gave no answer, and the parent met the cycle).
    @Test func aCycleMetOnAnotherThreadInsideAFactoryIsReported() async throws {
        let issues = try await Container.shared.validate(\.hopsToAnotherThread)
        guard !isValidationChild else { return }
        #expect(issues.map(\.kind) == [.cycle])
    }

    #if os(Linux)
        /// The child reads no input: its standard input is `/dev/null`, not this process's (it
        /// could consume what this process had yet to read).
        @Test func theChildsStandardInputIsTheNullDevice() async throws {
            defer { try? FileManager.default.removeItem(atPath: childRecord("stdin")) }
            // Here, standard input is a pipe for the call, whatever the test run's is.
            var ends: [Int32] = [-1, -1]
            var saved: Int32 = -1
            if !isValidationChild {
                try #require(pipe(&ends) == 0)
                saved = dup(0)
                try #require(saved >= 0)
                dup2(ends[0], 0)
            }
            defer {
                if saved >= 0 {
                    dup2(saved, 0)
                    close(saved)
                    close(ends[0])
                    close(ends[1])
                }
            }
            let issues = try await Container.shared.validate(\.recordsStandardInput)
            guard !isValidationChild else { return }
            #expect(issues == [])
            let target = FileManager.default.contents(atPath: childRecord("stdin")).map {
                String(decoding: $0, as: UTF8.self)
            }
            #expect(target == "/dev/null")
        }
    #endif
}

extension Container {
    /// Appends this process's identifier to the file `FACTORYKIT_TEST_RESOLVED_IN` names.
    var recordsItsProcess: Factory<Int> {
        self {
            if let path = ProcessInfo.processInfo.environment["FACTORYKIT_TEST_RESOLVED_IN"] {
                let file = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
                if file >= 0 {
                    FileHandle(fileDescriptor: file, closeOnDealloc: true).write(Data("\(getpid())\n".utf8))
                }
            }
            return 1
        }
    }
}

@Suite(.container)
struct ValidationChildRequestTests {
    /// The request reaches the child whole, whatever its call site and result file hold (split
    /// at `@`, a call site in `At@Site.swift` made the child take itself for a parent, and start
    /// children without end).
    @Test func aRequestRoundTripsWhateverItsCallAndPathHold() {
        let request = ValidationChild.Request(
            call: "FactoryKitTests/At@Site.swift:3:5~0123456789abcdef#0", start: 2,
            result: "/tmp/with@sign/and \"quotes\"\n/factorykit-1")
        #expect(ValidationChild.Request(decoding: request.encoded) == request)
        #expect(ValidationChild.Request(decoding: "FactoryKitTests/At@Site.swift:3:5~0#0@0@/tmp/x") == nil)
        #expect(ValidationChild.Request(decoding: "") == nil)
    }

    /// A call site whose file's name holds `@` is answered by its child like any other.
    @Test func aCallSiteWithAnAtSignIsAnswered() async throws {
        let issues = try await Container.shared.validate(
            [\.answeredCycle], in: Container(), fileID: "FactoryKitTests/At@Site.swift")
        guard !isValidationChild else { return }
        #expect(issues.map(\.kind) == [.cycle])
    }

    /// No process with `FACTORYKIT_VALIDATE_CHILD` set starts a child, also one whose value it
    /// cannot read: it resolves the factories itself.
    @Test func aProcessWithAnUnreadableRequestStartsNoChild() async throws {
        if let path = ProcessInfo.processInfo.environment["FACTORYKIT_TEST_RESOLVED_IN"] {
            // In the process started below, or in a child process it started.
            _ = try await Container.shared.validate(\.recordsItsProcess)
            _ = FileManager.default.createFile(atPath: path + ".done", contents: nil)
            return
        }
        guard !isValidationChild else { return }
        #expect(!ValidationChild.canStart(in: [ValidationChild.variable: "not a request"]))
        let record = childRecord("unreadable")
        defer {
            try? FileManager.default.removeItem(atPath: record)
            try? FileManager.default.removeItem(atPath: record + ".done")
        }
        let process = Process()
        process.executableURL = Bundle.main.executableURL
        process.arguments = ValidationChild.arguments
        process.environment = ProcessInfo.processInfo.environment.merging(
            [ValidationChild.variable: "not a request", "FACTORYKIT_TEST_RESOLVED_IN": record],
            uniquingKeysWith: { $1 })
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date(timeIntervalSinceNow: promptly)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("the process did not end within \(Int(promptly)) s")
            return
        }
        #expect(FileManager.default.fileExists(atPath: record + ".done"), "the process did not validate")
        let resolvedIn = FileManager.default.contents(atPath: record).map {
            String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        #expect(resolvedIn == ["\(process.processIdentifier)"])
    }
}
