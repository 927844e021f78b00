/// A registration that `withContainer(_:_:)` asks for, for the views below the modifier and
/// nothing else: it is applied to a child those views resolve from, never to the container they
/// would use otherwise.
///
/// - For `Container`'s factories the child is a new `Container`, which the views below resolve
///   from, and which is bound as `Container.shared` while their objects are created.
/// - FactoryKit cannot make an instance of a custom container type, so for another type `C` the
///   child is a `ContainerManager`: the views below still reach the `C` they would reach
///   otherwise, and while their objects are created (and inside `SceneContainer`'s
///   `$container { }`), that container's manager is routed to the child (`ManagerRoutes`).
package final class SubtreeRegistration: @unchecked Sendable {
    /// Registers the factory on a container of the registration's type (through a route, for a
    /// custom container type). It captures a `VoidFactoryType`, not `@Sendable` by design, like
    /// every registered closure; it is only handed to a container, on the main actor.
    let apply: (any SharedContainer) -> Void
    /// The container of the registration's type that views below the given containers reach.
    let reach: (ViewContainers) -> any SharedContainer
    /// The identifier of the container type, `C`.
    let containerType: ObjectIdentifier

    /// A registration of `factory` for the factory at `keyPath`.
    package init<C: SharedContainer, T>(_ keyPath: KeyPath<C, Factory<T>>, factory: @escaping VoidFactoryType<T>) {
        // Only ever given the container `reach` returned, which is a `C`.
        apply = { container in (container as! C)[keyPath: keyPath].register(factory: factory) }
        reach = { containers in containers.container(C.self) }
        containerType = ObjectIdentifier(C.self)
    }
}

/// Makes, and keeps for as long as the modifier that owns it, the children a part of a view
/// hierarchy resolves from: new containers (for `Container`) or managers (for custom container
/// types) that read through to their parent for whatever they do not set themselves
/// (``ContainerManager/init(parent:)``), with the subtree's registrations applied, and keep their
/// scoped values of their own from the start.
///
/// It keeps one child per parent: a modifier's `@State` may be shared by identities that render
/// the same view value (the windows of a `WindowGroup`), each below its own parent.
@MainActor
package final class SubtreeContainerCache {
    private struct Kept {
        weak var parent: AnyObject?
        let registrations: [ObjectIdentifier]
        let child: AnyObject
    }
    private var children: [ObjectIdentifier: Kept] = [:]

    /// An empty cache; children are made on first use.
    package init() {}

    /// The child of `parent` with `registrations` applied in order (the last wins for the same
    /// factory): the same child while `parent` and `registrations` stay the same.
    package func child(of parent: Container, applying registrations: [SubtreeRegistration]) -> Container {
        cached(parent, registrations) {
            let child = Container(childOf: parent)
            for registration in registrations { registration.apply(child) }
            return child
        }
    }

    /// The child of `parent`, the manager that views reaching `container` use now, with
    /// `registrations` applied to it through a route from `container`'s own manager.
    func child(
        of parent: ContainerManager, reachedThrough container: any SharedContainer,
        applying registrations: [SubtreeRegistration]
    ) -> ContainerManager {
        cached(parent, registrations) {
            let child = ContainerManager(parent: parent)
            let original = container.manager
            let route = ManagerRoutes.Route(original: original, target: child)
            ManagerRoutes.withRoutes([ObjectIdentifier(original): route]) {
                for registration in registrations { registration.apply(container) }
            }
            return child
        }
    }

    private func cached<Child: AnyObject>(
        _ parent: AnyObject, _ registrations: [SubtreeRegistration], make: () -> Child
    ) -> Child {
        let ids = registrations.map(ObjectIdentifier.init)
        let key = ObjectIdentifier(parent)
        if let kept = children[key], kept.parent === parent, kept.registrations == ids,
            let child = kept.child as? Child
        {
            return child
        }
        children = children.filter { $0.value.parent != nil }
        let child = make()
        children[key] = Kept(parent: parent, registrations: ids, child: child)
        return child
    }
}

extension ViewContainers {
    /// These containers with `registration` asked for as well: views here resolve from a child,
    /// made by `cache`, of what they resolved from, with the registration applied.
    @MainActor
    package func registering(_ registration: SubtreeRegistration, cache: SubtreeContainerCache) -> ViewContainers {
        let container = registration.reach(self)
        var copy = withChild(of: container, parent: manager(of: container), applying: [registration], cache: cache)
        copy.subtreeRegistrations[registration.containerType, default: []].append(registration)
        return copy
    }

    /// These containers with `container` installed as the scene container of type `C`. Below
    /// `withContainer(_:_:)` registrations for `C`, the views get a child of it, made by `cache`,
    /// with those registrations applied, so they still reach the views below it.
    @MainActor
    package func installing<C: SharedContainer>(_ container: C, cache: SubtreeContainerCache) -> ViewContainers {
        guard let registrations = subtreeRegistrations[ObjectIdentifier(C.self)], !registrations.isEmpty else {
            return installing(container)
        }
        return installing(container).withChild(
            of: container, parent: container.manager, applying: registrations, cache: cache)
    }

    /// These containers with the views' child of `container`, made by `cache` with
    /// `registrations` applied: for a `Container`, a new one installed in its place; for a custom
    /// container, a child of `parent` that its manager is routed to.
    @MainActor
    private func withChild(
        of container: any SharedContainer, parent: ContainerManager, applying registrations: [SubtreeRegistration],
        cache: SubtreeContainerCache
    ) -> ViewContainers {
        if let container = container as? Container {
            return installing(cache.child(of: container, applying: registrations))
        }
        var copy = self
        let original = container.manager
        let child = cache.child(of: parent, reachedThrough: container, applying: registrations)
        copy.routes[ObjectIdentifier(original)] = ManagerRoutes.Route(original: original, target: child)
        return copy
    }

    /// The manager that answers for `container` here: a subtree's child, else its own.
    func manager(of container: any SharedContainer) -> ContainerManager {
        routes[ObjectIdentifier(container.manager)]?.target ?? container.manager
    }
}
