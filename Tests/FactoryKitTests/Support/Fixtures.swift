import FactoryKit
import Foundation
import Testing

// Services used across the tests. Each test file defines the factories it needs on its own,
// with names prefixed by the file's topic, so files never collide.

protocol Greeting: AnyObject, Sendable {
    var text: String { get }
}

final class Greeter: Greeting, @unchecked Sendable {
    let text: String
    init(_ text: String = "hello") { self.text = text }
}

final class MockGreeter: Greeting, @unchecked Sendable {
    let text: String
    init(_ text: String = "mock") { self.text = text }
}

/// A class whose instances count themselves, to check how often a factory ran.
final class Counted: @unchecked Sendable {
    let number: Int
    init(_ counter: Counter) { number = counter.next() }
}

/// Counts the `Tracked` instances that are alive, to prove values are released, not leaked.
final class Census: @unchecked Sendable {
    private let lock = NSLock()
    private var created = 0
    private var living = 0

    func born() -> Int {
        lock.lock()
        defer { lock.unlock() }
        created += 1
        living += 1
        return created
    }

    func died() {
        lock.lock()
        defer { lock.unlock() }
        living -= 1
    }

    var alive: Int {
        lock.lock()
        defer { lock.unlock() }
        return living
    }
}

final class Tracked: @unchecked Sendable {
    let number: Int
    let census: Census

    init(_ census: Census) {
        self.census = census
        number = census.born()
    }

    deinit { census.died() }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// Collects log lines from FactoryKit's logger.
final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func record(_ line: String) {
        lock.lock()
        storage.append(line)
        lock.unlock()
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// A value type, for scopes that cannot hold values weakly.
struct Point: Equatable, Sendable {
    var x: Int
    var y: Int
}

/// Runs `body` on `count` threads at once, released together, and waits for all of them.
func runConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread {
            start.wait()
            body(index)
            group.leave()
        }
    }
    for _ in 0..<count { start.signal() }
    group.wait()
}

/// A barrier for `count` threads: each `arrive()` blocks until all have arrived, or until
/// `timeout` passes (so a test that serialises by mistake fails instead of hanging).
final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting = 0
    private let count: Int
    private let timeout: TimeInterval

    init(_ count: Int, timeout: TimeInterval = 2) {
        self.count = count
        self.timeout = timeout
    }

    /// Returns true when everyone arrived in time.
    @discardableResult
    func arrive() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        waiting += 1
        if waiting >= count {
            condition.broadcast()
            return true
        }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while waiting < count {
            if !condition.wait(until: deadline) { return waiting >= count }
        }
        return true
    }
}

/// Everything FactoryKit logs during the test run.
///
/// The logger is process-wide and tests run in parallel, so tests never swap it: the first use
/// installs one recorder for the whole run, and each test looks for the lines only it can cause
/// (each names a factory no other test uses), starting from a mark taken before it acts.
enum TestLog {
    private static let recorder: LogRecorder = {
        let recorder = LogRecorder()
        Container().manager.logger = { recorder.record($0) }
        return recorder
    }()

    /// Where the log ends now; pass it to `lines(since:)`.
    static func mark() -> Int { recorder.lines.count }

    static func lines(since mark: Int) -> [String] { Array(recorder.lines.dropFirst(mark)) }
}

/// Runs `body`, which resolves a factory whose registration a context override hides, and
/// expects the one warning FactoryKit records for it in a test (the override still wins).
func resolvingShadowedRegistration<T>(_ body: () -> T) -> T {
    var result: T?
    // `withKnownIssue` is how a test sees the issues it records: the warning is what it checks.
    withKnownIssue("expected: the warning for a registration a context override hides") {
        result = body()
    } matching: { issue in
        #if compiler(>=6.3)
            guard issue.severity == .warning else { return false }
        #endif
        return issue.comments.contains { $0.rawValue.contains("override applies here and wins") }
    }
    return result!
}
