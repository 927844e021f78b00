import FactoryTesting
import Foundation
import Testing

@testable import FactoryKit

// How long the parent waits for a child process of `validate`, and that no child outlives the
// parent's call.

/// Where a child process of the test `name` writes its process identifier, named by its parent's.
func childRecord(_ name: String) -> String {
    let parent = isValidationChild ? getppid() : getpid()
    return FileManager.default.temporaryDirectory.appendingPathComponent("factorykit-test-\(parent)-\(name).pid").path
}

/// In a child process of `validate`, writes its process identifier, then waits for ever before
/// it reaches the call, as an executable that waits for input or a lock would. Returns at once
/// anywhere else.
func waitForEverInTheChild(_ name: String) {
    guard isValidationChild else { return }
    _ = FileManager.default.createFile(atPath: childRecord(name), contents: Data("\(getpid())".utf8))
    while true { sleep(1) }
}

/// The process identifier the child of the test `name` wrote, once it has, within `promptly`.
func childProcess(_ name: String) async throws -> pid_t? {
    let deadline = Date(timeIntervalSinceNow: promptly)
    while Date() < deadline {
        if let data = FileManager.default.contents(atPath: childRecord(name)),
            let pid = pid_t(String(decoding: data, as: UTF8.self))
        {
            return pid
        }
        try await Task.sleep(for: .milliseconds(20))
    }
    return nil
}

/// Whether the process `pid` has ended and been reaped.
func hasEnded(_ pid: pid_t) -> Bool {
    kill(pid, 0) == -1 && errno == ESRCH
}

/// What `task` ended with, or nil if it had not ended within `seconds`.
func outcome(of task: Task<[ValidationIssue], any Error>, within seconds: TimeInterval) async throws
    -> Result<[ValidationIssue], any Error>?
{
    let result = ChildBox<Result<[ValidationIssue], any Error>?>(nil)
    Task { result.set(await task.result) }
    let deadline = Date(timeIntervalSinceNow: seconds)
    while result.value == nil && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    return result.value
}

@Suite(.container)
struct ValidationChildLifetimeTests {
    /// Cancelling the task that awaits `validate` ends its child and `validate` throws
    /// `CancellationError` (it waited for the child, which waited for ever, and the child lived on).
    @Test func cancellingTheValidationEndsTheChildAndThrows() async throws {
        waitForEverInTheChild("cancel")
        defer { try? FileManager.default.removeItem(atPath: childRecord("cancel")) }
        let validation = Task { try await Container.shared.validate(\.callFirst) }
        let pid = try #require(try await childProcess("cancel"))
        defer { if !hasEnded(pid) { kill(pid, SIGKILL) } }
        validation.cancel()
        let result = try #require(try await outcome(of: validation, within: 60), "validate did not return")
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(hasEnded(pid))
    }
}

/// Where the parent of `slowInTheChild` says it may return.
func goRecord() -> String { childRecord("resolving") + ".go" }

extension Container {
    /// In a child process of `validate`: writes its process identifier and waits until the parent
    /// says it may return. Returns at once anywhere else.
    var slowInTheChild: Factory<Int> {
        self {
            if isValidationChild {
                _ = FileManager.default.createFile(atPath: childRecord("resolving"), contents: Data("\(getpid())".utf8))
                while !FileManager.default.fileExists(atPath: goRecord()) { usleep(20_000) }
            }
            return 1
        }
    }
}

@Suite(.container)
struct ValidationChildDeadlineTests {
    /// The deadline applies to reaching the call, not to resolving: a child still resolving after
    /// it is left to finish. A child that did not reach the call in time, as on a loaded machine,
    /// proves nothing: then the test tries again with a longer deadline.
    @Test func aChildResolvingPastTheDeadlineIsLeftToFinish() async throws {
        defer {
            try? FileManager.default.removeItem(atPath: childRecord("resolving"))
            try? FileManager.default.removeItem(atPath: goRecord())
        }
        var deadline = Duration.seconds(2)
        while true {
            let mark = TestLog.mark()
            let started = ContinuousClock.now
            let current = deadline
            let site = "ValidationChildLifetimeTests.swift:\(#line + 3)"
            let validation = Task {
                try await ValidationChild.$deadlineForTests.withValue(current) {
                    try await Container.shared.validate(\.slowInTheChild)
                }
            }
            if isValidationChild {
                // Each call returns at once, until the one this child answers.
                _ = await validation.result
                continue
            }
            var pid: pid_t?
            while pid == nil && ContinuousClock.now < started + .seconds(promptly) {
                if let data = FileManager.default.contents(atPath: childRecord("resolving")) {
                    pid = pid_t(String(decoding: data, as: UTF8.self))
                } else if try await outcome(of: validation, within: 0.02) != nil {
                    break
                }
            }
            guard let pid else {
                // The child did not reach the call by the deadline.
                try #require(deadline < .seconds(100), "the child never reached the call")
                deadline *= 4
                continue
            }
            defer { if !hasEnded(pid) { kill(pid, SIGKILL) } }
            try await Task.sleep(until: started + deadline + .milliseconds(500))
            _ = FileManager.default.createFile(atPath: goRecord(), contents: nil)
            let result = try #require(try await outcome(of: validation, within: 60), "validate did not return")
            #expect(try result.get() == [])
            let lines = TestLog.lines(since: mark).filter { $0.contains(site) }
            #expect(lines.isEmpty, "\(lines)")
            #expect(hasEnded(pid))
            return
        }
    }

    /// A child that does not reach the call by the deadline is ended, and the parent resolves the
    /// factories itself, saying why (it waited for ever).
    @Test func aChildThatDoesNotReachTheCallByTheDeadlineIsEnded() async throws {
        waitForEverInTheChild("deadline")
        defer { try? FileManager.default.removeItem(atPath: childRecord("deadline")) }
        let mark = TestLog.mark()
        let validation = Task {
            try await ValidationChild.$deadlineForTests.withValue(.seconds(2)) {
                try await Container.shared.validate(\.callFirst)
            }
        }
        let pid = try await childProcess("deadline")
        defer { if let pid, !hasEnded(pid) { kill(pid, SIGKILL) } }
        let result = try #require(try await outcome(of: validation, within: 60), "validate did not return")
        #expect(try result.get() == [])
        #expect(TestLog.lines(since: mark).contains { $0.contains("the child process did not reach the call within") })
        if let pid { #expect(hasEnded(pid)) }
    }

    /// The deadline is 300 s unless `FACTORYKIT_VALIDATE_CHILD_DEADLINE` gives one in seconds.
    @Test func theDeadlineComesFromTheEnvironment() {
        #expect(ValidationChild.reachDeadline(in: [:]) == .seconds(300))
        #expect(
            ValidationChild.reachDeadline(in: ["FACTORYKIT_VALIDATE_CHILD_DEADLINE": "12.5"]) == .milliseconds(12_500))
        #expect(ValidationChild.reachDeadline(in: ["FACTORYKIT_VALIDATE_CHILD_DEADLINE": "soon"]) == .seconds(300))
    }

    /// No value of `FACTORYKIT_VALIDATE_CHILD_DEADLINE` stops the process: an infinite or huge one
    /// is the longest deadline, in effect none (`inf` and `1e17` trapped converting to `Int64`,
    /// after the child had started, leaving it behind). One that is no positive number gives
    /// 300 s.
    @Test func anyDeadlineFromTheEnvironmentIsTaken() {
        func deadline(_ text: String) -> Duration {
            ValidationChild.reachDeadline(in: ["FACTORYKIT_VALIDATE_CHILD_DEADLINE": text])
        }
        for text in ["inf", "infinity", "1e17", "1e300", "1e9"] {
            #expect(deadline(text) == ValidationChild.longestDeadline, "\(text)")
        }
        #expect(ValidationChild.longestDeadline >= .seconds(365 * 24 * 3600 * 30))
        #expect(ContinuousClock.now.advanced(by: ValidationChild.longestDeadline) > .now)
        #expect(deadline("999999999") == .seconds(999_999_999))
        #expect(deadline("0.001") == .milliseconds(1))
        for text in ["nan", "-inf", "-5", "0", "abc", ""] {
            #expect(deadline(text) == .seconds(300), "\(text)")
        }
    }

    #if os(Linux)
        /// The description of a key path to a computed property can hold an address, which differs
        /// between runs of the executable: it is named by the image and offset instead.
        @Test func addressesInADescriptionAreNamedTheSameInEveryRun() throws {
            // The last mapping of a file (under the thread sanitizer, the first are its own, of no
            // file, and well past the first 4 KB): `start-end perms offset dev inode path`.
            let maps = try #require(FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile())
            let fields = try #require(
                String(decoding: maps, as: UTF8.self).split(separator: "\n")
                    .map { $0.split(separator: " ", omittingEmptySubsequences: true) }
                    .last { $0.count >= 6 && $0[5].hasPrefix("/") })
            let start = try #require(fields.first?.split(separator: "-").first.flatMap { UInt($0, radix: 16) })
            let offset = try #require(UInt(fields[2], radix: 16))
            let image = try #require(fields[5...].joined(separator: " ").split(separator: "/").last)
            let description = "\\Container.<computed 0x\(String(start + 16, radix: 16)) (Factory<Int>)>"
            #expect(
                ValidationChild.stable(description) == "\\Container.<computed \(image)+\(offset + 16) (Factory<Int>)>")
            #expect(ValidationChild.stable("\\Container.callFirst") == "\\Container.callFirst")
        }
    #endif
}
