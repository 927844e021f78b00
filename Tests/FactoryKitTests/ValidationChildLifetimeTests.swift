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
