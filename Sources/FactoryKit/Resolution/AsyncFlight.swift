/// A value handed between tasks whose type the compiler cannot prove `Sendable`: scoped async
/// factories are only declared for `Sendable` results (their scope modifiers require it), so
/// every value that crosses here is one.
@usableFromInline
struct UncheckedSendable<Value>: @unchecked Sendable {
    @usableFromInline let value: Value

    init(_ value: Value) { self.value = value }
}

/// An asynchronous creation in flight, shared by every resolution that wants the same scoped value.
@usableFromInline
class AsyncFlightBase: Flight, @unchecked Sendable {
    let label: String
    /// The creations this one's closure is waiting for: several at once when its child tasks
    /// (`async let`, a task group) each wait for one. Guarded by `AsyncWaitGraph`.
    var waitingOn: [AsyncFlightBase] = []

    @usableFromInline
    init(label: String) {
        self.label = label
        super.init()
    }
}

/// The creation runs in a task of its own, so it goes on when one waiter is cancelled. Waiters
/// are resumed with its outcome; a cancelled waiter leaves at once with `CancellationError`, and
/// when the last waiter has left, the creation is cancelled too and leaves its slot, so that a
/// resolution that starts afterwards makes a new one instead of joining a cancelled one.
///
/// The resolution that reserved the slot counts as a waiter from the start: a joiner cancelled
/// before the creator begins waiting does not leave the creation without waiters.
@usableFromInline
final class AsyncFlight<T>: AsyncFlightBase, @unchecked Sendable {
    @usableFromInline
    struct State {
        var outcome: Result<UncheckedSendable<T>, any Error>?
        var waiters: [Int: CheckedContinuation<UncheckedSendable<T>, any Error>] = [:]
        /// The creator, until it leaves, and every joiner still waiting.
        var interested = 1
        var nextWaiter = 0
        var task: Task<Void, Never>?
        /// Clears the slot if it still holds this creation; set by `start`.
        var leaveSlot: (@Sendable () -> Void)?
        /// Every waiter left and the creation was cancelled: joiners must look the slot up again.
        var isAbandoned = false
    }

    let state = Locked(State())

    /// Starts the creation. `publish` records the outcome in the scope before waiters see it; it
    /// is also how an abandoned creation leaves its slot (with a failure, which is not cached).
    @usableFromInline
    func start(
        _ operation: @escaping @Sendable () async throws -> UncheckedSendable<T>,
        publish: @escaping @Sendable (Result<UncheckedSendable<T>, any Error>) -> Void
    ) {
        // Before the task exists: a quick creation may finish, and `finish` clear it, before
        // `start` could store it afterwards, and the closure captures this flight.
        state.withLock { $0.leaveSlot = { publish(.failure(CancellationError())) } }
        let task = Task {
            let outcome: Result<UncheckedSendable<T>, any Error>
            do {
                outcome = .success(try await operation())
            } catch {
                outcome = .failure(error)
            }
            publish(outcome)
            self.finish(outcome)
        }
        state.withLock { $0.task = task }
    }

    private func finish(_ outcome: Result<UncheckedSendable<T>, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<UncheckedSendable<T>, any Error>] in
            state.outcome = outcome
            // It captures this flight: dropped here, it cannot keep the flight and its value alive.
            state.leaveSlot = nil
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(with: outcome) }
    }

    /// Waits for the outcome, or throws `CancellationError` as soon as the calling task is cancelled.
    /// `isCreator` is true for the resolution that reserved the slot, already counted. Throws
    /// `AbandonedCreation` to a joiner that arrives after every waiter left.
    @usableFromInline
    func value(isCreator: Bool) async throws -> T {
        let id = try state.withLock { state -> Int in
            if !isCreator {
                if state.isAbandoned { throw AbandonedCreation() }
                state.interested += 1
            }
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let result = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<UncheckedSendable<T>, any Error>) in
                let immediate = state.withLock { state -> Result<UncheckedSendable<T>, any Error>? in
                    if let outcome = state.outcome { return outcome }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            leave(id)
        }
        // The creation stored its outcome under `state`'s lock before resuming this waiter. The
        // continuation orders the two, but ThreadSanitizer on Linux does not see that ordering
        // (swiftlang/swift#57803) and reports the value's fields as raced; taking the lock that
        // guarded the outcome makes it visible. Only waiters that suspended pay for it.
        state.withLock { _ in }
        return result.value
    }

    /// A waiter gives up; the last one to leave cancels the creation and clears its slot.
    private func leave(_ id: Int) {
        typealias Abandoned = (task: Task<Void, Never>?, leaveSlot: (@Sendable () -> Void)?)
        let (waiter, abandoned) = state.withLock {
            state -> (CheckedContinuation<UncheckedSendable<T>, any Error>?, Abandoned?) in
            guard state.outcome == nil else { return (nil, nil) }
            let waiter = state.waiters.removeValue(forKey: id)
            state.interested -= 1
            guard state.interested == 0 else { return (waiter, nil) }
            state.isAbandoned = true
            defer { state.leaveSlot = nil }
            return (waiter, (state.task, state.leaveSlot))
        }
        waiter?.resume(throwing: CancellationError())
        if let (task, leaveSlot) = abandoned {
            leaveSlot?()
            task?.cancel()
        }
    }
}

/// Thrown to a resolution that joined a creation every other waiter had left (and which was
/// cancelled): it looks the value up again.
@usableFromInline
struct AbandonedCreation: Error, CustomStringConvertible {
    @usableFromInline init() {}

    @usableFromInline
    var description: String { "joined a creation every other waiter had left; resolving again" }
}

/// One step of an asynchronous resolution, carried in a task-local stack so cycles are found
/// however the work hops between tasks.
@usableFromInline
struct AsyncFrame: @unchecked Sendable {  // parameters of async factories are Sendable
    @usableFromInline let container: ObjectIdentifier
    @usableFromInline let key: FactoryKey
    @usableFromInline let parameter: AnyHashable?
    @usableFromInline let isParameterized: Bool
    @usableFromInline let containerType: any ManagedContainer.Type
    @usableFromInline let resultType: Any.Type
    /// The shared creation this frame runs, when it is one.
    @usableFromInline var flight: AsyncFlightBase?
    /// The trace of the outermost resolution, while the trace is on.
    @usableFromInline var trace: AsyncTrace?
    /// The `graph`-scoped values of the outermost resolution, set on its frame when it runs a
    /// factory: every resolution below it, in any child task, shares them.
    @usableFromInline var graph: ScopeBlock?

    @usableFromInline
    init(
        container: ObjectIdentifier, key: FactoryKey, parameter: AnyHashable?, isParameterized: Bool,
        containerType: any ManagedContainer.Type, resultType: Any.Type
    ) {
        self.container = container
        self.key = key
        self.parameter = parameter
        self.isParameterized = isParameterized
        self.containerType = containerType
        self.resultType = resultType
    }

    /// How messages name the frame's factory; built only when one is written.
    @usableFromInline
    var description: String {
        Diagnostics.describe(container: containerType, name: key.name, result: resultType)
    }

    @usableFromInline
    func isSameResolution(as other: AsyncFrame) -> Bool {
        container == other.container && key == other.key && (!isParameterized || parameter == other.parameter)
    }
}

@usableFromInline
enum AsyncResolution {
    /// The asynchronous resolutions the current task is inside, outermost first.
    @TaskLocal static var stack: [AsyncFrame] = []

    /// Throws if `frame` is already being resolved by this chain of tasks.
    @usableFromInline
    static func checkCycle(entering frame: AsyncFrame, stack: [AsyncFrame]) throws {
        guard let start = stack.firstIndex(where: { $0.isSameResolution(as: frame) }) else { return }
        throw DependencyCycleError(path: stack[start...].map(\.description) + [frame.description])
    }
}

/// Which creations wait for which, across tasks; touched only by resolutions about to wait.
enum AsyncWaitGraph {
    private static let lock = Locked(0)

    /// Records that `waiter` (the creation the current task runs, if any) waits for `flight`, or
    /// throws the cycle that waiting would close.
    static func enter(_ waiter: AsyncFlightBase?, waitingFor flight: AsyncFlightBase) throws {
        guard let waiter else { return }
        try lock.withLock { _ in
            if let path = path(from: flight, to: waiter) { throw DependencyCycleError(path: [waiter.label] + path) }
            waiter.waitingOn.append(flight)
        }
    }

    /// The labels of a chain of waits from `start` to `target`, both included, if there is one.
    /// Every wait is followed, not only the latest: a creation whose child tasks wait for several
    /// others at once closes a cycle through any of them.
    private static func path(from start: AsyncFlightBase, to target: AsyncFlightBase) -> [String]? {
        var visited: Set<ObjectIdentifier> = []
        var pending: [(flight: AsyncFlightBase, path: [String])] = [(start, [start.label])]
        while let (flight, path) = pending.popLast() {
            if flight === target { return path }
            guard visited.insert(ObjectIdentifier(flight)).inserted else { continue }
            for next in flight.waitingOn { pending.append((next, path + [next.label])) }
        }
        return nil
    }

    /// Records that one of `waiter`'s waits for `flight` is over.
    static func leave(_ waiter: AsyncFlightBase?, waitingFor flight: AsyncFlightBase) {
        guard let waiter else { return }
        let ended = lock.withLock { _ -> AsyncFlightBase? in
            guard let index = waiter.waitingOn.firstIndex(where: { $0 === flight }) else { return nil }
            return waiter.waitingOn.remove(at: index)
        }
        withExtendedLifetime(ended) {}
    }
}
