/// What a subtree's child manager reads through to its parent (see `ContainerManager.parent`):
/// the options of one factory the child has not set itself, and the parent's container-wide
/// settings.
struct InheritedOptions {
    var registration: AnyObject?
    /// The record `registration` is from, and its serial there (see `warnRegistrationShadowed`).
    var registrationSource: (record: ObjectIdentifier, serial: UInt64)?
    var contexts: ContextOverrides?
    /// The record `contexts` are from.
    var contextsRecord: ObjectIdentifier?
    var decorator: AnyObject?
    var scope: Scope?
    var defaultScope: Scope?
    var containerDecorator: ((Any) -> Void)?
}

extension ContainerManager {
    /// What this manager and its ancestors hold for the factory `key`, the nearest first; for a
    /// child's resolution, which holds the child's lock. Each ancestor's lock is taken in turn,
    /// inside its descendant's, never the other way round (a manager never takes a descendant's
    /// lock), and only to read: no user code runs, and nothing is released, under them.
    func inheritedOptions(for key: FactoryKey) -> InheritedOptions {
        let own = withOwnState { state in
            let record = state.existingRecord(for: key)
            return InheritedOptions(
                registration: record?.registration, registrationSource: record?.registrationSource,
                contexts: record?.contexts, contextsRecord: record?.contextsSource,
                decorator: record?.decorator,
                scope: record?.scope, defaultScope: state.defaultScope, containerDecorator: state.decorator)
        }
        guard let parent else { return own }
        let further = parent.inheritedOptions(for: key)
        return InheritedOptions(
            registration: own.registration ?? further.registration,
            registrationSource: own.registrationSource ?? further.registrationSource,
            contexts: own.contexts ?? further.contexts, contextsRecord: own.contextsRecord ?? further.contextsRecord,
            decorator: own.decorator ?? further.decorator, scope: own.scope ?? further.scope,
            defaultScope: own.defaultScope ?? further.defaultScope,
            containerDecorator: own.containerDecorator ?? further.containerDecorator)
    }
}

extension FactoryRecord {
    /// This record and the serial of its registration, if it has one.
    var registrationSource: (record: ObjectIdentifier, serial: UInt64)? {
        registration == nil ? nil : (ObjectIdentifier(self), registrationSerial)
    }

    /// This record, if it holds context overrides.
    var contextsSource: ObjectIdentifier? { contexts == nil ? nil : ObjectIdentifier(self) }
}
