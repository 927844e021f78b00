/// A registration that a SwiftUI view hierarchy asks for with `withContainer(_:_:)`, applied to
/// the containers its views resolve from and undone when it is released.
package protocol ViewRegistration: AnyObject, Sendable {
    /// Applies the registration to the container that views below `containers` resolve from,
    /// unless it is applied there already. Views apply registrations on the main actor, which
    /// keeps two applications from racing.
    @MainActor func apply(in containers: ViewContainers)
}

/// Registers `factory` for one factory key path, in each container a view below it resolves
/// from, the first time such a view creates its object. `withContainer(_:_:)` uses it for custom
/// container types, of which FactoryKit cannot make a child.
///
/// It remembers what each registration replaced. When ``undo()`` runs, or the value is released
/// (the view that asked for it leaves the hierarchy), each container gets back what was there
/// before, in whatever order registrations of the same factory are released: they form a chain
/// per container and factory (``ViewRegistrationChains``), and one released under a later one
/// hands what it replaced to that one. Something registered or reset since wins over the undo.
package final class FactoryViewRegistration<C: SharedContainer, T>: ViewRegistration, @unchecked Sendable {
    // `factory` is a `VoidFactoryType`, not `@Sendable` by design, like every registered closure;
    // it is only handed to the container. `applied` is guarded by its lock.
    private let keyPath: KeyPath<C, Factory<T>>
    private let factory: VoidFactoryType<T>
    private let applied = Locked<[ViewRegistrationChains.Link]>([])

    /// A registration of `factory` for the factory at `keyPath`, not yet applied anywhere.
    package init(_ keyPath: KeyPath<C, Factory<T>>, factory: @escaping VoidFactoryType<T>) {
        self.keyPath = keyPath
        self.factory = factory
    }

    deinit {
        undo()
    }

    /// How many containers the registration is applied to now.
    package var appliedCount: Int {
        applied.withLock { $0.count }
    }

    @MainActor
    package func apply(in containers: ViewContainers) {
        let container = containers.container(C.self)
        let isApplied = applied.withLock { links in
            links.contains { $0.container === container }
        }
        if isApplied { return }
        let registration = container[keyPath: keyPath].registration
        let build = self.factory
        let box = ClosureBox<Void, T> { _, _ in build() }
        guard let replaced = registration.registerReplacing(box, validator: SyncValidator<T>.self) else {
            return
        }
        let link = ViewRegistrationChains.Link(
            container: container, factory: keyPath, box: box, replaced: replaced,
            restore: { replaced, box in registration.restoreRegistration(replaced, ifCurrent: box) })
        ViewRegistrationChains.append(link)
        applied.withLock { $0.append(link) }
    }

    /// Gives every container what it should hold without this registration: the registration of
    /// the latest one still in place above the same factory, else what was there before the
    /// first, unless something registered or reset the factory since.
    package func undo() {
        let links = applied.withLock { links in
            defer { links.removeAll() }
            return links
        }
        ViewRegistrationChains.remove(links)
    }
}
