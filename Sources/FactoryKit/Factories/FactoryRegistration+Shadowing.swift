extension FactoryIdentity {
    /// Says, once per factory and container, that a context override hides the factory's
    /// registration: Factory's rule, which FactoryKit keeps, is that the override wins, and a mock
    /// registered in a test was otherwise ignored without a word.
    ///
    /// Said only when the override was not written after the registration it hides. An override
    /// notes the registration in force when it is written (`ContextOverrides.Entry`); if that is
    /// still the registration now, whoever wrote the override (a test checking that the context
    /// wins, as Factory documents) wrote it last, on purpose, and nothing is said. Otherwise (the
    /// definition's own override, re-applied on every access, or an override written before the
    /// registration) the registration the writer meant to use is lost, and:
    /// - the log says so, in every build and outside tests too;
    /// - in a test run through FactoryTesting, the test gets a warning at the definition, which
    ///   does not fail it (Factory's tests of precedence pass unchanged), or an error in a strict
    ///   test (`.container(.strict)`, `ContainerTestCase.isStrict`).
    ///
    /// Known limit: an override the definition writes anew after the registration, as it does on
    /// the first access after `reset(options: .context)`, counts as written after it.
    @usableFromInline
    func warnRegistrationShadowed(by override: AnyObject, in contexts: ContextOverrides, factory: String) {
        let isFirst = container.manager.withState(of: container) { state, manager -> Bool in
            // The registration and the overrides in force, with the records they are from (a
            // subtree's child reads through to its ancestors'): an override notes the serial of
            // its own record's registration, so only the same record's serial can match it.
            let own = state.existingRecord(for: key)
            let inherited = manager.parent?.inheritedOptions(for: key)
            let registration = own?.registrationSource ?? inherited?.registrationSource
            let contextsRecord = own?.contextsSource ?? inherited?.contextsRecord
            if let registration, registration.record == contextsRecord,
                contexts.wasWritten(override, after: registration.serial)
            {
                return false
            }
            return state.shadowedRegistrationsWarned.insert(key).inserted
        }
        guard isFirst else { return }
        let modifier = contexts.entries.first { $0.box === override }.map { $0.key.modifierName } ?? "context"
        let message =
            "\(factory) has a registration, but its \(modifier) override applies here and wins, "
            + "so the registration is not used. To replace the factory in this context, register for the "
            + "context (`\(type(of: container)).shared.\(key.name.string)\(modifier) { ... }`) and end the "
            + "definition with .once(), so that it does not put its own override back."
        Diagnostics.log("FactoryKit: " + message)
        // A mock that is not used: a warning in the test that registered it, at the definition.
        _ = TestSupport.warnInTest(message, site: site)
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
