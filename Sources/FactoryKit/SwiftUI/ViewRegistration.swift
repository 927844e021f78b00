/// A registration that a SwiftUI view hierarchy asks for with `withContainer(_:_:)`, applied to
/// the containers its views resolve from and undone when it is released.
package protocol ViewRegistration: AnyObject, Sendable {
    /// Applies the registration to the container that views below `containers` resolve from,
    /// unless it is applied there already. Views apply registrations on the main actor, which
    /// keeps two applications from racing.
    @MainActor func apply(in containers: ViewContainers)
}

/// Registers `factory` for one factory key path, in each container a view below it resolves
/// from, the first time such a view creates its object.
///
/// It remembers what each registration replaced. When ``undo()`` runs, or the value is released
/// (the view that asked for it leaves the hierarchy), each container gets its previous
/// registration back, unless something registered or reset the factory since: the later change
/// wins.
package final class FactoryViewRegistration<C: SharedContainer, T>: ViewRegistration, @unchecked Sendable {
    // `factory` is a `VoidFactoryType`, not `@Sendable` by design, like every registered closure;
    // it is only handed to the container. `applied` is guarded by its lock.
    private let keyPath: KeyPath<C, Factory<T>>
    private let factory: VoidFactoryType<T>
    private let applied = Locked<[Application]>([])

    private struct Application {
        let container: C
        let box: AnyObject
        let replaced: ReplacedRegistration
    }

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
        let isApplied = applied.withLock { applications in
            applications.contains { $0.container === container }
        }
        if isApplied { return }
        let factory = container[keyPath: keyPath]
        let build = self.factory
        let box = ClosureBox<Void, T> { _, _ in build() }
        // Applications run on the main actor, one at a time; the lock guards against `undo()`,
        // which runs wherever the registration is released.
        guard let replaced = factory.registration.registerReplacing(box, validator: SyncValidator<T>.self) else {
            return
        }
        applied.withLock { $0.append(Application(container: container, box: box, replaced: replaced)) }
    }

    /// Gives every container the registration it had before this one, where this one is still
    /// in place.
    package func undo() {
        let applications = applied.withLock { applications in
            defer { applications.removeAll() }
            return applications
        }
        for application in applications.reversed() {
            application.container[keyPath: keyPath].registration
                .restoreRegistration(application.replaced, ifCurrent: application.box)
        }
    }
}
