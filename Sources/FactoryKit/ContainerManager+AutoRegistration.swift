extension ContainerManager {
    /// Runs `body` on this manager's state, first running the container's `autoRegister()` if it
    /// has not run yet.
    ///
    /// `autoRegister()` runs once per container instance, on the first thread that touches the
    /// manager, with no lock held: it may register and resolve on the same container. Other
    /// threads that arrive meanwhile wait for it to finish, so nobody sees a half-registered
    /// container.
    @usableFromInline
    func withState<Result>(of container: any ManagedContainer, _ body: (inout ManagerState) -> Result) -> Result {
        // One trip through the lock once `autoRegister()` has run.
        let first = withState { state -> Result? in
            guard state.isAutoRegistered else { return nil }
            return body(&state)
        }
        if let first { return first }
        return withStateAfterAutoRegistration(of: container, body)
    }

    func withStateAfterAutoRegistration<Result>(
        of container: any ManagedContainer, _ body: (inout ManagerState) -> Result
    ) -> Result {
        let chain = ResolutionChain.current
        while true {
            let step = withState { state -> AutoRegistrationStep<Result> in
                switch state.autoRegistration {
                case .done:
                    return .ready(body(&state))
                case .running(let flight):
                    // The thread running autoRegister() uses the container freely.
                    return flight.owner === chain ? .ready(body(&state)) : .wait(flight)
                case .pending:
                    guard let registering = AutoRegisteringTypes.cast(container) else {
                        state.autoRegistration = .done
                        return .ready(body(&state))
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
                _ = flight.wait(from: chain)
            }
        }
    }
}

enum AutoRegistrationStep<Result> {
    case ready(Result)
    case run(InFlight, any AutoRegistering)
    case wait(InFlight)
}

/// Whether a container auto-registers, remembering the container types that do not.
///
/// Every new container asks once. Answering with a dynamic cast costs a container type that does
/// not conform about 1,500 instructions on Linux (the runtime also tries to unbox it from a
/// Foundation value), more than the rest of making the container. A type's conformances do not
/// change, so eight process-wide words remember the types seen not to conform; each word holds a
/// type's metadata address, which lives as long as the process, and a stale or overwritten word
/// only costs the cast again.
enum AutoRegisteringTypes {
    static func cast(_ container: any ManagedContainer) -> (any AutoRegistering)? {
        let type = UInt(bitPattern: ObjectIdentifier(type(of: container)))
        let word = ProcessWords.plainContainerTypes + (MachineWord.mixedIndex(type, bits: 3) & 7)
        if word.loadRelaxed() == type { return nil }
        guard let registering = container as? AutoRegistering else {
            word.storeRelaxed(type)
            return nil
        }
        return registering
    }
}
