/// A registration that `withContainer(_:_:)` asks for on `Container`, for the views below the
/// modifier and nothing else: it is applied to a child container those views resolve from, never
/// to the container they would use otherwise.
package final class SubtreeRegistration: @unchecked Sendable {
    // `register` captures a `VoidFactoryType`, not `@Sendable` by design, like every registered
    // closure; it is only handed to a container, on the main actor.
    private let register: (Container) -> Void

    /// A registration of `factory` for the factory at `keyPath`.
    package init<T>(_ keyPath: KeyPath<Container, Factory<T>>, factory: @escaping VoidFactoryType<T>) {
        register = { container in container[keyPath: keyPath].register(factory: factory) }
    }

    /// Registers the factory on `container`.
    func apply(to container: Container) {
        register(container)
    }
}

/// Makes, and keeps for as long as the modifier that owns it, the child `Container` a part of a
/// view hierarchy resolves from: a new container that starts from everything its parent holds
/// (``ContainerManager/inherit(from:)``) with the subtree's registrations applied on top.
///
/// It keeps one child per parent container: a modifier's `@State` may be shared by identities
/// that render the same view value (the windows of a `WindowGroup`), each below its own parent.
@MainActor
package final class SubtreeContainerCache {
    private struct Child {
        weak var parent: Container?
        let registrations: [ObjectIdentifier]
        let container: Container
    }
    private var children: [ObjectIdentifier: Child] = [:]

    /// An empty cache; children are made on first use.
    package init() {}

    /// The child of `parent` with `registrations` applied in order (the last wins for the same
    /// factory). The same child while `parent` and `registrations` stay the same.
    package func child(of parent: Container, applying registrations: [SubtreeRegistration]) -> Container {
        let ids = registrations.map(ObjectIdentifier.init)
        let key = ObjectIdentifier(parent)
        if let child = children[key], child.parent === parent, child.registrations == ids { return child.container }
        children = children.filter { $0.value.parent != nil }
        let child = Container()
        child.manager.inherit(from: parent.manager)
        for registration in registrations { registration.apply(to: child) }
        children[key] = Child(parent: parent, registrations: ids, container: child)
        return child
    }
}

extension ViewContainers {
    /// These containers with `registration` asked for as well: views here resolve `Container`'s
    /// factories from a child of the `Container` they resolved from, made by `cache`, with the
    /// registration applied.
    @MainActor
    package func registering(_ registration: SubtreeRegistration, cache: SubtreeContainerCache) -> ViewContainers {
        var copy = installing(cache.child(of: container(Container.self), applying: [registration]))
        copy.subtreeRegistrations.append(registration)
        return copy
    }

    /// These containers with `container` installed as the scene container of type `C`. A
    /// `Container` installed below `withContainer(_:_:)` registrations gets a child, made by
    /// `cache`, with those registrations applied, so they still reach the views below it.
    @MainActor
    package func installing<C: SharedContainer>(_ container: C, cache: SubtreeContainerCache) -> ViewContainers {
        guard let scene = container as? Container, !subtreeRegistrations.isEmpty else { return installing(container) }
        return installing(cache.child(of: scene, applying: subtreeRegistrations))
    }
}
