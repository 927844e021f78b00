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
