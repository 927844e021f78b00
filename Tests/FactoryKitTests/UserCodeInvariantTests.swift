import FactoryKit
import Foundation
import Testing
import XCTest

// The invariants about user code (issue 26, item 2):
// - no user code (a factory closure, a decorator, an override, the `deinit` of a value or of a
//   closure's captures) runs while a FactoryKit lock is held: a `deinit` may resolve from and
//   register on the container that dropped it;
// - a value dropped by a write is released on the writing thread (or by a caller that still held
//   it), never on a thread that only resolved something else;
// - no write waits for another thread's user code.
//
// Scenarios that can trap ("Recursive call to lock Mutex") or hang run in a child process (an exit
// test), which records what went wrong as an issue and on standard error; the child's own watchdog
// ends a hang. The rest run in this process, each with a deadline. (Scopes are final classes with
// no user code, so a custom scope's `deinit` has no scenario.)

/// How long a child process may take before its watchdog calls it hung: generous, for a loaded
/// machine running sanitizers.
private let hangDeadline: TimeInterval = 25

extension Container {
    /// What a capture's or a value's `deinit` resolves: unique, cached and singleton.
    fileprivate var userCodeProbe: Factory<Int> { self { 0 } }
    fileprivate var userCodeCachedProbe: Factory<Int> { self { 1 }.cached }
    fileprivate var userCodeSingletonProbe: Factory<Int> { self { 2 }.singleton }
    /// What `deinit`s register on.
    fileprivate var userCodeRegisteredInDeinit: Factory<Int> { self { 3 } }
    /// A factory whose options (registration, override, decorator) capture a `ContainerUser`.
    fileprivate var userCodeTarget: Factory<Int> { self { 4 } }
    /// A factory whose values are `ContainerUser`s.
    fileprivate var userCodeValue: Factory<ContainerUser> { self { ContainerUser() } }
}

/// Counts the runs of `UsesContainer.now()`, so a scenario whose user code never ran fails instead
/// of passing vacuously.
private enum UserCodeRuns {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var value = 0
    nonisolated(unsafe) private static var running = false

    static func increment() {
        lock.lock()
        value += 1
        lock.unlock()
    }

    /// Runs `body` unless it is running already: a container decorator that resolves runs again
    /// for what it resolves.
    static func unlessRunning(_ body: () -> Void) {
        lock.lock()
        let nested = running
        running = true
        lock.unlock()
        guard !nested else { return }
        body()
        lock.lock()
        running = false
        lock.unlock()
    }

    static var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// What user code does with the container it belongs to, the way a logger or tracker does: it
/// resolves from `Container.shared` (unique, cached and singleton) and registers on it.
private enum UsesContainer {
    static func now() {
        UserCodeRuns.unlessRunning {
            let container = Container.shared
            _ = container.userCodeProbe()
            _ = container.userCodeCachedProbe()
            _ = container.userCodeSingletonProbe()
            container.userCodeRegisteredInDeinit.register { 33 }
            _ = container.userCodeRegisteredInDeinit()
            UserCodeRuns.increment()
        }
    }
}

/// An object a closure captures, or a factory makes, whose `deinit` uses the container.
private final class ContainerUser: @unchecked Sendable {
    deinit { UsesContainer.now() }
}

/// Closures whose only reference to a new `ContainerUser` is their capture.
private enum Capturing {
    static func factory() -> () -> Int {
        let user = ContainerUser()
        return { withExtendedLifetime(user) { 40 } }
    }

    static func containerDecorator() -> (Any) -> Void {
        let user = ContainerUser()
        return { _ in withExtendedLifetime(user) {} }
    }

    static func decorator() -> @Sendable (Int) -> Void {
        let user = ContainerUser()
        return { _ in withExtendedLifetime(user) {} }
    }
}

/// What a child process does on failure: says why on standard error and exits with 1.
private enum Child {
    static func fail(_ message: String) -> Never {
        Issue.record("child process: \(message)")
        FileHandle.standardError.write(Data("UserCodeInvariantTests: \(message)\n".utf8))
        _exit(1)
    }

    /// Ends the child with a failure once `hangDeadline` has passed.
    static func startWatchdog(_ what: String) {
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: hangDeadline)
            fail("\(what) did not finish within \(Int(hangDeadline)) s (a hang)")
        }
    }

    /// Fails unless the scenario's user code ran.
    static func expectUserCodeRan(_ scenario: String) {
        if UserCodeRuns.count == 0 { fail("\(scenario): the user code never ran, so nothing was checked") }
    }
}

/// User code that uses the container it runs for: the `deinit` of a closure's captures or of a
/// value that a write (or a resolution) drops, or a factory closure, decorator or override.
enum UserCodeScenario: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
    case popDropsARegistrationMadeAfterPush
    case firstResolutionAfterPop
    case popDropsAContainerDecoratorSetAfterPush
    case popDropsCachedValuesMadeAfterPush
    case containerDecoratorSetToNil
    case firstResolutionAfterContainerDecoratorSetToNil
    case resetAllDropsTheContainerDecorator
    case resetAllDropsOptionsAndValues
    case resetRegistration
    case resetContext
    case resetScope
    case resetOfACustomScope
    case factoryResetAll
    case registerReplacesAClosure
    case registerDropsACachedValue
    case scopeChangeDropsCachedValues
    case singletonReset
    case contextOverrideReplaced
    case factoryDecoratorReplaced
    case expiredValueReplacedByAResolution
    case factoryClosure
    case contextOverride
    case factoryDecorator
    case containerDecorator

    var testDescription: String { rawValue }

    /// Runs the scenario on `Container.shared` in a fresh process; fails the process if a
    /// captured object was never released.
    func run() {
        Child.startWatchdog(rawValue)
        let container = Container.shared
        let manager = container.manager
        switch self {
        case .popDropsARegistrationMadeAfterPush:
            manager.push()
            container.userCodeTarget.register(factory: Capturing.factory())
            manager.pop()
        case .firstResolutionAfterPop:
            manager.push()
            container.userCodeTarget.register(factory: Capturing.factory())
            _ = container.userCodeTarget()
            manager.pop()
            _ = container.userCodeTarget()
        case .popDropsAContainerDecoratorSetAfterPush:
            manager.push()
            container.decorator(Capturing.containerDecorator())
            manager.pop()
        case .popDropsCachedValuesMadeAfterPush:
            manager.push()
            _ = container.userCodeValue.cached()
            _ = container.userCodeValue.cached()
            manager.pop()
        case .containerDecoratorSetToNil:
            container.decorator(Capturing.containerDecorator())
            container.decorator(nil)
        case .firstResolutionAfterContainerDecoratorSetToNil:
            container.decorator(Capturing.containerDecorator())
            _ = container.userCodeTarget()
            container.decorator(nil)
            _ = container.userCodeTarget()
        case .resetAllDropsTheContainerDecorator:
            container.decorator(Capturing.containerDecorator())
            manager.reset(options: .all)
        case .resetAllDropsOptionsAndValues:
            container.userCodeTarget.register(factory: Capturing.factory())
            container.userCodeTarget.decorator(Capturing.decorator())
            container.userCodeTarget.onArg("userCode", factory: Capturing.factory())
            _ = container.userCodeTarget()
            _ = container.userCodeValue.cached()
            _ = container.userCodeValue.cached()
            manager.reset(options: .all)
        case .resetRegistration:
            container.userCodeTarget.register(factory: Capturing.factory())
            _ = container.userCodeTarget()
            manager.reset(options: .registration)
        case .resetContext:
            container.userCodeTarget.onArg("userCode", factory: Capturing.factory())
            _ = container.userCodeTarget()
            manager.reset(options: .context)
        case .resetScope:
            _ = container.userCodeValue.cached()
            _ = container.userCodeValue.cached()
            manager.reset(options: .scope)
        case .resetOfACustomScope:
            let session = Scope.Cached()
            _ = container.userCodeValue.scope(session)()
            _ = container.userCodeValue.scope(session)()
            manager.reset(scope: session)
        case .factoryResetAll:
            container.userCodeTarget.register(factory: Capturing.factory())
            container.userCodeTarget.decorator(Capturing.decorator())
            container.userCodeTarget.onArg("userCode", factory: Capturing.factory())
            _ = container.userCodeTarget()
            _ = container.userCodeValue.cached()
            _ = container.userCodeValue.cached()
            container.userCodeTarget.reset(.all)
            container.userCodeValue.reset(.all)
        case .registerReplacesAClosure:
            container.userCodeTarget.register(factory: Capturing.factory())
            _ = container.userCodeTarget()
            container.userCodeTarget.register { 41 }
        case .registerDropsACachedValue:
            _ = container.userCodeValue.cached()
            _ = container.userCodeValue.cached()
            container.userCodeValue.register { ContainerUser() }
        case .scopeChangeDropsCachedValues:
            _ = container.userCodeValue.cached()
            _ = container.userCodeValue.cached()
            _ = container.userCodeValue.scope(Scope.Cached())()
        case .singletonReset:
            _ = container.userCodeValue.singleton()
            _ = container.userCodeValue.singleton()
            Scope.singleton.reset()
        case .contextOverrideReplaced:
            container.userCodeTarget.onArg("userCode", factory: Capturing.factory())
            _ = container.userCodeTarget()
            container.userCodeTarget.onArg("userCode") { 42 }
            _ = container.userCodeTarget()
        case .factoryDecoratorReplaced:
            container.userCodeTarget.decorator(Capturing.decorator())
            _ = container.userCodeTarget()
            container.userCodeTarget.decorator { _ in }
            _ = container.userCodeTarget()
        case .expiredValueReplacedByAResolution:
            _ = container.userCodeValue.cached.timeToLive(0.001)()
            Thread.sleep(forTimeInterval: 0.01)
            _ = container.userCodeValue.cached.timeToLive(0.001)()
        case .factoryClosure:
            container.userCodeTarget.register {
                UsesContainer.now()
                return 43
            }
            _ = container.userCodeTarget()
            _ = container.userCodeTarget.cached()
            _ = container.userCodeTarget.singleton()
        case .contextOverride:
            container.userCodeTarget.onArg("userCode") {
                UsesContainer.now()
                return 44
            }
            FactoryContext.setArg("userCode", forKey: "userCode")
            _ = container.userCodeTarget()
            FactoryContext.removeArg(forKey: "userCode")
        case .factoryDecorator:
            container.userCodeTarget.decorator { _ in UsesContainer.now() }
            _ = container.userCodeTarget()
        case .containerDecorator:
            container.decorator { _ in UsesContainer.now() }
            _ = container.userCodeTarget()
        }
        Child.expectUserCodeRan(rawValue)
    }
}

// MARK: - Releases under readers

/// A thread, compared with `pthread_equal`.
private struct ThreadID: @unchecked Sendable {
    let thread: pthread_t

    static var current: ThreadID { ThreadID(thread: pthread_self()) }

    func isSame(as other: ThreadID) -> Bool { pthread_equal(thread, other.thread) != 0 }
}

/// Records which thread released each dropped value, and which threads write and read.
private final class ReleaseLog: @unchecked Sendable {
    private let lock = NSLock()
    private var releases: [ThreadID] = []
    private var writer: ThreadID?
    private var readers: [ThreadID] = []

    func recordRelease() {
        let thread = ThreadID.current
        lock.lock()
        releases.append(thread)
        lock.unlock()
    }

    func enterAsWriter() {
        let thread = ThreadID.current
        lock.lock()
        writer = thread
        lock.unlock()
    }

    func enterAsReader() {
        let thread = ThreadID.current
        lock.lock()
        readers.append(thread)
        lock.unlock()
    }

    /// The thread of each release so far, by role: "writer", "reader" or "other".
    var releasingThreads: [String] {
        lock.lock()
        defer { lock.unlock() }
        return releases.map { thread in
            if let writer, thread.isSame(as: writer) { return ReleaseReport.writer }
            if readers.contains(where: { thread.isSame(as: $0) }) { return "reader" }
            return "other"
        }
    }
}

/// A value whose `deinit` records its thread, may take the app's lock, and resolves from and
/// registers on the container that made it.
private final class Dropped: @unchecked Sendable {
    let log: ReleaseLog
    let appLock: NSRecursiveLock?
    weak var container: Container?

    init(log: ReleaseLog, appLock: NSRecursiveLock?, container: Container?) {
        self.log = log
        self.appLock = appLock
        self.container = container
    }

    deinit {
        appLock?.lock()
        log.recordRelease()
        if let container {
            let probe = Factory<Int>(container, key: "userCodeDroppedProbe") { 0 }
            probe.register { 1 }
            _ = probe()
        }
        appLock?.unlock()
    }
}

/// A flag set once, read by the readers' loops.
private final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}

/// A write that drops a value made by an earlier resolution (resolved twice, so that it is the
/// published answer of later ones).
enum DroppingWrite: String, CaseIterable, Sendable, Codable, CustomTestStringConvertible {
    case register
    case scopeChange
    case resetScope
    case singletonReset

    var testDescription: String { rawValue }

    /// How many rounds make a release on a reader's thread all but certain today (after a
    /// `register`, 1 to 135 in 4,000, in a debug build; after a scope change, hundreds in a debug
    /// build, but sometimes none in 1,000 in a release build).
    var rounds: Int {
        switch self {
        case .register, .scopeChange: 4_000
        case .resetScope, .singletonReset: 1_000
        }
    }
}

/// What `releasesUnderReaders` saw.
private struct ReleaseReport: Sendable {
    /// Whether the writer finished before the deadline.
    var finished = false
    /// The writes made, each dropping one value.
    var rounds = 0
    /// The thread of each release of a dropped value once the writes had returned, in order.
    var threads: [String] = []

    static let writer = "writer"

    /// What is wrong, if anything: a missed deadline, a value released on another thread than the
    /// writer's, or a value not released by the time its write returned.
    var problem: String? {
        if !finished { return "the writer did not finish within \(Int(hangDeadline)) s (a hang)" }
        let elsewhere = threads.filter { $0 != Self.writer }
        if !elsewhere.isEmpty {
            let readers = elsewhere.filter { $0 == "reader" }.count
            return "\(elsewhere.count) of \(threads.count) dropped values were released on another thread than the "
                + "writer's (\(readers) of them on a thread that only resolved an unrelated singleton)"
        }
        if threads.count != rounds {
            return "\(rounds) writes each dropped one value, but \(threads.count) were released when they returned"
        }
        return nil
    }
}

/// How long the writer of `releasesUnderReaders` goes on at most: its rounds take a fraction of a
/// second unless the machine is loaded or instrumented, when fewer rounds must do.
private let writingBudget: TimeInterval = 2

/// Runs up to `rounds` writes of `write` (fewer if `writingBudget` runs out) on a thread of their
/// own, each dropping one `Dropped` made on a container of their own, while `readerCount` threads
/// keep resolving an unrelated singleton of another container. With `takingAppLock`, the writer
/// holds a recursive lock of the app's around each round and the dropped values' `deinit`s take
/// it. Gives up on the writer after `hangDeadline`, leaving its thread and the readers behind.
private func releasesUnderReaders(
    of write: DroppingWrite, rounds: Int, readerCount: Int, takingAppLock: Bool
) -> ReleaseReport {
    let log = ReleaseLog()
    let appLock = takingAppLock ? NSRecursiveLock() : nil
    let busy = Container()
    let busyFactory = Factory<Counter>(busy, key: "userCodeBusy") { Counter() }
    _ = busyFactory.singleton()
    let stop = StopFlag()
    let readersDone = DispatchGroup()
    let readerStarted = DispatchSemaphore(value: 0)
    for _ in 0..<readerCount {
        readersDone.enter()
        let reader = Thread {
            log.enterAsReader()
            _ = busyFactory.singleton()
            readerStarted.signal()
            while !stop.isSet {
                for _ in 0..<64 { _ = busyFactory.singleton() }
            }
            readersDone.leave()
        }
        reader.start()
    }
    // The writes start once every reader resolves.
    for _ in 0..<readerCount { _ = readerStarted.wait(timeout: .now() + hangDeadline) }
    let report = Guarded(ReleaseReport())
    let writerDone = DispatchSemaphore(value: 0)
    let writer = Thread {
        log.enterAsWriter()
        let home = Container()
        let singleton = Scope.Singleton()
        let other = Scope.Cached()
        let make = { [weak home] in Dropped(log: log, appLock: appLock, container: home) }
        let factory = Factory<Dropped>(home, key: "userCodeDropped", make)
        let stopWriting = Date(timeIntervalSinceNow: writingBudget)
        var done = 0
        Scope.$singleton.withValue(singleton) {
            while done < rounds && (done < 10 || Date() < stopWriting) {
                appLock?.lock()
                switch write {
                case .register:
                    _ = factory.cached()
                    _ = factory.cached()
                    factory.register(factory: make)
                case .scopeChange:
                    let (current, next): (Scope, Scope) = done.isMultiple(of: 2) ? (.cached, other) : (other, .cached)
                    _ = factory.scope(current)()
                    _ = factory()
                    factory.scope(next)
                case .resetScope:
                    _ = factory.cached()
                    _ = factory.cached()
                    home.manager.reset(options: .scope)
                case .singletonReset:
                    _ = factory.singleton()
                    _ = factory.singleton()
                    singleton.reset()
                }
                appLock?.unlock()
                done += 1
            }
        }
        let threads = log.releasingThreads
        report.withLock {
            $0.rounds = done
            $0.threads = threads
            $0.finished = true
        }
        home.manager.reset(options: .all)
        writerDone.signal()
    }
    writer.start()
    let finished = writerDone.wait(timeout: .now() + hangDeadline) == .success
    stop.set()
    if finished { _ = readersDone.wait(timeout: .now() + hangDeadline) }
    return report.withLock { $0 }
}

/// A write made while another thread runs the factory closure that creates the same factory's
/// scoped value.
private enum WriteDuringCreation: String, CaseIterable, Sendable {
    case register
    case scopeChange
    case factoryReset
    case containerReset
    case resetScope
    case pushAndPop
    case containerDecorator
    case singletonReset
}

/// Starts, for each write, a thread creating a scoped value whose factory closure blocks until
/// told, then makes the write on another thread. Returns the writes that had not returned within
/// `hangDeadline`; the closures are then let go, and every thread finishes.
private func writesWaitingForAnotherThreadsFactoryClosure() -> [WriteDuringCreation] {
    let group = DispatchGroup()
    let waiting = Guarded<[WriteDuringCreation]>([])
    for write in WriteDuringCreation.allCases {
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            let container = Container()
            let singleton = Scope.Singleton()
            let entered = DispatchSemaphore(value: 0)
            let proceed = DispatchSemaphore(value: 0)
            let factory = Factory<Counter>(container, key: "userCodeSlowCreation") {
                entered.signal()
                proceed.wait()
                return Counter()
            }
            let creatorDone = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                Scope.$singleton.withValue(singleton) {
                    _ = write == .singletonReset ? factory.singleton() : factory.cached()
                }
                creatorDone.signal()
            }
            _ = entered.wait(timeout: .now() + hangDeadline)
            let writerDone = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                switch write {
                case .register: factory.register { Counter() }
                case .scopeChange: factory.scope(Scope.Cached())
                case .factoryReset: factory.reset(.all)
                case .containerReset: container.manager.reset(options: .all)
                case .resetScope: container.manager.reset(options: .scope)
                case .pushAndPop:
                    container.manager.push()
                    container.manager.pop()
                case .containerDecorator: container.decorator { _ in }
                case .singletonReset: singleton.reset()
                }
                writerDone.signal()
            }
            let returned = writerDone.wait(timeout: .now() + hangDeadline) == .success
            if !returned { waiting.withLock { $0.append(write) } }
            proceed.signal()
            if !returned { _ = writerDone.wait(timeout: .now() + hangDeadline) }
            _ = creatorDone.wait(timeout: .now() + hangDeadline)
        }
    }
    group.wait()
    return waiting.withLock { $0 }
}

/// A value guarded by a lock, for the test's threads.
private final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

@Suite(.serialized)
struct UserCodeInvariantTests {
    /// User code (the `deinit` of a dropped capture or value, a factory closure, an override, a
    /// decorator) resolves from the container and registers on it: it must run with no FactoryKit
    /// lock held.
    @Test(arguments: UserCodeScenario.allCases)
    func userCodeMayUseItsContainer(_ scenario: UserCodeScenario) async {
        await #expect(processExitsWith: .success, "\(scenario.rawValue)") { [scenario] in
            scenario.run()
        }
    }

    /// Values a write drops are released by the writer, before the write returns, never by a
    /// thread that was resolving an unrelated singleton.
    @Test(arguments: DroppingWrite.allCases)
    func aDroppedValueIsReleasedOnTheWritingThread(_ write: DroppingWrite) {
        let report = releasesUnderReaders(of: write, rounds: write.rounds, readerCount: 2, takingAppLock: false)
        #expect(report.problem == nil, "\(write.rawValue): \(report.problem ?? "")")
    }

    /// No write waits for the factory closure another thread is running (the writes run
    /// together, so a wait costs one deadline, not one each).
    @Test func noWriteWaitsForAnotherThreadsFactoryClosure() {
        let waiting = writesWaitingForAnotherThreadsFactoryClosure()
        #expect(waiting.isEmpty, "these writes waited for the closure: \(waiting.map(\.rawValue))")
    }

    /// A writer holding the app's own recursive lock around `register`, whose dropped values'
    /// `deinit` takes that lock: `register` must neither wait for a reader's release nor leave
    /// the release to one. A hang ends the child process, not the suite.
    @Test func registerInsideTheAppsRecursiveLockDoesNotWaitForAnotherThreadsDeinit() async {
        await #expect(processExitsWith: .success) {
            let report = releasesUnderReaders(of: .register, rounds: 4_000, readerCount: 2, takingAppLock: true)
            if let problem = report.problem { Child.fail(problem) }
        }
    }
}

/// The same guarantee through XCTest, for a write modifiers make on every definition access.
final class UserCodeInvariantXCTests: XCTestCase {
    func testValuesDroppedByAScopeChangeAreReleasedOnTheWritingThread() {
        let report = releasesUnderReaders(
            of: .scopeChange, rounds: DroppingWrite.scopeChange.rounds, readerCount: 2, takingAppLock: false)
        XCTAssertNil(report.problem)
    }
}
