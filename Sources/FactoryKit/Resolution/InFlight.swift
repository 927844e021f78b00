import Foundation

/// A creation in progress that other threads may wait for: single flight for scoped instances
/// and for `autoRegister()`.
///
/// The thread that reserves a slot creates the value with no lock held; everyone else who wants
/// the same slot waits here for that one value. Before waiting, a thread checks the wait graph, so
/// waiting for oneself (directly or through other threads) is reported as a cycle, never a hang.
@usableFromInline
final class InFlight: @unchecked Sendable {
    @usableFromInline let owner: ResolutionChain
    /// Index of the creating frame in the owner's stack; nil for `autoRegister()`.
    let frameIndex: Int?
    /// What `label` is made from: text, or a factory's parts, formatted only when a message needs
    /// them. A slot is reserved under its cache's lock, on every creation; formatting the name
    /// there cost about 400 instructions of string building inside the locked section.
    private let labelSource: LabelSource
    /// Whether `label` names a step of its own in a cycle's path (a property wrapper's storage)
    /// rather than repeating the creating frame.
    let labelIsStep: Bool
    /// Whether the creation finished, and the condition its waiters sleep on, in one word: the
    /// condition's address (zero until a thread has to wait), with bit 0 set once `value` is
    /// published. A creation nobody waits for, the usual case, allocates no condition and
    /// finishes with one atomic instruction.
    private let word = AtomicWord.allocateZeroed(count: 1)
    private static let finishedBit: UInt = 1
    /// Written once, by `finish`, before it sets `finishedBit`; read after seeing it set.
    private var value: Any?
    /// Values this creation replaces (an expired one, or those of a scope the cache no longer
    /// serves), dropped under the lock that reserved the slot. The reserving thread, which dropped
    /// them, releases them once it holds no lock (`releaseReplaced()`), since a value's `deinit`
    /// may resolve; waiters never touch them, so no `deinit` runs on a thread that never held the
    /// value.
    @usableFromInline var replaced: [StoredValue] = []

    /// Releases the values this creation replaced; called by the reserving thread, with no lock
    /// held, before the flight can outlive its other holders.
    func releaseReplaced() {
        if !replaced.isEmpty { replaced = [] }
    }
    /// The singleton cache and entry whose slot this creation fills, for a singleton; `nil` for a
    /// container's cache. Written by the reserving thread, and read only by it.
    @usableFromInline var singletonSlot: (Scope.Singleton, SingletonEntry)?

    enum LabelSource {
        case text(String)
        case factory(container: Any.Type, name: LiteralText, result: Any.Type)
    }

    @usableFromInline
    init(owner: ResolutionChain, frameIndex: Int?, label: String, labelIsStep: Bool = false) {
        self.owner = owner
        self.frameIndex = frameIndex
        self.labelIsStep = labelIsStep
        self.labelSource = .text(label)
    }

    /// A creation of the factory `name` of `container`, resolving to `result`.
    init(owner: ResolutionChain, frameIndex: Int?, container: Any.Type, name: LiteralText, result: Any.Type) {
        self.owner = owner
        self.frameIndex = frameIndex
        self.labelIsStep = false
        self.labelSource = .factory(container: container, name: name, result: result)
    }

    deinit {
        // Every thread that used the condition held this flight, so it is done with it.
        if let condition = Self.condition(in: word.loadAcquiring()) { condition.release() }
        word.deallocate()
    }

    /// The condition a word names, if a waiter installed one.
    private static func condition(in word: UInt) -> Unmanaged<NSCondition>? {
        let address = word & ~finishedBit
        guard address != 0, let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
        return Unmanaged.fromOpaque(pointer)
    }

    /// How messages name the creation: `Container.service<Service>`, or the text it was given.
    var label: String {
        switch labelSource {
        case .text(let text): return text
        case .factory(let container, let name, let result):
            return Diagnostics.describe(container: container, name: name, result: result)
        }
    }

    /// Publishes the result to every waiter.
    @usableFromInline
    func finish(_ result: Any) {
        value = result
        // Sequentially consistent, as is the waiter's installation of the condition: either the
        // waiter sees the bit, or this sees its condition and wakes it.
        let before = word.fetchOr(Self.finishedBit)
        guard let condition = Self.condition(in: before) else { return }
        condition._withUnsafeGuaranteedRef { condition in
            // Under the condition's lock: a waiter checks the bit and sleeps under it, so it
            // either saw the bit or is asleep by now.
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Whether the result is published: a thread waiting for a finished creation is about to
    /// return, so it closes no cycle.
    var isFinished: Bool { word.loadAcquiring() & Self.finishedBit != 0 }

    /// The condition waiters sleep on, installed by the first of them; `nil` once the creation
    /// has finished.
    private func installedCondition() -> Unmanaged<NSCondition>? {
        var current = word.loadAcquiring()
        if current == 0 {
            let made = Unmanaged.passRetained(NSCondition())
            let (exchanged, original) = word.compareExchange(
                expected: 0, desired: UInt(bitPattern: made.toOpaque()))
            if exchanged { return made }
            made.release()
            current = original
        }
        return current & Self.finishedBit != 0 ? nil : Self.condition(in: current)
    }

    /// Waits for the owner's result on behalf of `chain`, whose top frame (if any) is this creation.
    @usableFromInline
    func wait(from chain: ResolutionChain) -> Any {
        _ = WaitGraph.enter(chain, waitingFor: self, reportingCycle: true)
        defer { WaitGraph.leave(chain) }
        if let condition = installedCondition() {
            condition._withUnsafeGuaranteedRef { sleep(on: $0) }
        }
        return value!
    }

    /// Waits like `wait(from:)` unless the wait would close a cycle; then returns `false` at once,
    /// having waited for nothing.
    func waitUnlessCycle(from chain: ResolutionChain) -> Bool {
        guard WaitGraph.enter(chain, waitingFor: self, reportingCycle: false) else { return false }
        defer { WaitGraph.leave(chain) }
        if let condition = installedCondition() {
            condition._withUnsafeGuaranteedRef { sleep(on: $0) }
        }
        return true
    }

    /// Sleeps on `condition` until the creation finishes, saying so in the log once it has taken
    /// longer than `Diagnostics`' slow-wait threshold.
    private func sleep(on condition: NSCondition) {
        let threshold = Diagnostics.settings.withLock { $0.slowWaitThreshold }
        var warned = false
        while true {
            condition.lock()
            if isFinished {
                condition.unlock()
                return
            }
            var timedOut = false
            if warned || threshold <= 0 {
                condition.wait()
            } else {
                timedOut = !condition.wait(until: Date(timeIntervalSinceNow: threshold))
            }
            let done = isFinished
            condition.unlock()
            if done { return }
            if timedOut {
                // Logged with no lock held: the logger is user code and may use FactoryKit.
                warned = true
                Diagnostics.log(
                    "FactoryKit: still waiting after \(threshold) s for \(label), which another thread is creating. "
                        + "If that thread is blocked on this one (DispatchQueue.sync, a semaphore), this is a deadlock."
                )
            }
        }
    }
}

/// Who waits for whom, across threads; touched only by threads about to block.
enum WaitGraph {
    private static let lock = Locked(0)

    /// Records that `chain` is about to wait for `flight` and returns `true`, or, when waiting
    /// would close a cycle, reports it (`reportingCycle`) or returns `false`. Detection and
    /// registration happen under one lock, so two threads can never both decide to wait for each
    /// other.
    @discardableResult
    static func enter(_ chain: ResolutionChain, waitingFor flight: InFlight, reportingCycle: Bool = true) -> Bool {
        let cycle: [String]? = lock.withLock { _ in
            // Follow the waits: flight is owned by C1, which waits for F1, owned by C2, ... If the
            // chain comes back to `chain`, each thread's stack contributes the frames from the
            // creation the previous thread waits for up to the creation it waits for itself.
            var segments: [[String]] = []
            var awaited = flight
            while awaited.owner !== chain {
                let owner = awaited.owner
                // A finished creation is no wait: its waiter is about to return, however long it
                // has not yet left the graph. Only creations in progress, whose creators are
                // inside them, can close a cycle.
                guard let next = owner.waitingFor, !awaited.isFinished, !next.isFinished else {
                    chain.waitingFor = flight
                    chain.waitingFrames = chain.frames.array
                    return nil
                }
                let from = awaited.frameIndex.map { $0 + 1 } ?? owner.waitingFrames.count
                let frames = owner.waitingFrames.dropFirst(from).map(\.description)
                segments.append(frames.isEmpty ? [next.label] : frames)
                awaited = next
            }
            var own = chain.frames.array.dropFirst(awaited.frameIndex ?? chain.frames.count).map(\.description)
            if awaited.labelIsStep || own.isEmpty { own.insert(awaited.label, at: 0) }
            var path = own + segments.joined()
            if path.count == 1 || path.last != path.first { path.append(path[0]) }
            return path
        }
        guard let cycle else { return true }
        if !reportingCycle { return false }
        DependencyCycle.report(path: cycle, chain: chain, acrossThreads: flight.owner !== chain)
    }

    static func leave(_ chain: ResolutionChain) {
        lock.withLock { _ in
            chain.waitingFor = nil
            chain.waitingFrames = []
        }
    }
}
