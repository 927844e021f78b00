import FactoryKit
import Foundation
import Testing

/// A flag that threads read and the test sets.
final class ValidationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Bool

    init(_ value: Bool) { self.value = value }

    var isOn: Bool {
        get {
            lock.lock()
            defer { lock.unlock() }
            return value
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            value = newValue
        }
    }
}

/// Whether `validationSharedP` resolves `validationSharedQ`, closing the cycle: on while the cycle
/// is validated, off when the caller's container is used afterwards. Only one test touches it.
let validationSharedCycle = ValidationFlag(false)

extension Container {
    /// Half of a cycle through `Container.shared`, as `@Injected` resolves, with cached scopes.
    var validationSharedP: Factory<ValidationService> {
        self {
            if validationSharedCycle.isOn { _ = Container.shared.validationSharedQ() }
            return ValidationService()
        }.cached
    }
    var validationSharedQ: Factory<ValidationService> {
        self {
            _ = Container.shared.validationSharedP()
            return ValidationService()
        }.cached
    }
}

/// A number of `/proc/self/status` (Linux only): `Threads`, or `VmSize` and `VmRSS` in kB.
func processStatus(_ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        let number = line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces)
        return Int(number.split(separator: " ").first ?? "")
    }
    return nil
}

/// The threads of this process, from `/proc/self/status` (Linux only).
func processThreadCount() -> Int? { processStatus("Threads") }

/// Validation leaves nothing behind in the caller's world: no reservation in the caller's
/// `Container.shared`, no thread. Under the trait, so that `validate`'s child runs only the test.
@Suite(.container) struct ValidationIsolationTests {
    @Test func aCycleThroughTheSharedContainerLeavesTheCallersContainerUsable() async throws {
        let callers = Container()
        try await Container.$shared.withValue(callers) {
            validationSharedCycle.isOn = true
            defer { validationSharedCycle.isOn = false }
            let issues = try await Container.shared.validate(\.validationSharedQ)
            #expect(issues.map(\.kind) == [.cycle])
            #expect(issues.first?.message.hasPrefix("Dependency cycle: Container.validationSharedQ<") == true)
        }
        // The caller's container, used from another thread, answers at once: validation left no
        // creation in progress there. (Before, it waited for ever for the validation's parked
        // thread; the test gives up after 20 s instead of hanging.)
        let resolved = ValidationFlag(false)
        let thread = Thread {
            _ = callers.validationSharedQ()
            resolved.isOn = true
        }
        thread.start()
        let deadline = Date(timeIntervalSinceNow: 20)
        while !resolved.isOn && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(resolved.isOn, "Container.shared.validationSharedQ() still blocked 20 s after validate returned")
    }

    @Test(.enabled(if: processThreadCount() != nil, "reads /proc/self/status"))
    func validatingACycleTenTimesLeavesTheThreadCountFlat() async throws {
        // Once first, so the concurrency runtime's own threads are already there.
        _ = try await Container.shared.validate(\.validationSyncCycleA)
        let before = try #require(processThreadCount())
        let (sizeBefore, residentBefore) = (processStatus("VmSize") ?? 0, processStatus("VmRSS") ?? 0)
        for _ in 0..<10 {
            let issues = try await Container.shared.validate(\.validationSyncCycleA)
            #expect(issues.map(\.kind) == [.cycle])
        }
        // Other tests run alongside and start threads of their own: allow them a few, and a moment
        // to end theirs. A thread left per validation would be 10 more.
        var after = try #require(processThreadCount())
        let deadline = Date(timeIntervalSinceNow: 20)
        while after > before + 8 && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
            after = try #require(processThreadCount())
        }
        print(
            "ValidationIsolationTests: 10 validations of a cycle: threads \(before) → \(after), address space "
                + "\(sizeBefore / 1024) → \((processStatus("VmSize") ?? 0) / 1024) MB, resident \(residentBefore / 1024) → "
                + "\((processStatus("VmRSS") ?? 0) / 1024) MB")
        #expect(after <= before + 8, "threads: \(before) before 10 validations of a cycle, \(after) after")
    }
}
