/// The shared storage of a lazily injected dependency: resolved once, by whoever reads it first.
///
/// Concurrent first reads wait for the one resolving it; no lock is held while it resolves, and
/// a read from inside that resolution (on the same thread or one it waits for) is reported as a
/// cycle instead of deadlocking.
@usableFromInline
final class LazyStorage<Value>: @unchecked Sendable {
    @usableFromInline
    enum State {
        case unresolved
        case resolving(InFlight)
        case resolved(Value)
    }

    @usableFromInline let state = Locked(State.unresolved)

    enum Step {
        case hit(Value)
        case create(InFlight)
        case wait(InFlight)
    }

    /// The factory whose resolution created the wrapper, while a dependency-graph recording or
    /// the trace watched: the lazily resolved dependency is drawn as its edge. Set once, before
    /// the storage is shared.
    @usableFromInline var owner: String?

    init() {
        if Diagnostics.isObserving { owner = Diagnostics.currentResolution() }
    }

    /// The value, resolving it with `make` if nobody has yet.
    func value(label: @autoclosure () -> String, make: () -> Value) -> Value {
        let chain = ResolutionChain.current
        while true {
            let step = state.withLock { state -> Step in
                switch state {
                case .resolved(let value):
                    return .hit(value)
                case .resolving(let flight):
                    return .wait(flight)
                case .unresolved:
                    let flight = InFlight(owner: chain, frameIndex: chain.depth, label: label(), labelIsStep: true)
                    state = .resolving(flight)
                    return .create(flight)
                }
            }
            switch step {
            case .hit(let value):
                return value
            case .wait(let flight):
                _ = flight.wait(from: chain)
            case .create(let flight):
                let value = owner.map { Diagnostics.resolving(adoptedBy: $0, make) } ?? make()
                state.withLock { state in
                    if case .resolving(let current) = state, current === flight { state = .resolved(value) }
                }
                flight.finish(())
                return value
            }
        }
    }

    /// The value if it has been resolved.
    var resolved: Value? {
        state.withLock { state in
            if case .resolved(let value) = state { return value }
            return nil
        }
    }

    /// Replaces the value (or forgets it, with `.unresolved`).
    func set(_ newState: State) {
        state.withLock { $0 = newState }
    }
}
