import FactoryKit
import Foundation
import Testing

// Stress with invariants (issue 16, item 3). Each test keeps its workers busy for a bounded wall
// time, FACTORYKIT_STRESS_SECONDS (default 1 s; raise it for a soak run by hand), and waits for them
// with a timeout, so a hang fails the test instead of hanging the run. The random operations come
// from a seeded generator; FACTORYKIT_STRESS_SEED (decimal, or hex with 0x) replays a seed a
// summary line printed. Every factory is named `stress...` and defined on `StressContainer`, a
// container type no other file uses, and every singleton lives in a `Scope.Singleton` of the test's
// own, so these tests run in parallel with the rest of the suite without touching its state.

// MARK: - Settings and helpers

private enum StressSettings {
    /// How long each test keeps its workers busy.
    static let seconds: Double = {
        guard let text = ProcessInfo.processInfo.environment["FACTORYKIT_STRESS_SECONDS"],
            let value = Double(text), value > 0
        else { return 1 }
        return value
    }()

    /// How long workers may take to return after the deadline before the test reports a hang:
    /// generous, since ThreadSanitizer slows everything down and CI machines are shared.
    static var grace: Double { 15 + seconds }

    /// The longest a test waits for workers that keep moving (see `StressCrew.finish`).
    static var longestWait: Double { 120 + seconds }

    /// The seed of every test's random operations.
    static let seed: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["FACTORYKIT_STRESS_SEED"] {
            let value = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
            if let value { return value }
        }
        return UInt64.random(in: 1...UInt64.max)
    }()

    static var seedText: String { "0x" + String(seed, radix: 16) }
}

/// When a test's workers stop starting new operations.
private struct StressDeadline: Sendable {
    let end: UInt64

    init(seconds: Double = StressSettings.seconds) {
        end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1_000_000_000)
    }

    var hasPassed: Bool { DispatchTime.now().uptimeNanoseconds >= end }
}

/// A small seeded generator (SplitMix64), one stream per worker.
private struct StressRandom: RandomNumberGenerator {
    private var state: UInt64

    init(stream: UInt64) {
        state = StressSettings.seed ^ (stream &* 0xD6E8_FEB8_6659_FD93)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<count`.
    mutating func below(_ count: Int) -> Int { Int(next() % UInt64(count)) }

    /// True `percent` times in a hundred.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// The process-wide stamp: every value a stress factory creates takes the next number when its
/// closure starts, and writers take one when a register or reset begins. So a value made before a
/// reset `k` began has a stamp below `k`, and one made after it began has a stamp above.
private let stressStamps = Counter()

/// Which factory made a value.
private enum StressTag: String, Sendable {
    case mixedUnique, mixedCached, mixedShared, mixedSingleton, mixedSession, mixedSwitched, mixedAuto
    case mixedGraphLeaf, mixedParameter, mixedAsyncUnique, mixedAsyncCached, mixedAsyncSingleton
    case onceCached, onceShared, onceSingleton, onceSession, onceParameter
    case onceAsyncCached, onceAsyncShared, onceAsyncSingleton
    case freshCached, freshShared, freshSingleton, freshSession, freshAsyncCached, freshAsyncSingleton
    case freshAllCached, freshAllSingleton
    case wakeCached, wakeShared, wakeSingleton, wakeSession
    case wakeAsyncCached, wakeAsyncSingleton, wakeAsyncThrowing, wakeAsyncCancellable
}

/// Which closure made a value.
private enum StressOrigin: Sendable {
    case original, registered, override, autoRegistered
}

/// What every stress factory produces: immutable, stamped when its closure started.
private final class StressValue: Sendable {
    let tag: StressTag
    let origin: StressOrigin
    /// The `serial` of the container whose closure made it.
    let owner: Int
    let stamp: Int
    /// For registrations in the freshness test: the stamp of the `register` that stored the closure.
    let generation: Int
    let parameter: Int

    init(
        _ tag: StressTag, _ origin: StressOrigin, owner: Int, stamp: Int = stressStamps.next(), generation: Int = 0,
        parameter: Int = 0
    ) {
        self.tag = tag
        self.origin = origin
        self.owner = owner
        self.stamp = stamp
        self.generation = generation
        self.parameter = parameter
    }
}

/// User code with side effects, captured by registrations: its `deinit` takes the app's own lock,
/// resolves from the container that dropped it and registers on it, as a logger or tracker might.
/// Runs wherever the last reference goes: FactoryKit must not hold a lock of its own there, and
/// a write must not wait for it.
private final class StressUserCode: @unchecked Sendable {
    /// The app's lock, which writers sometimes hold around `register`.
    static let appLock = NSRecursiveLock()
    static let deinits = ManagedAtomicCount()
    /// Weak: the container's own registration holds this object.
    private weak var container: StressContainer?

    init(_ container: StressContainer) { self.container = container }

    deinit {
        StressUserCode.appLock.lock()
        defer { StressUserCode.appLock.unlock() }
        guard let container else { return }
        _ = container.stressMixedDeinitProbe()
        container.stressMixedDeinitTarget.register { 2 }
        _ = container.stressMixedDeinitTarget()
        StressUserCode.deinits.increment()
    }
}

/// A parameter key whose `hash(into:)`, `==` and `deinit` take the app's lock and resolve from
/// the container, as an app's key might log or look something up: none may run under a lock of
/// FactoryKit's (a writer holds the app's lock around `register` half the time, which would
/// deadlock against a hash taken under the container's lock).
private final class StressKey: Hashable, @unchecked Sendable {
    let value: Int
    private weak var container: StressContainer?

    init(_ value: Int, _ container: StressContainer) {
        self.value = value
        self.container = container
    }

    private func userCode() {
        StressUserCode.appLock.lock()
        defer { StressUserCode.appLock.unlock() }
        _ = container?.stressMixedDeinitProbe()
    }

    func hash(into hasher: inout Hasher) {
        userCode()
        hasher.combine(value)
    }

    static func == (lhs: StressKey, rhs: StressKey) -> Bool {
        lhs.userCode()
        return lhs.value == rhs.value
    }

    deinit {
        userCode()
        StressKey.deinits.increment()
    }

    static let deinits = ManagedAtomicCount()
}

/// A count any thread may bump.
private final class ManagedAtomicCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func increment() {
        lock.lock()
        value += 1
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// The two graph-scoped leaves one resolution of `stressMixedGraphRoot` made.
private final class StressPair: Sendable {
    let first: StressValue
    let second: StressValue

    init(_ first: StressValue, _ second: StressValue) {
        self.first = first
        self.second = second
    }
}

private struct StressFailure: Error {}

/// Counts creations, and holds creations at a gate until the test opens it.
private final class StressProbe: @unchecked Sendable {
    private let condition = NSCondition()
    private var creations = 0
    private var creationsByParameter: [Int: Int] = [:]
    private var isOpen = true
    private var asyncWaiters: [CheckedContinuation<Void, Never>] = []
    private var timedOut = false
    /// Whether creations linger a little, so more resolutions arrive while they run.
    private var lingers = false

    /// Called first by a counted closure; lingers if asked to.
    func countCreation(parameter: Int = 0) {
        if note(parameter) { Thread.sleep(forTimeInterval: 0.000_1) }
    }

    func countCreationAsync() async {
        if note(0) { try? await Task.sleep(nanoseconds: 100_000) } else { await Task.yield() }
    }

    /// Counts a creation; returns whether it should linger.
    private func note(_ parameter: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        creations += 1
        creationsByParameter[parameter, default: 0] += 1
        condition.broadcast()
        return lingers
    }

    func prepare(lingers: Bool) {
        condition.lock()
        creations = 0
        creationsByParameter = [:]
        self.lingers = lingers
        condition.unlock()
    }

    var counts: (total: Int, byParameter: [Int: Int]) {
        condition.lock()
        defer { condition.unlock() }
        return (creations, creationsByParameter)
    }

    /// Waits until `count` creations have started.
    func waitForCreations(_ count: Int, timeout: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while creations < count {
            if !condition.wait(until: deadline) { return creations >= count }
        }
        return true
    }

    func close() {
        condition.lock()
        isOpen = false
        creations = 0
        condition.unlock()
    }

    func open() {
        condition.lock()
        isOpen = true
        let waiters = asyncWaiters
        asyncWaiters = []
        condition.broadcast()
        condition.unlock()
        for waiter in waiters { waiter.resume() }
    }

    /// Blocks a synchronous creation until the gate opens (at most `timeout`, noted if exceeded).
    func passGate(timeout: Double) {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !isOpen {
            if !condition.wait(until: deadline) && !isOpen {
                timedOut = true
                return
            }
        }
    }

    /// Suspends an asynchronous creation until the gate opens.
    func passGateAsync() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            if isOpen {
                condition.unlock()
                continuation.resume()
            } else {
                asyncWaiters.append(continuation)
                condition.unlock()
            }
        }
    }

    /// Whether a creation gave up waiting for the gate (a test bug: the test always opens it).
    var gateTimedOut: Bool {
        condition.lock()
        defer { condition.unlock() }
        return timedOut
    }
}

/// Violations and counts collected by workers, reported by the test's own task at the end: an
/// issue recorded on a worker thread would not be attributed to the test.
private final class StressLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var messages: [String] = []
    private var failureCount = 0

    func fail(_ message: @autoclosure () -> String) {
        lock.lock()
        failureCount += 1
        if messages.count < 8 { messages.append(message()) }
        lock.unlock()
    }

    func add(_ local: [String: Int]) {
        lock.lock()
        counts.merge(local, uniquingKeysWith: +)
        lock.unlock()
    }

    func count(_ key: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[key, default: 0]
    }

    var failures: Int {
        lock.lock()
        defer { lock.unlock() }
        return failureCount
    }

    /// Expects no violation.
    func expectNoFailures(_ test: String, sourceLocation: SourceLocation = #_sourceLocation) {
        lock.lock()
        let (count, messages) = (failureCount, messages)
        lock.unlock()
        #expect(
            count == 0,
            "\(test) (seed \(StressSettings.seedText)): \(count) violations, first: \(messages.joined(separator: " | "))",
            sourceLocation: sourceLocation)
    }
}

/// One worker's name and what it is doing, so a hang names the operation that did not return.
private final class StressWorker: @unchecked Sendable {
    let name: String
    private let lock = NSLock()
    private var step = "starting"
    private var isFinished = false
    /// How many steps it has begun: a worker whose count moves is slow, not stuck.
    private var progress = 0

    init(_ name: String) { self.name = name }

    func doing(_ step: String) {
        lock.lock()
        self.step = step
        progress += 1
        lock.unlock()
    }

    /// Its steps begun so far, or `nil` once finished.
    var progressIfUnfinished: Int? {
        lock.lock()
        defer { lock.unlock() }
        return isFinished ? nil : progress
    }

    func finish() {
        lock.lock()
        isFinished = true
        lock.unlock()
    }

    /// `nil` once finished, else the name and the step it is in.
    var unfinished: String? {
        lock.lock()
        defer { lock.unlock() }
        return isFinished ? nil : "\(name) (\(step))"
    }
}

/// Resumes a continuation once, whichever of its callers comes first.
private final class StressResumeOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?

    init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = continuation }

    func resume(_ value: Bool) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume(returning: value)
    }
}

/// Waits for `group` without blocking a thread of the cooperative pool; false after `timeout`.
private func stressWait(for group: DispatchGroup, timeout: Double) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let once = StressResumeOnce(continuation)
        group.notify(queue: .global()) { once.resume(true) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { once.resume(false) }
    }
}

/// Starts workers on threads and in a task group, and waits for all of them with a timeout.
private final class StressCrew: @unchecked Sendable {
    private let group = DispatchGroup()
    private let lock = NSLock()
    private var workers: [StressWorker] = []

    private func add(_ name: String) -> StressWorker {
        let worker = StressWorker(name)
        lock.lock()
        workers.append(worker)
        lock.unlock()
        return worker
    }

    /// Starts a thread, bound to `singletons` if given (threads inherit no task-local value).
    func thread(
        _ name: String, singletons: Scope.Singleton? = nil, _ body: @escaping @Sendable (StressWorker) -> Void
    ) {
        let worker = add(name)
        group.enter()
        Thread.detachNewThread {
            if let singletons {
                Scope.$singleton.withValue(singletons) { body(worker) }
            } else {
                body(worker)
            }
            worker.finish()
            self.group.leave()
        }
    }

    /// Starts `count` tasks in one task group, inside a task that inherits the caller's task-local
    /// values (its `Scope.singleton`).
    func tasks(_ count: Int, _ name: String, _ body: @escaping @Sendable (Int, StressWorker) async -> Void) {
        let workers = (0..<count).map { add("\(name)\($0)") }
        group.enter()
        Task {
            await withTaskGroup(of: Void.self) { tasks in
                for (index, worker) in workers.enumerated() {
                    tasks.addTask {
                        await body(index, worker)
                        worker.finish()
                    }
                }
            }
            self.group.leave()
        }
    }

    /// Waits for every worker, at most until the deadline plus the grace period; records an issue
    /// naming the workers that did not return, and what they were doing.
    ///
    /// On a loaded machine (CI at load 25 on 2 cores, under a sanitizer) workers may start late
    /// and run slowly: as long as some unfinished worker moved during the last grace period, or
    /// has not started yet, the wait goes on, up to `StressSettings.longestWait`. A worker that
    /// started and stopped moving for a whole grace period is stuck.
    func finish(_ test: String, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        var timeout = StressSettings.seconds + StressSettings.grace
        var waited = 0.0
        var seen = progress
        while !(await stressWait(for: group, timeout: timeout)) {
            waited += timeout
            let now = progress
            let moving = now.contains { name, count in count == 0 || seen[name] != count }
            guard moving, waited < StressSettings.longestWait else { break }
            seen = now
            timeout = StressSettings.grace
        }
        if waited == 0 || unfinished.isEmpty { return true }
        let stuck = unfinished
        let message =
            "\(test) (seed \(StressSettings.seedText)): \(stuck.count) workers did not return within \(waited) s: "
            + stuck.joined(separator: ", ")
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        return false
    }

    private var unfinished: [String] {
        lock.lock()
        defer { lock.unlock() }
        return workers.compactMap(\.unfinished)
    }

    /// The steps each unfinished worker has begun, by name.
    private var progress: [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        var result: [String: Int] = [:]
        for worker in workers {
            if let count = worker.progressIfUnfinished { result[worker.name] = count }
        }
        return result
    }
}

/// A reusable barrier for a fixed number of threads; `arrive` returns false if the others did not
/// all arrive within the timeout (the barrier then stays broken, so every thread stops).
private final class StressBarrier: @unchecked Sendable {
    private let condition = NSCondition()
    private let parties: Int
    private var arrived = 0
    private var generation = 0
    private var isBroken = false

    init(_ parties: Int) { self.parties = parties }

    func arrive(timeout: Double = StressSettings.grace) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isBroken else { return false }
        let mine = generation
        arrived += 1
        if arrived == parties {
            arrived = 0
            generation += 1
            condition.broadcast()
            return true
        }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while generation == mine && !isBroken {
            if !condition.wait(until: deadline) && generation == mine {
                isBroken = true
                condition.broadcast()
            }
        }
        return generation != mine
    }
}

/// Keeps values alive, and collects them, under a lock.
private final class StressValues: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [(key: Int, value: StressValue)] = []

    func add(_ value: StressValue, key: Int = 0) {
        lock.lock()
        values.append((key, value))
        lock.unlock()
    }

    func take() -> [(key: Int, value: StressValue)] {
        lock.lock()
        defer {
            values = []
            lock.unlock()
        }
        return values
    }
}

/// The last `register` and the last cache-clearing operation that completed, by their stamps.
private final class StressMarks: @unchecked Sendable {
    private let lock = NSLock()
    private var cleared = 0
    private var registered = 0

    func completed(_ stamp: Int, registered isRegister: Bool) {
        lock.lock()
        cleared = max(cleared, stamp)
        if isRegister { registered = max(registered, stamp) }
        lock.unlock()
    }

    var floors: (cleared: Int, registered: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (cleared, registered)
    }
}

// MARK: - The container

extension Scope {
    fileprivate static let stressMixedSession = Cached()
    fileprivate static let stressOnceSession = Cached()
    fileprivate static let stressFreshSession = Cached()
    fileprivate static let stressWakeSession = Cached()
}

/// The container of every stress factory; `serial` tells its values from other containers'.
private final class StressContainer: ManagedContainer, AutoRegistering, @unchecked Sendable {
    /// Computed, as the protocol allows: read under a lock of the app's, and swapped for a fresh
    /// one by `swapManager()` while other threads use the container. FactoryKit must retain what
    /// it reads here for as long as it uses it.
    var manager: ContainerManager {
        managerLock.lock()
        defer { managerLock.unlock() }
        return currentManager
    }
    private let managerLock = NSLock()
    private var currentManager = ContainerManager()
    let serial = stressStamps.next()

    /// Gives the container a fresh manager, under the app's lock when `holdingAppLock`; the old
    /// one goes with the last resolution still using it.
    func swapManager(holdingAppLock: Bool) {
        if holdingAppLock { StressUserCode.appLock.lock() }
        managerLock.lock()
        let old = currentManager
        currentManager = ContainerManager()
        managerLock.unlock()
        if holdingAppLock { StressUserCode.appLock.unlock() }
        withExtendedLifetime(old) {}
    }
    let probe = StressProbe()

    func autoRegister() {
        let serial = self.serial
        stressMixedAuto.register { StressValue(.mixedAuto, .autoRegistered, owner: serial) }
    }

    func original(_ tag: StressTag, parameter: Int = 0) -> StressValue {
        StressValue(tag, .original, owner: serial, parameter: parameter)
    }

    /// A creation counted by the probe (exactly once).
    func counted(_ tag: StressTag, parameter: Int = 0) -> StressValue {
        let stamp = stressStamps.next()
        probe.countCreation(parameter: parameter)
        return StressValue(tag, .original, owner: serial, stamp: stamp, parameter: parameter)
    }

    func countedAsync(_ tag: StressTag) async -> StressValue {
        let stamp = stressStamps.next()
        await probe.countCreationAsync()
        return StressValue(tag, .original, owner: serial, stamp: stamp)
    }

    /// A creation held at the probe's gate (no lost wake-ups).
    func gated(_ tag: StressTag) -> StressValue {
        let stamp = stressStamps.next()
        probe.countCreation()
        probe.passGate(timeout: StressSettings.grace)
        return StressValue(tag, .original, owner: serial, stamp: stamp)
    }

    func gatedAsync(_ tag: StressTag) async -> StressValue {
        let stamp = stressStamps.next()
        probe.countCreation()
        await probe.passGateAsync()
        return StressValue(tag, .original, owner: serial, stamp: stamp)
    }

    /// A creation that yields between its stamp and its value (freshness of async factories).
    func yielding(_ tag: StressTag) async -> StressValue {
        let stamp = stressStamps.next()
        await Task.yield()
        return StressValue(tag, .original, owner: serial, stamp: stamp)
    }
}

extension StressContainer {
    /// What `StressUserCode`'s `deinit` resolves and registers on.
    var stressMixedDeinitProbe: Factory<Int> { self { 0 } }
    var stressMixedDeinitTarget: Factory<Int> { self { 1 }.cached }
    // The mixed test.
    var stressMixedUnique: Factory<StressValue> { self { self.original(.mixedUnique) } }
    var stressMixedCached: Factory<StressValue> { self { self.original(.mixedCached) }.cached }
    var stressMixedShared: Factory<StressValue> { self { self.original(.mixedShared) }.shared }
    var stressMixedSingleton: Factory<StressValue> { self { self.original(.mixedSingleton) }.singleton }
    var stressMixedSession: Factory<StressValue> {
        self { self.original(.mixedSession) }.scope(.stressMixedSession)
    }
    /// No scope of its own: workers switch it between scopes.
    var stressMixedSwitched: Factory<StressValue> { self { self.original(.mixedSwitched) } }
    /// Registered by `autoRegister()`.
    var stressMixedAuto: Factory<StressValue> { self { self.original(.mixedAuto) }.cached }
    var stressMixedGraphLeaf: Factory<StressValue> { self { self.original(.mixedGraphLeaf) }.graph }
    var stressMixedGraphRoot: Factory<StressPair> {
        self { StressPair(self.stressMixedGraphLeaf(), self.stressMixedGraphLeaf()) }
    }
    var stressMixedParameter: ParameterFactory<Int, StressValue> {
        self { self.original(.mixedParameter, parameter: $0) }.cached.scopeOnParameters
    }
    /// Keyed by parameters whose `hash(into:)`, `==` and `deinit` are user code.
    var stressMixedKeyed: ParameterFactory<StressKey, StressValue> {
        self { self.original(.mixedParameter, parameter: $0.value) }.cached.scopeOnParameters
    }
    var stressMixedAsyncUnique: AsyncFactory<StressValue> { self { await self.yielding(.mixedAsyncUnique) } }
    var stressMixedAsyncCached: AsyncFactory<StressValue> {
        self { await self.yielding(.mixedAsyncCached) }.cached
    }
    var stressMixedAsyncSingleton: AsyncFactory<StressValue> {
        self { await self.yielding(.mixedAsyncSingleton) }.singleton
    }

    // Exactly once.
    var stressOnceCached: Factory<StressValue> { self { self.counted(.onceCached) }.cached }
    var stressOnceShared: Factory<StressValue> { self { self.counted(.onceShared) }.shared }
    var stressOnceSingleton: Factory<StressValue> { self { self.counted(.onceSingleton) }.singleton }
    var stressOnceSession: Factory<StressValue> { self { self.counted(.onceSession) }.scope(.stressOnceSession) }
    var stressOnceParameter: ParameterFactory<Int, StressValue> {
        self { self.counted(.onceParameter, parameter: $0) }.cached.scopeOnParameters
    }
    var stressOnceAsyncCached: AsyncFactory<StressValue> { self { await self.countedAsync(.onceAsyncCached) }.cached }
    var stressOnceAsyncShared: AsyncFactory<StressValue> { self { await self.countedAsync(.onceAsyncShared) }.shared }
    var stressOnceAsyncSingleton: AsyncFactory<StressValue> {
        self { await self.countedAsync(.onceAsyncSingleton) }.singleton
    }

    // Freshness.
    var stressFreshCached: Factory<StressValue> { self { self.original(.freshCached) }.cached }
    var stressFreshShared: Factory<StressValue> { self { self.original(.freshShared) }.shared }
    var stressFreshSingleton: Factory<StressValue> { self { self.original(.freshSingleton) }.singleton }
    var stressFreshSession: Factory<StressValue> {
        self { self.original(.freshSession) }.scope(.stressFreshSession)
    }
    var stressFreshAsyncCached: AsyncFactory<StressValue> { self { await self.yielding(.freshAsyncCached) }.cached }
    var stressFreshAsyncSingleton: AsyncFactory<StressValue> {
        self { await self.yielding(.freshAsyncSingleton) }.singleton
    }
    var stressFreshAllCached: Factory<StressValue> { self { self.original(.freshAllCached) }.cached }
    var stressFreshAllSingleton: Factory<StressValue> { self { self.original(.freshAllSingleton) }.singleton }

    // No lost wake-ups.
    var stressWakeCached: Factory<StressValue> { self { self.gated(.wakeCached) }.cached }
    var stressWakeShared: Factory<StressValue> { self { self.gated(.wakeShared) }.shared }
    var stressWakeSingleton: Factory<StressValue> { self { self.gated(.wakeSingleton) }.singleton }
    var stressWakeSession: Factory<StressValue> { self { self.gated(.wakeSession) }.scope(.stressWakeSession) }
    var stressWakeAsyncCached: AsyncFactory<StressValue> { self { await self.gatedAsync(.wakeAsyncCached) }.cached }
    var stressWakeAsyncSingleton: AsyncFactory<StressValue> {
        self { await self.gatedAsync(.wakeAsyncSingleton) }.singleton
    }
    var stressWakeAsyncThrowing: AsyncFactory<StressValue> {
        self {
            _ = await self.gatedAsync(.wakeAsyncThrowing)
            throw StressFailure()
        }
        .cached
    }
    var stressWakeAsyncCancellable: AsyncFactory<StressValue> {
        self {
            let value = await self.gatedAsync(.wakeAsyncCancellable)
            try Task.checkCancellation()
            return value
        }
        .cached
    }
}

// MARK: - Mixed operations

/// The synchronous factories of the mixed test.
private enum MixedFactory: CaseIterable {
    case unique, cached, shared, singleton, session, switched, auto, graphLeaf

    var tag: StressTag {
        switch self {
        case .unique: .mixedUnique
        case .cached: .mixedCached
        case .shared: .mixedShared
        case .singleton: .mixedSingleton
        case .session: .mixedSession
        case .switched: .mixedSwitched
        case .auto: .mixedAuto
        case .graphLeaf: .mixedGraphLeaf
        }
    }

    /// Whether its values always come from the resolving container's closures: everything but
    /// singletons (shared by every container) and the factory switched into `.singleton` at times.
    var isContainerOwned: Bool { self != .singleton && self != .switched }

    func on(_ container: StressContainer) -> Factory<StressValue> {
        switch self {
        case .unique: container.stressMixedUnique
        case .cached: container.stressMixedCached
        case .shared: container.stressMixedShared
        case .singleton: container.stressMixedSingleton
        case .session: container.stressMixedSession
        case .switched: container.stressMixedSwitched
        case .auto: container.stressMixedAuto
        case .graphLeaf: container.stressMixedGraphLeaf
        }
    }

    static func random(_ rng: inout StressRandom) -> MixedFactory { allCases[rng.below(allCases.count)] }
}

/// The asynchronous factories of the mixed test.
private enum MixedAsyncFactory: CaseIterable {
    case unique, cached, singleton

    var tag: StressTag {
        switch self {
        case .unique: .mixedAsyncUnique
        case .cached: .mixedAsyncCached
        case .singleton: .mixedAsyncSingleton
        }
    }

    func on(_ container: StressContainer) -> AsyncFactory<StressValue> {
        switch self {
        case .unique: container.stressMixedAsyncUnique
        case .cached: container.stressMixedAsyncCached
        case .singleton: container.stressMixedAsyncSingleton
        }
    }

    static func random(_ rng: inout StressRandom) -> MixedAsyncFactory { allCases[rng.below(allCases.count)] }
}

/// The containers the mixed test's workers share. Slot 0 is stable: it never gets an operation
/// that clears options (`reset(.all)`, `pop()`), so the definition's `.graph` and
/// `.scopeOnParameters` are always in force there and those invariants are exact.
private final class StressPool: @unchecked Sendable {
    static let size = 3
    private let lock = NSLock()
    private var containers = (0..<StressPool.size).map { _ in StressContainer() }

    subscript(slot: Int) -> StressContainer {
        lock.lock()
        defer { lock.unlock() }
        return containers[slot]
    }

    /// Drops the container in `slot` (workers still using it keep it alive until they are done).
    func replace(_ slot: Int) {
        let fresh = StressContainer()
        lock.lock()
        let old = containers[slot]
        containers[slot] = fresh
        lock.unlock()
        withExtendedLifetime(old) {}
    }
}

/// The state of one mixed-test worker.
private struct MixedWorker {
    let index: Int
    let pool: StressPool
    let singletons: Scope.Singleton
    let ledger: StressLedger
    let worker: StressWorker
    var rng: StressRandom
    var counts: [String: Int] = [:]
    var lastLeafStamp = -1

    init(index: Int, pool: StressPool, singletons: Scope.Singleton, ledger: StressLedger, worker: StressWorker) {
        self.index = index
        self.pool = pool
        self.singletons = singletons
        self.ledger = ledger
        self.worker = worker
        rng = StressRandom(stream: 0x100 + UInt64(index))
    }

    var argumentKey: String { "stressMixedArgument\(index)" }

    mutating func count(_ key: String) { counts[key, default: 0] += 1 }

    /// Checks what a resolution of `kind` on `container` returned.
    func check(_ value: StressValue, _ kind: MixedFactory, on container: StressContainer) {
        check(value, tag: kind.tag, allowsAuto: kind == .auto, owned: kind.isContainerOwned, on: container)
    }

    func check(_ value: StressValue, tag: StressTag, allowsAuto: Bool, owned: Bool, on container: StressContainer) {
        if value.tag != tag {
            ledger.fail("\(worker.name): a resolution of \(tag) returned a value of \(value.tag)")
        }
        if value.origin == .autoRegistered && !allowsAuto {
            ledger.fail("\(worker.name): \(tag) returned a value of an auto-registration it never had")
        }
        if owned && value.owner != container.serial {
            ledger.fail(
                "\(worker.name): \(tag) on container \(container.serial) returned a value of container \(value.owner)")
        }
    }

    /// One random synchronous operation.
    mutating func step() {
        let slot = rng.below(StressPool.size)
        let container = pool[slot]
        let stable = slot == 0
        let serial = container.serial
        let roll = rng.below(100)
        switch roll {
        case 0..<40:
            resolve(on: container, stable: stable)
        case 40..<48:
            worker.doing("register")
            let kind = MixedFactory.random(&rng)
            let tag = kind.tag
            if rng.chance(30) {
                // A closure whose capture's `deinit` uses the container and the app's lock, which
                // the writer holds half the time.
                let user = StressUserCode(container)
                let holdsAppLock = rng.chance(50)
                if holdsAppLock { StressUserCode.appLock.lock() }
                kind.on(container).register {
                    withExtendedLifetime(user) { StressValue(tag, .registered, owner: serial) }
                }
                if holdsAppLock { StressUserCode.appLock.unlock() }
                count("register with user code")
            } else {
                kind.on(container).register { StressValue(tag, .registered, owner: serial) }
            }
            if rng.chance(20) {
                container.stressMixedParameter.register {
                    StressValue(.mixedParameter, .registered, owner: serial, parameter: $0)
                }
            }
            count("register")
        case 48..<56:
            worker.doing("factory reset")
            let options: [FactoryResetOptions] =
                stable ? [.none, .registration, .context, .scope] : [.all, .none, .registration, .context, .scope]
            let option = options[rng.below(options.count)]
            if rng.chance(20) {
                container.stressMixedParameter.reset(option)
            } else {
                MixedFactory.random(&rng).on(container).reset(option)
            }
            count("reset")
        case 56..<61:
            worker.doing("container reset")
            let options: [FactoryResetOptions] =
                stable ? [.none, .registration, .context, .scope] : [.all, .none, .registration, .context, .scope]
            container.manager.reset(options: options[rng.below(options.count)])
            count("reset")
        case 61..<64:
            worker.doing("reset(scope:)")
            let scopes: [Scope] = [.cached, .shared, .stressMixedSession, .unique, .graph]
            container.manager.reset(scope: scopes[rng.below(scopes.count)])
            count("reset")
        case 64..<67 where !stable:
            worker.doing("push/pop")
            container.manager.push()
            resolve(on: container, stable: false)
            container.manager.pop()
            count("push/pop")
        case 64..<70:
            worker.doing("scope switch")
            let factory = container.stressMixedSwitched
            let switched: Factory<StressValue>
            switch rng.below(4) {
            case 0: switched = factory.cached
            case 1: switched = factory.shared
            case 2: switched = factory.singleton
            default: switched = factory.unique
            }
            check(switched(), .switched, on: container)
            count("scope switch")
            count("resolution")
        case 70..<75:
            worker.doing("context change")
            let argument = "stress-mixed-\(rng.below(3))"
            switch rng.below(3) {
            case 0:
                FactoryContext.setArg(argument, forKey: argumentKey)
            case 1:
                FactoryContext.removeArg(forKey: argumentKey)
            default:
                let kind = MixedFactory.random(&rng)
                let tag = kind.tag
                kind.on(container).onArg(argument) { StressValue(tag, .override, owner: serial) }
                if rng.chance(30) {
                    container.stressMixedParameter.onArg(argument) {
                        StressValue(.mixedParameter, .override, owner: serial, parameter: $0)
                    }
                }
            }
            count("context change")
        case 75..<77:
            worker.doing("Scope.singleton.reset()")
            resetSingletons()
        case 77..<79:
            worker.doing("replacing a shared container")
            pool.replace(slot)
            count("container dropped")
        case 79..<81:
            worker.doing("a container created and dropped")
            createAndDropContainer()
            count("container dropped")
        case 81..<83 where !stable:
            worker.doing("swapping a container's manager")
            container.swapManager(holdingAppLock: rng.chance(50))
            count("manager swapped")
        default:
            resolve(on: container, stable: stable)
        }
        count("operation")
    }

    /// Resets the singleton clone the worker is bound to (never the process's own).
    mutating func resetSingletons() {
        let bound = Scope.singleton
        guard bound === singletons else {
            ledger.fail("\(worker.name): not bound to the test's singleton clone; nothing reset")
            return
        }
        bound.reset()
        count("reset")
    }

    mutating func resolve(on container: StressContainer, stable: Bool) {
        switch rng.below(10) {
        case 0:
            worker.doing("resolving the graph root")
            let pair = container.stressMixedGraphRoot()
            check(pair.first, .graphLeaf, on: container)
            check(pair.second, .graphLeaf, on: container)
            if stable && pair.first !== pair.second {
                ledger.fail("\(worker.name): one graph resolution got two graph-scoped leaves")
            }
            if pair.first.stamp == lastLeafStamp {
                ledger.fail("\(worker.name): two graph resolutions shared a graph-scoped leaf")
            }
            lastLeafStamp = pair.first.stamp
        case 1:
            worker.doing("resolving the parameter factory")
            let parameter = rng.below(4)
            // Half the time keyed by a parameter whose hash, == and deinit are user code.
            let keyed = rng.chance(50)
            let value: StressValue
            if keyed {
                value = container.stressMixedKeyed(StressKey(parameter, container))
            } else {
                value = container.stressMixedParameter(parameter)
            }
            check(value, tag: .mixedParameter, allowsAuto: false, owned: true, on: container)
            if (stable || keyed) && value.parameter != parameter {
                ledger.fail("\(worker.name): scopeOnParameters gave \(value.parameter)'s value for \(parameter)")
            }
            if keyed { count("resolution keyed by user code") }
        default:
            let kind = MixedFactory.random(&rng)
            worker.doing("resolving \(kind)")
            check(kind.on(container)(), kind, on: container)
        }
        count("resolution")
    }

    /// A container of its own: cached values are per container, and released with it.
    mutating func createAndDropContainer() {
        weak var released: StressValue?
        do {
            let container = StressContainer()
            let first = container.stressMixedCached()
            let second = container.stressMixedCached()
            if first !== second || first.owner != container.serial {
                ledger.fail("\(worker.name): a new container's cached factory did not keep its own value")
            }
            let serial = container.serial
            container.stressMixedCached.register { StressValue(.mixedCached, .registered, owner: serial) }
            let registered = container.stressMixedCached()
            if registered === first || registered.origin != .registered {
                ledger.fail("\(worker.name): register on a new container did not replace its cached value")
            }
            released = registered
            count("resolution")
        }
        if released != nil {
            ledger.fail("\(worker.name): a dropped container's cached value outlived it")
        }
    }

    /// One random asynchronous operation.
    mutating func asyncStep() async {
        let container = pool[rng.below(StressPool.size)]
        let serial = container.serial
        let kind = MixedAsyncFactory.random(&rng)
        let tag = kind.tag
        switch rng.below(100) {
        case 0..<60:
            worker.doing("resolving async \(kind)")
            do {
                let value = try await kind.on(container)()
                check(value, tag: tag, allowsAuto: false, owned: kind != .singleton, on: container)
            } catch {
                ledger.fail("\(worker.name): async \(kind) threw \(error)")
            }
            count("resolution")
        case 60..<70:
            worker.doing("registering async \(kind)")
            kind.on(container).register { StressValue(tag, .registered, owner: serial) }
            count("register")
        case 70..<80:
            worker.doing("resetting async \(kind)")
            let options: [FactoryResetOptions] = [.all, .none, .registration, .context, .scope]
            kind.on(container).reset(options[rng.below(options.count)])
            count("reset")
        case 80..<88:
            worker.doing("overriding async \(kind)")
            kind.on(container).onArg("stress-mixed-\(rng.below(3))") { StressValue(tag, .override, owner: serial) }
            count("context change")
        case 88..<94:
            worker.doing("an async factory on a container created and dropped")
            let own = StressContainer()
            do {
                let first = try await own.stressMixedAsyncCached()
                let second = try await own.stressMixedAsyncCached()
                if first !== second || first.owner != own.serial {
                    ledger.fail("\(worker.name): a new container's async cached factory did not keep its own value")
                }
            } catch {
                ledger.fail("\(worker.name): async cached threw \(error)")
            }
            count("resolution")
            count("container dropped")
        default:
            worker.doing("Scope.singleton.reset()")
            resetSingletons()
        }
        count("operation")
    }
}

// MARK: - Exactly once

/// What the exactly-once threads resolve in one round.
private enum OnceVariant: CaseIterable {
    case cached, shared, singleton, session, parameters
}

/// One round of the exactly-once threads: set by the leader before the round's first barrier,
/// read by every thread after it.
private final class OnceRound: @unchecked Sendable {
    struct State {
        var stop = false
        var number = 0
        var variant = OnceVariant.cached
        var container = StressContainer()
        /// The singleton cache the round's threads are bound to.
        var singletons = Scope.Singleton()
    }

    private let lock = NSLock()
    private var state = State()

    var current: State {
        get {
            lock.lock()
            defer { lock.unlock() }
            return state
        }
        set {
            lock.lock()
            state = newValue
            lock.unlock()
        }
    }
}

/// The number of distinct parameters of the `scopeOnParameters` rounds.
private let onceParameterCount = 3

/// Checks one round: the closure ran `expected` times (once per parameter) and every resolution
/// of a parameter got that parameter's one instance.
private func checkOnce(
    _ name: String, number: Int, values: [(key: Int, value: StressValue)], creations: (Int, [Int: Int]),
    expected: Int, resolutions: Int, ledger: StressLedger
) {
    let byKey = Dictionary(grouping: values, by: \.key)
    let identities = byKey.mapValues { Set($0.map { ObjectIdentifier($0.value) }).count }
    if values.count != resolutions || creations.0 != expected || byKey.count != expected
        || identities.values.contains(where: { $0 != 1 }) || values.contains(where: { $0.value.parameter != $0.key })
    {
        ledger.fail(
            "\(name) round \(number): \(creations.0) creations for \(expected) entries, \(values.count) of "
                + "\(resolutions) resolutions, instances per entry \(identities.sorted { $0.key < $1.key }.map(\.value))"
        )
    }
}

// MARK: - Freshness

/// One freshness lane: a factory, the writer's operations on it, and the readers' check.
private struct FreshLane: Sendable {
    let name: String
    let marks = StressMarks()
    /// Resolves once (synchronously), or `nil` for an async lane.
    let resolve: (@Sendable () -> StressValue)?
    let resolveAsync: (@Sendable () async throws -> StressValue)?
    /// Performs one random register or reset begun at stamp `k`; returns whether it registered.
    let write: @Sendable (inout StressRandom, Int) -> Bool
    /// Whether the lane's writes include registrations (its values then carry a generation).
    let checksGeneration: Bool
    /// Whether readers hold the last value (a shared scope keeps values only while held).
    let holds: Bool

    init(
        _ name: String, checksGeneration: Bool = true, holds: Bool = false,
        resolve: (@Sendable () -> StressValue)? = nil, resolveAsync: (@Sendable () async throws -> StressValue)? = nil,
        write: @escaping @Sendable (inout StressRandom, Int) -> Bool
    ) {
        self.name = name
        self.checksGeneration = checksGeneration
        self.holds = holds
        self.resolve = resolve
        self.resolveAsync = resolveAsync
        self.write = write
    }

    /// Checks a value whose resolution started after the operations `floors` names completed.
    func check(_ value: StressValue, floors: (cleared: Int, registered: Int), ledger: StressLedger) -> Bool {
        if value.stamp <= floors.cleared {
            ledger.fail(
                "\(name): a resolution begun after the reset or register stamped \(floors.cleared) returned a value "
                    + "stamped \(value.stamp) (made before it)")
            return false
        }
        if checksGeneration && value.generation < floors.registered {
            ledger.fail(
                "\(name): a resolution begun after the register stamped \(floors.registered) returned a value of the "
                    + "registration stamped \(value.generation) (origin \(value.origin), made at \(value.stamp))")
            return false
        }
        return true
    }
}

/// Registers on `factory` a closure whose values carry generation `k`.
private func registerGeneration(_ factory: Factory<StressValue>, _ tag: StressTag, owner: Int, _ k: Int) {
    factory.register { StressValue(tag, .registered, owner: owner, generation: k) }
}

private func registerGeneration(_ factory: AsyncFactory<StressValue>, _ tag: StressTag, owner: Int, _ k: Int) {
    factory.register {
        let stamp = stressStamps.next()
        await Task.yield()
        return StressValue(tag, .registered, owner: owner, stamp: stamp, generation: k)
    }
}

/// The freshness lanes, on containers of their own (a reset of one lane's container must not clear
/// another lane's registrations), with singletons in `singletons`.
private func freshLanes(singletons: Scope.Singleton) -> [FreshLane] {
    let cached = StressContainer()
    let shared = StressContainer()
    let singleton = StressContainer()
    let session = StressContainer()
    let asyncCached = StressContainer()
    let asyncSingleton = StressContainer()
    let all = StressContainer()
    return [
        FreshLane(
            "cached", resolve: { cached.stressFreshCached() },
            write: { rng, k in
                switch rng.below(5) {
                case 0: cached.stressFreshCached.reset(.scope)
                case 1: cached.manager.reset(options: .scope)
                case 2: cached.manager.reset(scope: .cached)
                default:
                    registerGeneration(cached.stressFreshCached, .freshCached, owner: cached.serial, k)
                    return true
                }
                return false
            }),
        FreshLane(
            "shared (held)", holds: true, resolve: { shared.stressFreshShared() },
            write: { rng, k in
                switch rng.below(5) {
                case 0: shared.stressFreshShared.reset(.scope)
                case 1: shared.manager.reset(options: .scope)
                case 2: shared.manager.reset(scope: .shared)
                default:
                    registerGeneration(shared.stressFreshShared, .freshShared, owner: shared.serial, k)
                    return true
                }
                return false
            }),
        FreshLane(
            "singleton", resolve: { singleton.stressFreshSingleton() },
            write: { rng, k in
                switch rng.below(4) {
                case 0: singleton.stressFreshSingleton.reset(.scope)
                case 1: singletons.reset()
                default:
                    registerGeneration(singleton.stressFreshSingleton, .freshSingleton, owner: singleton.serial, k)
                    return true
                }
                return false
            }),
        FreshLane(
            "custom cached scope", resolve: { session.stressFreshSession() },
            write: { rng, k in
                switch rng.below(4) {
                case 0: session.manager.reset(scope: .stressFreshSession)
                case 1: session.stressFreshSession.reset(.scope)
                default:
                    registerGeneration(session.stressFreshSession, .freshSession, owner: session.serial, k)
                    return true
                }
                return false
            }),
        FreshLane(
            "async cached", resolveAsync: { try await asyncCached.stressFreshAsyncCached() },
            write: { rng, k in
                switch rng.below(4) {
                case 0: asyncCached.stressFreshAsyncCached.reset(.scope)
                case 1: asyncCached.manager.reset(options: .scope)
                default:
                    let factory = asyncCached.stressFreshAsyncCached
                    registerGeneration(factory, .freshAsyncCached, owner: asyncCached.serial, k)
                    return true
                }
                return false
            }),
        FreshLane(
            "async singleton",
            resolveAsync: { try await asyncSingleton.stressFreshAsyncSingleton() },
            write: { rng, k in
                switch rng.below(4) {
                case 0: asyncSingleton.stressFreshAsyncSingleton.reset(.scope)
                case 1: singletons.reset()
                default:
                    let factory = asyncSingleton.stressFreshAsyncSingleton
                    registerGeneration(factory, .freshAsyncSingleton, owner: asyncSingleton.serial, k)
                    return true
                }
                return false
            }),
        // Every reset, without registrations (`reset(.all)` removes them): values must be newer
        // than the last reset, whichever kind it was.
        FreshLane(
            "cached under every reset", checksGeneration: false, resolve: { all.stressFreshAllCached() },
            write: { rng, _ in
                switch rng.below(5) {
                case 0: all.manager.reset(options: .all)
                case 1: all.manager.reset(options: .scope)
                case 2: all.manager.reset(scope: .cached)
                case 3: all.stressFreshAllCached.reset(.all)
                default: all.stressFreshAllCached.reset(.scope)
                }
                return false
            }),
        FreshLane(
            "singleton under every reset", checksGeneration: false, resolve: { all.stressFreshAllSingleton() },
            write: { rng, _ in
                switch rng.below(3) {
                case 0: all.stressFreshAllSingleton.reset(.all)
                case 1: all.stressFreshAllSingleton.reset(.scope)
                default: singletons.reset()
                }
                return false
            }),
    ]
}

// MARK: - The tests

/// Stress with invariants (issue 16, item 3), each test bounded in wall time. Serialized: each test
/// has the machine's cores to itself (the rest of the suite aside), which keeps the contention
/// and the figures each test reports its own.
@Suite(.serialized)
struct StressTests {
    /// Eight threads and eight tasks apply random operations to a few shared containers until the
    /// deadline: resolutions of every scope, parameter and async factories, `register`, every
    /// factory and container reset, `reset(scope:)`, push/pop, scope switches, context changes,
    /// resets of the test's singleton clone, and containers created and dropped. Proves that
    /// nothing traps or hangs and that every value is one the factory can produce: made by that
    /// factory, by a closure it had, and, for scopes the container owns, by that container.
    @Test func mixedOperationsKeepTheirInvariants() async {
        let singletons = Scope.singleton.clone()
        let pool = StressPool()
        let ledger = StressLedger()
        let deadline = StressDeadline()
        let crew = StressCrew()
        let threads = 8
        let tasks = 8
        for index in 0..<threads {
            crew.thread("thread\(index)", singletons: singletons) { worker in
                var state = MixedWorker(
                    index: index, pool: pool, singletons: singletons, ledger: ledger, worker: worker)
                while !deadline.hasPassed { state.step() }
                ledger.add(state.counts)
            }
        }
        Scope.$singleton.withValue(singletons) {
            crew.tasks(tasks, "task") { index, worker in
                var state = MixedWorker(
                    index: threads + index, pool: pool, singletons: singletons, ledger: ledger, worker: worker)
                while !deadline.hasPassed {
                    if state.rng.chance(50) { await state.asyncStep() } else { state.step() }
                    await Task.yield()
                }
                ledger.add(state.counts)
            }
        }
        _ = await crew.finish("mixed operations")
        for index in 0..<(threads + tasks) {
            FactoryContext.removeArg(forKey: "stressMixedArgument\(index)")
        }
        ledger.expectNoFailures("mixed operations")
        print(
            "StressTests.mixed: seed \(StressSettings.seedText), \(threads) threads + \(tasks) tasks for "
                + "\(StressSettings.seconds) s: \(ledger.count("operation")) operations, "
                + "\(ledger.count("resolution")) resolutions, \(ledger.count("register")) registers, "
                + "\(ledger.count("reset")) resets, \(ledger.count("push/pop")) push/pops, "
                + "\(ledger.count("scope switch")) scope switches, \(ledger.count("context change")) context changes, "
                + "\(ledger.count("container dropped")) containers dropped, "
                + "\(ledger.count("manager swapped")) managers swapped, "
                + "\(ledger.count("resolution keyed by user code")) resolutions keyed by user code "
                + "(\(StressKey.deinits.count) key deinits), "
                + "\(ledger.count("register with user code")) registers with user code "
                + "(\(StressUserCode.deinits.count) deinits that used their container), \(ledger.failures) violations")
    }

    /// Round after round until the deadline, eight threads released together by a barrier resolve
    /// one cold scoped entry (a fresh container or singleton cache, or one just reset) of a
    /// `cached`, `shared` (values held until all resolved), `singleton`, custom `Cached()` scope,
    /// or `scopeOnParameters` factory (three parameters); meanwhile eight tasks per round do the
    /// same with async `cached`, `shared` and `singleton` factories. Proves that the closure ran
    /// exactly once per entry (once per parameter) and that everyone got that one instance.
    @Test func scopedValuesAreCreatedExactlyOncePerEntry() async {
        let ledger = StressLedger()
        let deadline = StressDeadline()
        let crew = StressCrew()
        let threads = 8
        let tasks = 8
        let round = OnceRound()
        let barrier = StressBarrier(threads)
        let values = StressValues()
        for index in 0..<threads {
            crew.thread("thread\(index)") { worker in
                var rng = StressRandom(stream: 0x200)
                var rounds = 0
                while true {
                    if index == 0 {
                        // The leader makes the round's entry cold while every other thread waits:
                        // a fresh container or singleton cache, or a reset.
                        var next = round.current
                        next.number = rounds
                        next.stop = deadline.hasPassed
                        next.variant = OnceVariant.allCases[rng.below(OnceVariant.allCases.count)]
                        let fresh = rng.chance(50)
                        if fresh { next.container = StressContainer() }
                        switch (next.variant, fresh, rng.below(3)) {
                        case (.singleton, true, _): next.singletons = Scope.Singleton()
                        case (.singleton, false, 0):
                            Scope.$singleton.withValue(next.singletons) {
                                next.container.stressOnceSingleton.reset(.scope)
                            }
                        case (.singleton, false, _): next.singletons.reset()
                        case (_, true, _): break
                        case (.session, false, 0): next.container.manager.reset(scope: .stressOnceSession)
                        case (.parameters, false, 0): next.container.stressOnceParameter.reset(.scope)
                        case (_, false, 1): next.container.manager.reset(options: .scope)
                        default: next.container.manager.reset(options: .all)
                        }
                        next.container.probe.prepare(lingers: rng.chance(50))
                        round.current = next
                    }
                    worker.doing("waiting for round \(rounds) to start")
                    guard barrier.arrive() else { break }
                    let current = round.current
                    if current.stop { break }
                    let container = current.container
                    worker.doing("resolving in round \(current.number) (\(current.variant))")
                    switch current.variant {
                    case .cached: values.add(container.stressOnceCached())
                    case .shared: values.add(container.stressOnceShared())
                    case .singleton:
                        values.add(Scope.$singleton.withValue(current.singletons) { container.stressOnceSingleton() })
                    case .session: values.add(container.stressOnceSession())
                    case .parameters:
                        let parameter = index % onceParameterCount
                        values.add(container.stressOnceParameter(parameter), key: parameter)
                    }
                    // Values stay held until everyone resolved (a shared scope keeps them only then).
                    worker.doing("waiting for round \(current.number) to end")
                    guard barrier.arrive() else { break }
                    if index == 0 {
                        let expected = current.variant == .parameters ? onceParameterCount : 1
                        checkOnce(
                            "\(current.variant)", number: current.number, values: values.take(),
                            creations: container.probe.counts, expected: expected, resolutions: threads,
                            ledger: ledger)
                    }
                    rounds += 1
                }
                if index == 0 { ledger.add(["sync rounds": rounds]) }
            }
        }
        crew.tasks(1, "asyncRounds") { _, worker in
            var rng = StressRandom(stream: 0x201)
            var rounds = 0
            var container = StressContainer()
            var singletons = Scope.Singleton()
            while !deadline.hasPassed {
                let variant = rng.below(3)
                if rng.chance(50) {
                    container = StressContainer()
                    singletons = Scope.Singleton()
                } else {
                    container.manager.reset(options: rng.chance(50) ? .scope : .all)
                    singletons.reset()
                }
                container.probe.prepare(lingers: rng.chance(50))
                let resolver = container
                worker.doing("async round \(rounds) (\(["cached", "shared", "singleton"][variant]))")
                let results = await Scope.$singleton.withValue(singletons) {
                    await withTaskGroup(of: StressValue?.self) { group in
                        for _ in 0..<tasks {
                            group.addTask {
                                switch variant {
                                case 0: try? await resolver.stressOnceAsyncCached()
                                case 1: try? await resolver.stressOnceAsyncShared()
                                default: try? await resolver.stressOnceAsyncSingleton()
                                }
                            }
                        }
                        var results: [StressValue?] = []
                        for await result in group { results.append(result) }
                        return results
                    }
                }
                let resolved = results.compactMap { $0 }.map { (key: 0, value: $0) }
                checkOnce(
                    "async \(["cached", "shared", "singleton"][variant])", number: rounds, values: resolved,
                    creations: container.probe.counts, expected: 1, resolutions: tasks, ledger: ledger)
                rounds += 1
            }
            ledger.add(["async rounds": rounds])
        }
        _ = await crew.finish("exactly once")
        ledger.expectNoFailures("exactly once")
        print(
            "StressTests.exactlyOnce: seed \(StressSettings.seedText), \(StressSettings.seconds) s: "
                + "\(ledger.count("sync rounds")) rounds of \(threads) threads, \(ledger.count("async rounds")) rounds "
                + "of \(tasks) tasks, \(ledger.failures) violations")
    }

    /// A writer per lane registers (closures making values of generation `k`) and resets (the
    /// factory, the container's scope, `reset(scope:)`, the test's singleton clone), `k` being the
    /// stamp taken when the operation began; readers resolve in a loop. Covers `cached`, `shared`
    /// (readers hold their value), `singleton`, a custom `Cached()` scope, async `cached` and
    /// `singleton`, and a lane with every reset including `.all`. Proves freshness: a resolution
    /// that starts after operation `k` returned never gets a value made before `k` began, nor one
    /// of a registration older than the last completed `register`.
    @Test func resolutionsAfterRegisterOrResetAreFresh() async {
        let singletons = Scope.Singleton()
        let ledger = StressLedger()
        let deadline = StressDeadline()
        let crew = StressCrew()
        let lanes = freshLanes(singletons: singletons)
        let readers = 2
        var threads = 0
        var tasks = 0
        for (number, lane) in lanes.enumerated() {
            crew.thread("\(lane.name) writer", singletons: singletons) { worker in
                var rng = StressRandom(stream: 0x300 + UInt64(number))
                var writes = 0
                worker.doing("writing")
                while !deadline.hasPassed {
                    let k = stressStamps.next()
                    let registered = lane.write(&rng, k)
                    lane.marks.completed(k, registered: registered)
                    writes += 1
                    // Let readers find cached values now and then, not only cleared caches.
                    if rng.chance(50) { usleep(20) }
                }
                ledger.add(["writes": writes])
            }
            threads += 1
            if let resolve = lane.resolve {
                for reader in 0..<readers {
                    crew.thread("\(lane.name) reader \(reader)", singletons: singletons) { worker in
                        var held: StressValue?
                        var reads = 0
                        worker.doing("resolving")
                        while !deadline.hasPassed {
                            let floors = lane.marks.floors
                            let value = resolve()
                            _ = lane.check(value, floors: floors, ledger: ledger)
                            if lane.holds { held = value }
                            reads += 1
                        }
                        withExtendedLifetime(held) {}
                        ledger.add(["reads": reads])
                    }
                    threads += 1
                }
            }
        }
        let asyncLanes = lanes.filter { $0.resolveAsync != nil }
        tasks = asyncLanes.count * 3
        Scope.$singleton.withValue(singletons) {
            crew.tasks(tasks, "async reader") { index, worker in
                let lane = asyncLanes[index % asyncLanes.count]
                guard let resolve = lane.resolveAsync else { return }
                var reads = 0
                worker.doing("resolving \(lane.name)")
                while !deadline.hasPassed {
                    let floors = lane.marks.floors
                    do {
                        _ = lane.check(try await resolve(), floors: floors, ledger: ledger)
                    } catch {
                        ledger.fail("\(lane.name): threw \(error)")
                    }
                    reads += 1
                    // A hit never suspends: leave the cooperative threads to the other tasks too.
                    await Task.yield()
                }
                ledger.add(["reads": reads])
            }
        }
        _ = await crew.finish("freshness")
        ledger.expectNoFailures("freshness")
        print(
            "StressTests.freshness: seed \(StressSettings.seedText), \(lanes.count) lanes, \(threads) threads + "
                + "\(tasks) tasks for \(StressSettings.seconds) s: \(ledger.count("writes")) registers and resets, "
                + "\(ledger.count("reads")) checked resolutions, \(ledger.failures) violations")
    }

    /// Round after round, a creation is held at a gate while other resolutions wait for it, and
    /// then: (sync, on threads) the value is reset during the creation, for `cached`, `shared`,
    /// `singleton` and a custom scope, and more resolutions start; (async, in tasks) the creator
    /// throws, the creating task is cancelled, some waiters are cancelled, or the value is reset
    /// during the creation. Proves there are no lost wake-ups: every waiter returns (within the
    /// timeout), with the creation's error, `CancellationError` if it was cancelled, or else the
    /// creation's one value (a task never cancelled never gets `CancellationError`), and resolutions started after the reset get a value made after it.
    @Test func everyWaiterOfASingleFlightCreationReturns() async {
        let ledger = StressLedger()
        let deadline = StressDeadline()
        let crew = StressCrew()
        crew.thread("sync rounds") { worker in
            var rng = StressRandom(stream: 0x400)
            var rounds = 0
            while !deadline.hasPassed {
                guard syncWakeRound(&rng, number: rounds, worker: worker, ledger: ledger) else { break }
                rounds += 1
            }
            ledger.add(["sync rounds": rounds])
        }
        crew.tasks(1, "async rounds") { _, worker in
            var rng = StressRandom(stream: 0x401)
            var rounds = 0
            while !deadline.hasPassed {
                await asyncWakeRound(&rng, number: rounds, worker: worker, ledger: ledger)
                rounds += 1
            }
            ledger.add(["async rounds": rounds])
        }
        _ = await crew.finish("no lost wake-ups")
        ledger.expectNoFailures("no lost wake-ups")
        print(
            "StressTests.wakeUps: seed \(StressSettings.seedText), \(StressSettings.seconds) s: "
                + "\(ledger.count("sync rounds")) sync rounds (\(ledger.count("sync resolutions")) threads), "
                + "\(ledger.count("async rounds")) async rounds (\(ledger.count("async resolutions")) tasks: "
                + "\(ledger.count("thrown")) got the creator's error, \(ledger.count("cancelled")) cancelled), "
                + "\(ledger.failures) violations")
    }
}

// MARK: - No lost wake-ups: rounds

/// The outcome of one resolution of a wake-up round.
private final class WakeResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [String: Result<StressValue, any Error>] = [:]

    func set(_ name: String, _ result: Result<StressValue, any Error>) {
        lock.lock()
        results[name] = result
        lock.unlock()
    }

    var all: [String: Result<StressValue, any Error>] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}

/// One synchronous round: returns false after a hang (already recorded), which ends the test.
private func syncWakeRound(
    _ rng: inout StressRandom, number: Int, worker: StressWorker, ledger: StressLedger
) -> Bool {
    let container = StressContainer()
    let singletons = Scope.Singleton()
    let variant = rng.below(4)
    let name = ["cached", "shared", "singleton", "custom scope"][variant]
    let resolve: @Sendable () -> StressValue = {
        switch variant {
        case 0: container.stressWakeCached()
        case 1: container.stressWakeShared()
        case 2: Scope.$singleton.withValue(singletons) { container.stressWakeSingleton() }
        default: container.stressWakeSession()
        }
    }
    let results = WakeResults()
    let group = DispatchGroup()
    func start(_ name: String) {
        group.enter()
        Thread.detachNewThread {
            results.set(name, .success(resolve()))
            group.leave()
        }
    }
    container.probe.close()
    worker.doing("sync round \(number) (\(name)): waiting for the creator to start")
    start("creator")
    guard container.probe.waitForCreations(1, timeout: StressSettings.grace) else {
        ledger.fail("sync round \(number) (\(name)): the creation never started")
        return false
    }
    let waiters = 1 + rng.below(3)
    for index in 0..<waiters { start("waiter\(index)") }
    if rng.chance(50) { usleep(UInt32(rng.below(200))) }
    let k = stressStamps.next()
    let operation = rng.below(4)
    Scope.$singleton.withValue(singletons) {
        switch (variant, operation) {
        case (2, 0): singletons.reset()
        case (2, 1): container.stressWakeSingleton.reset(.all)
        case (2, _): container.stressWakeSingleton.reset(.scope)
        case (3, 0): container.manager.reset(scope: .stressWakeSession)
        case (_, 0): container.manager.reset(options: .scope)
        case (_, 1): container.manager.reset(options: .all)
        case (0, _): container.stressWakeCached.reset(.scope)
        case (1, _): container.stressWakeShared.reset(.all)
        default: container.stressWakeSession.reset(.scope)
        }
    }
    let late = 1 + rng.below(2)
    for index in 0..<late { start("late\(index)") }
    if rng.chance(50) { usleep(UInt32(rng.below(200))) }
    container.probe.open()
    worker.doing("sync round \(number) (\(name)): waiting for \(1 + waiters + late) resolutions")
    guard group.wait(timeout: .now() + StressSettings.grace) == .success else {
        let returned = Set(results.all.keys)
        let missing = (["creator"] + (0..<waiters).map { "waiter\($0)" } + (0..<late).map { "late\($0)" })
            .filter { !returned.contains($0) }
        ledger.fail(
            "sync round \(number) (\(name), reset \(operation)): no return within \(StressSettings.grace) s from "
                + missing.joined(separator: ", "))
        return false
    }
    for case (let who, .success(let value)) in results.all where who.hasPrefix("late") && value.stamp <= k {
        ledger.fail("sync round \(number) (\(name)): \(who), started after the reset, got a value made before it")
    }
    if container.probe.gateTimedOut { ledger.fail("sync round \(number): a creation waited for the gate in vain") }
    let after = resolve()
    if after.stamp <= k { ledger.fail("sync round \(number) (\(name)): the value made before the reset was cached") }
    ledger.add(["sync resolutions": 1 + waiters + late])
    return true
}

/// One asynchronous round: a throwing creator, a cancelled creator, cancelled waiters, or a reset
/// during the creation.
private func asyncWakeRound(_ rng: inout StressRandom, number: Int, worker: StressWorker, ledger: StressLedger) async {
    let container = StressContainer()
    let singletons = Scope.Singleton()
    let kind = rng.below(5)
    let name = ["throwing creator", "cancelled creator", "cancelled waiters", "reset cached", "reset singleton"][kind]
    let resolve: @Sendable () async throws -> StressValue = {
        switch kind {
        case 0: try await container.stressWakeAsyncThrowing()
        case 1, 2: try await container.stressWakeAsyncCancellable()
        case 3: try await container.stressWakeAsyncCached()
        default: try await container.stressWakeAsyncSingleton()
        }
    }
    container.probe.close()
    var tasks: [(name: String, task: Task<StressValue, any Error>)] = []
    Scope.$singleton.withValue(singletons) {
        tasks.append(("creator", Task { try await resolve() }))
    }
    worker.doing("async round \(number) (\(name)): waiting for the creator to start")
    let started = DispatchTime.now().uptimeNanoseconds
    while container.probe.counts.total < 1 {
        if DispatchTime.now().uptimeNanoseconds - started > UInt64(StressSettings.grace * 1_000_000_000) {
            ledger.fail("async round \(number) (\(name)): the creation never started")
            container.probe.open()
            return
        }
        try? await Task.sleep(nanoseconds: 20_000)
    }
    let waiters = 2 + rng.below(3)
    Scope.$singleton.withValue(singletons) {
        for index in 0..<waiters { tasks.append(("waiter\(index)", Task { try await resolve() })) }
    }
    try? await Task.sleep(nanoseconds: UInt64(rng.below(300)) * 1_000)
    var cancelled: Set<String> = []
    var k = Int.max
    switch kind {
    case 1:
        tasks[0].task.cancel()
        cancelled.insert("creator")
    case 2:
        for (index, task) in tasks.enumerated() where index > 0 && rng.chance(50) {
            task.task.cancel()
            cancelled.insert(task.name)
        }
    case 3, 4:
        k = stressStamps.next()
        Scope.$singleton.withValue(singletons) {
            switch (kind, rng.below(3)) {
            case (4, 0): singletons.reset()
            case (4, 1): container.stressWakeAsyncSingleton.reset(.all)
            case (4, _): container.stressWakeAsyncSingleton.reset(.scope)
            case (_, 0): container.manager.reset(options: .scope)
            case (_, 1): container.manager.reset(options: .all)
            default: container.stressWakeAsyncCached.reset(.scope)
            }
            for index in 0..<2 { tasks.append(("late\(index)", Task { try await resolve() })) }
        }
    default:
        break
    }
    if rng.chance(50) { try? await Task.sleep(nanoseconds: UInt64(rng.below(200)) * 1_000) }
    container.probe.open()
    var values: [String: StressValue] = [:]
    var uncancelled: [String] = []
    for (who, task) in tasks {
        worker.doing("async round \(number) (\(name)): waiting for \(who)")
        do {
            values[who] = try await task.value
        } catch is StressFailure where kind == 0 {
            ledger.add(["thrown": 1])
        } catch is CancellationError where cancelled.contains(who) {
            ledger.add(["cancelled": 1])
        } catch is CancellationError where kind == 1 || kind == 2 {
            uncancelled.append(who)
        } catch {
            ledger.fail("async round \(number) (\(name)): \(who) threw \(error)")
        }
    }
    if !uncancelled.isEmpty {
        ledger.fail(
            "async round \(number) (\(name)): \(uncancelled.joined(separator: ", ")), never cancelled, got "
                + "CancellationError")
    }
    switch kind {
    case 0 where !values.isEmpty:
        ledger.fail("async round \(number) (\(name)): a resolution returned a value the closure never makes")
    case 1, 2:
        // The creation goes on for the tasks never cancelled: each gets its one value (a cancelled
        // task may get it too, if its cancellation came late).
        let kept = values.filter { !cancelled.contains($0.key) }
        let instances = Set(kept.values.map(ObjectIdentifier.init)).count
        if kept.count != tasks.count - cancelled.count - uncancelled.count || instances > 1 {
            ledger.fail(
                "async round \(number) (\(name)): \(kept.count) of \(tasks.count - cancelled.count) tasks never "
                    + "cancelled got the value, \(instances) instances")
        }
    case 3, 4:
        if values.count != tasks.count {
            ledger.fail("async round \(number) (\(name)): \(tasks.count - values.count) resolutions failed")
        }
        for (who, value) in values where who.hasPrefix("late") && value.stamp <= k {
            ledger.fail("async round \(number) (\(name)): \(who), started after the reset, got a value made before it")
        }
    default:
        break
    }
    ledger.add(["async resolutions": tasks.count])
}
