/// What one `withContainer(_:_:)` modifier asks for, kept in its state so that there is one per
/// modifier identity.
///
/// For `Container`'s factories it is a ``SubtreeRegistration``: the views below get a child
/// container. FactoryKit cannot make an instance of another container type, so for those it is a
/// ``FactoryViewRegistration``, applied to the container the views below resolve from and undone
/// when the modifier leaves.
@MainActor
package final class ViewRegistrationRequest {
    private enum Kind {
        case subtree(SubtreeRegistration, SubtreeContainerCache)
        case onContainer(any ViewRegistration)
    }
    private let kind: Kind

    /// The request for a registration of `factory` for the factory at `keyPath`.
    package init<C: SharedContainer, T>(_ keyPath: KeyPath<C, Factory<T>>, factory: @escaping VoidFactoryType<T>) {
        if let keyPath = keyPath as? KeyPath<Container, Factory<T>> {
            kind = .subtree(SubtreeRegistration(keyPath, factory: factory), SubtreeContainerCache())
        } else {
            kind = .onContainer(FactoryViewRegistration(keyPath, factory: factory))
        }
    }

    /// What the views below the modifier resolve from, given what the modifier's view does.
    package func containers(below containers: ViewContainers) -> ViewContainers {
        switch kind {
        case .subtree(let registration, let cache): containers.registering(registration, cache: cache)
        case .onContainer(let registration): containers.adding(registration)
        }
    }
}
