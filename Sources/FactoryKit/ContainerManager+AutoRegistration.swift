extension ContainerManager {
    /// Runs `body` on this manager's state, first running the container's `autoRegister()` if it
    /// has not run yet.
    ///
    /// `autoRegister()` runs once per container instance, on the first thread that touches the
    /// manager, with no lock held: it may register and resolve on the same container. Other
    /// threads that arrive meanwhile wait for it to finish, so nobody sees a half-registered
    /// container.
    @inlinable
    func withState<Result>(of container: any ManagedContainer, _ body: (inout ManagerState) -> Result) -> Result {
        // `isAutoRegistered` only ever lags the state by a concurrent reset, and an operation
        // racing a reset may land on either side of it.
        if isAutoRegistered.value { return state.withLock(body) }
        return withStateAfterAutoRegistration(of: container, body)
    }

    @usableFromInline
    func withStateAfterAutoRegistration<Result>(
        of container: any ManagedContainer, _ body: (inout ManagerState) -> Result
    ) -> Result {
        let chain = ResolutionChain.current
        while true {
            let step = state.withLock { state -> AutoRegistrationStep<Result> in
                switch state.autoRegistration {
                case .done:
                    isAutoRegistered.set(true)
                    return .ready(body(&state))
                case .running(let flight):
                    // The thread running autoRegister() uses the container freely.
                    return flight.owner === chain ? .ready(body(&state)) : .wait(flight)
                case .pending:
                    guard container is AutoRegistering else {
                        state.autoRegistration = .done
                        isAutoRegistered.set(true)
                        return .ready(body(&state))
                    }
                    let flight = InFlight(
                        owner: chain, frameIndex: nil, label: "\(type(of: container)).autoRegister()")
                    state.autoRegistration = .running(flight)
                    return .run(flight)
                }
            }
            switch step {
            case .ready(let result):
                return result
            case .run(let flight):
                (container as? AutoRegistering)?.autoRegister()
                state.withLock { state in
                    if case .running(let current) = state.autoRegistration, current === flight {
                        state.autoRegistration = .done
                    }
                }
                flight.finish(())
            case .wait(let flight):
                _ = flight.wait(from: chain)
            }
        }
    }
}

@usableFromInline
enum AutoRegistrationStep<Result> {
    case ready(Result)
    case run(InFlight)
    case wait(InFlight)
}
