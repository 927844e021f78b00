/// What a subtree's child manager reads through to its parent (see `ContainerManager.parent`):
/// the options of one factory the child has not set itself, and the parent's container-wide
/// settings.
struct InheritedOptions {
    var registration: AnyObject?
    var registrationSerial: UInt64 = 0
    var contexts: ContextOverrides?
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
                registration: record?.registration, registrationSerial: record?.registrationSerial ?? 0,
                contexts: record?.contexts, decorator: record?.decorator,
                scope: record?.scope, defaultScope: state.defaultScope, containerDecorator: state.decorator)
        }
        guard let parent else { return own }
        let further = parent.inheritedOptions(for: key)
        return InheritedOptions(
            registration: own.registration ?? further.registration,
            registrationSerial: own.registration == nil ? further.registrationSerial : own.registrationSerial,
            contexts: own.contexts ?? further.contexts,
            decorator: own.decorator ?? further.decorator, scope: own.scope ?? further.scope,
            defaultScope: own.defaultScope ?? further.defaultScope,
            containerDecorator: own.containerDecorator ?? further.containerDecorator)
    }
}
