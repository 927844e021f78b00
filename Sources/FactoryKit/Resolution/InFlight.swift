import Foundation

/// A creation that reserved a cache slot: a synchronous one (`InFlight`), which other threads
/// wait for, or an asynchronous one (`AsyncFlightBase`), which other tasks join. A slot holds it
/// until the creation publishes its value there.
@usableFromInline
class Flight: @unchecked Sendable {
    /// Values this creation replaces (an expired one, or those of a scope the cache no longer
    /// serves), dropped under the lock that reserved the slot. The reserving thread or task,
    /// which dropped them, releases them once it holds no lock (`releaseReplaced()`), since a
    /// value's `deinit` may resolve; waiters never touch them, so no `deinit` runs on a thread
    /// that never held the value.
    @usableFromInline var replaced: [StoredValue] = []

    @usableFromInline init() {}

    /// Releases the values this creation replaced; called by the reserving thread or task, with
    /// no lock held, before the flight can outlive its other holders.
    func releaseReplaced() {
        if !replaced.isEmpty { replaced = [] }
    }
}

/// A creation in progress that other threads may wait for: single flight for scoped instances
/// and for `autoRegister()`.
///
/// The thread that reserves a slot creates the value with no lock held; everyone else who wants
/// the same slot waits here for that one value. Before waiting, a thread checks the wait graph, so
/// waiting for oneself (directly or through other threads) is reported as a cycle, never a hang.
@usableFromInline
final class InFlight: Flight, @unchecked Sendable {
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
    /// The outcome once published, and the condition waiters sleep on, made by the first of them:
    /// a creation nobody waits for, the usual case, allocates no condition.
    private let state = Locked<(value: Any?, finished: Bool, condition: NSCondition?)>((nil, false, nil))

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
        super.init()
    }

    /// A creation of the factory `name` of `container`, resolving to `result`.
    init(owner: ResolutionChain, frameIndex: Int?, container: Any.Type, name: LiteralText, result: Any.Type) {
        self.owner = owner
        self.frameIndex = frameIndex
        self.labelIsStep = false
        self.labelSource = .factory(container: container, name: name, result: result)
        super.init()
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
        let condition = state.withLock { state in
            state.value = result
            state.finished = true
            return state.condition
        }
        // A waiter checks `isFinished` under the condition's lock before it sleeps, so it either
        // saw the result or is asleep by the time this broadcast can take that lock.
        guard let condition else { return }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Whether the result is published: a thread waiting for a finished creation is about to
    /// return, so it closes no cycle.
    var isFinished: Bool { state.withLock { $0.finished } }

    /// The result, once `finish` published it.
    private var value: Any { state.withLock { $0.value }! }

    /// The condition to sleep on, made by the first waiter; `nil` once the creation has finished.
    private func condition() -> NSCondition? {
        state.withLock { state in
            if state.finished { return nil }
            if state.condition == nil { state.condition = NSCondition() }
            return state.condition
        }
    }

    /// Waits for the owner's result on behalf of `chain`, whose top frame (if any) is this creation.
    @usableFromInline
    func wait(from chain: ResolutionChain) -> Any {
        _ = WaitGraph.enter(chain, waitingFor: self, reportingCycle: true)
        defer { WaitGraph.leave(chain) }
        if let condition = condition() { sleep(on: condition) { self.isFinished } }
        return value
    }

    /// Waits like `wait(from:)` unless the wait would close a cycle: then returns `false`, having
    /// waited for nothing. A cycle closed later, by another thread about to wait, also ends the
    /// wait with `false` (see `WaitGraph.enter`). `autoRegister()` runs are waited for this way.
    func waitUnlessCycle(from chain: ResolutionChain) -> Bool {
        guard WaitGraph.enter(chain, waitingFor: self, reportingCycle: false) else { return false }
        defer { WaitGraph.leave(chain) }
        var released = false
        if let condition = condition() {
            sleep(on: condition) {
                released = WaitGraph.isReleased(chain)
                return released || self.isFinished
            }
        }
        return !released
    }

    /// Wakes the threads sleeping on this creation, so they look again at why they wait.
    func wakeWaiters() {
        guard let condition = state.withLock({ $0.condition }) else { return }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Sleeps on `condition` until `isDone` (read under the condition's lock), saying so in the
    /// log once it has taken longer than `Diagnostics`' slow-wait threshold.
    private func sleep(on condition: NSCondition, until isDone: () -> Bool) {
        let threshold = Diagnostics.settings.withLock { $0.slowWaitThreshold }
        var warned = false
        while true {
            condition.lock()
            if isDone() {
                condition.unlock()
                return
            }
            var timedOut = false
            if warned || threshold <= 0 {
                condition.wait()
            } else {
                timedOut = !condition.wait(until: Date(timeIntervalSinceNow: threshold))
            }
            let done = isDone()
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
    ///
    /// A thread that waits for another's `autoRegister()` (`reportingCycle: false`) goes on when
    /// its wait would close a cycle, as it would had it run that `autoRegister()` nested. When the
    /// cycle is closed by another thread instead, about to wait for a creation, that thread
    /// releases the one waiting for `autoRegister()` (which wakes and goes on) and waits: used on
    /// one thread, the same calls nest without a cycle.
    @discardableResult
    static func enter(_ chain: ResolutionChain, waitingFor flight: InFlight, reportingCycle: Bool = true) -> Bool {
        var effects = Effects()
        let outcome = lock.withLock { _ -> Outcome in
            let outcome = settle(chain, waitingFor: flight, reportingCycle: reportingCycle, &effects)
            if case .wait = outcome {
                chain.waits.append(
                    ResolutionChain.Wait(flight: flight, goesOnAtCycle: !reportingCycle, frames: chain.frames.array))
            }
            return outcome
        }
        return conclude(outcome, chain: chain, flight: flight, effects)
    }

    /// What a wait about to begin (or to resume) meets.
    private enum Outcome {
        /// No cycle, or one broken by releasing another thread's wait: wait.
        case wait
        /// A cycle, and this wait goes on instead (a wait for `autoRegister()`).
        case goOn
        /// A cycle to report: its path and where its factories are defined.
        case cycle(path: [String], sites: [String: String])
    }

    /// What a decision leaves to do once the lock is given up: frames to release, and a creation
    /// whose waiters to wake (one was released).
    private struct Effects {
        var released: [ResolutionFrame] = []
        var wake: InFlight?
    }

    /// Decides, under the lock, what `chain`'s wait for `flight` meets; releases the first wait
    /// for `autoRegister()` on a cycle when this wait reports cycles.
    private static func settle(
        _ chain: ResolutionChain, waitingFor flight: InFlight, reportingCycle: Bool, _ effects: inout Effects
    ) -> Outcome {
        // Follow the waits: flight is owned by C1, which waits for F1, owned by C2, ... If the
        // chain comes back to `chain`, each thread's stack contributes the frames from the
        // creation the previous thread waits for up to the creation it waits for itself.
        var segments: [[String]] = []
        var involved: [ArraySlice<ResolutionFrame>] = []
        var awaited = flight
        var goesOn: ResolutionChain?
        while awaited.owner !== chain {
            let owner = awaited.owner
            // A finished creation is no wait: its waiter is about to return, however long it has
            // not yet left the graph. Only creations in progress, whose creators are inside them,
            // can close a cycle.
            guard let next = owner.waitingFor, !awaited.isFinished, !next.isFinished else { return .wait }
            let wait = owner.waits[owner.waits.count - 1]
            if goesOn == nil && wait.goesOnAtCycle { goesOn = owner }
            let from = awaited.frameIndex.map { $0 + 1 } ?? wait.frames.count
            let frames = wait.frames.dropFirst(from)
            involved.append(frames)
            segments.append(frames.isEmpty ? [next.label] : frames.map(\.description))
            awaited = next
        }
        if !reportingCycle { return .goOn }
        if let goesOn, let next = goesOn.waitingFor {
            effects.released += goesOn.releaseInnermostWait()
            effects.wake = next
            return .wait
        }
        var own = chain.frames.array.dropFirst(awaited.frameIndex ?? chain.frames.count).map(\.description)
        if awaited.labelIsStep || own.isEmpty { own.insert(awaited.label, at: 0) }
        var path = own + segments.joined()
        if path.count == 1 || path.last != path.first { path.append(path[0]) }
        return .cycle(path: path, sites: ResolutionFrame.sites(of: chain.frames.array + involved.joined()))
    }

    /// Carries out `outcome` with no lock held: `true` to wait, `false` to go on; a cycle stops.
    private static func conclude(_ outcome: Outcome, chain: ResolutionChain, flight: InFlight, _ effects: Effects)
        -> Bool
    {
        withExtendedLifetime(effects.released) {}
        effects.wake?.wakeWaiters()
        switch outcome {
        case .wait: return true
        case .goOn: return false
        case .cycle(let path, let sites):
            DependencyCycle.report(path: path, chain: chain, acrossThreads: flight.owner !== chain, sites: sites)
        }
    }

    /// Whether another thread released `chain` from its wait for an `autoRegister()` run, to
    /// break a cycle (see `enter`).
    static func isReleased(_ chain: ResolutionChain) -> Bool {
        lock.withLock { _ in chain.waits.last?.released ?? false }
    }

    /// Records that `chain`'s innermost wait is over. The frames it had published, which hold
    /// parameters (user values), are released after the lock.
    ///
    /// A wait it ends inside another (a logger called during a long wait resolved and waited
    /// again) returns the outer wait to the graph, which checks it again as if it began now: a
    /// thread may have begun waiting for this one meanwhile.
    static func leave(_ chain: ResolutionChain) {
        var effects = Effects()
        let (frames, resumed) = lock.withLock { _ -> ([ResolutionFrame], (Outcome, InFlight)?) in
            let frames = chain.waits.removeLast().frames
            guard let outer = chain.waits.last, let flight = outer.flight else { return (frames, nil) }
            let outcome = settle(chain, waitingFor: flight, reportingCycle: !outer.goesOnAtCycle, &effects)
            if case .goOn = outcome { effects.released += chain.releaseInnermostWait() }
            return (frames, (outcome, flight))
        }
        withExtendedLifetime(frames) {}
        if let (outcome, flight) = resumed { _ = conclude(outcome, chain: chain, flight: flight, effects) }
    }
}
