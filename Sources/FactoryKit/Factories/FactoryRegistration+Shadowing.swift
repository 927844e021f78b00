extension FactoryIdentity {
    /// Logs, once per factory and container, that a context override of the definition hides the
    /// factory's registration: Factory's rule, which FactoryKit keeps, is that the override wins,
    /// and a mock registered in a test was otherwise ignored without a word.
    @usableFromInline
    func warnRegistrationShadowed(by override: AnyObject, in contexts: ContextOverrides, factory: String) {
        let isFirst = container.manager.withState(of: container) { state in
            state.shadowedRegistrationsWarned.insert(key).inserted
        }
        guard isFirst else { return }
        let modifier = contexts.entries.first { $0.box === override }.map { $0.key.modifierName } ?? "context"
        let message =
            "\(factory) has a registration, but its \(modifier) override applies here and wins, "
            + "so the registration is not used. To replace the factory in this context, register for the "
            + "context (`\(type(of: container)).shared.\(key.name.string)\(modifier) { ... }`) and end the "
            + "definition with .once(), so that it does not put its own override back."
        Diagnostics.log("FactoryKit: " + message)
        // A mock that is not used fails the test that registered it: say why, in that test.
        _ = TestSupport.recordInTest(message, site: site)
    }
}

extension ContextKey {
    /// The modifier that stores an override under this key, as users write it.
    var modifierName: String {
        switch self {
        case .arg(let argument): return ".onArg(\"\(argument)\")"
        case .preview: return ".onPreview"
        case .test: return ".onTest"
        case .debug: return ".onDebug"
        case .simulator: return ".onSimulator"
        case .device: return ".onDevice"
        }
    }
}
