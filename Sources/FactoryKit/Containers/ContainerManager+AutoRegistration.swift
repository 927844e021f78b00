extension ContainerManager {
    /// Runs `body` on this manager's state, first running the container's `autoRegister()` if it
    /// has not run yet.
    ///
    /// `autoRegister()` runs once per container instance, on the first thread that touches the
    /// manager, with no lock held: it may register and resolve on the same container. Other
    /// threads that arrive meanwhile wait for it to finish, so nobody sees a half-registered
    /// container, unless that wait would close a cycle of `autoRegister()` runs across threads:
    /// then the thread goes on, as it would have if it had run the other one nested.
    @usableFromInline
    func withState<Result>(of container: any ManagedContainer, _ body: (inout ManagerState) -> Result) -> Result {
        withState(of: container) { state, _ in body(&state) }
    }

    /// `withState(of:_:)`, also handing `body` the manager whose state it is (see
    /// `withRoutedState`).
    func withState<Result>(
        of container: any ManagedContainer, _ body: (inout ManagerState, ContainerManager) -> Result
    ) -> Result {
        // One trip through the lock once `autoRegister()` has run, unless SwiftUI ever routed
        // this manager.
        var dropped: [Any]?
        let result = lockedState.withLock { state -> Result? in
            guard state.isAutoRegistered, !state.isRouted else { return nil }
            let result = body(&state, self)
            if !state.dropped.isEmpty { dropped = state.dropped.take() }
            return result
        }
        withExtendedLifetime(dropped) {}
        if let result { return result }
        return withStateAfterAutoRegistration(of: container, body)
    }

    func withStateAfterAutoRegistration<Result>(
        of container: any ManagedContainer, _ body: (inout ManagerState, ContainerManager) -> Result
    ) -> Result {
        let chain = ResolutionChain.current
        // A run this thread may not wait for: waiting would close a cycle through other threads'
        // `autoRegister()` runs (two containers registering on each other, first touched from
        // two threads at once). Used sequentially, the inner container would see the outer one
        // half-registered; so does this thread.
        var notAwaited: InFlight?
        while true {
            let step = withRoutedState { state, owner -> AutoRegistrationStep<Result> in
                switch state.autoRegistration {
                case .done:
                    return .ready(body(&state, owner))
                case .running(let flight):
                    // The thread running autoRegister() uses the container freely.
                    return flight.owner === chain || flight === notAwaited ? .ready(body(&state, owner)) : .wait(flight)
                case .pending:
                    guard let registering = container as? AutoRegistering else {
                        state.autoRegistration = .done
                        return .ready(body(&state, owner))
                    }
                    let flight = InFlight(
                        owner: chain, frameIndex: nil, label: "\(type(of: container)).autoRegister()")
                    state.autoRegistration = .running(flight)
                    return .run(flight, registering)
                }
            }
            switch step {
            case .ready(let result):
                return result
            case .run(let flight, let registering):
                registering.autoRegister()
                withState { state in
                    if case .running(let current) = state.autoRegistration, current === flight {
                        state.autoRegistration = .done
                    }
                }
                flight.finish(())
            case .wait(let flight):
                if !flight.waitUnlessCycle(from: chain) { notAwaited = flight }
            }
        }
    }
}

enum AutoRegistrationStep<Result> {
    case ready(Result)
    case run(InFlight, any AutoRegistering)
    case wait(InFlight)
}
