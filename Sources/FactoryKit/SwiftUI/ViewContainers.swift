/// What a part of a SwiftUI view hierarchy resolves from: the scene containers installed above it
/// and the registrations `withContainer(_:_:)` asked for. SwiftUI carries it in the environment;
/// every decision it makes is here, free of SwiftUI, so it is built and tested on every platform.
///
/// - A view resolves a factory of container type `C` from the scene container of type `C`
///   installed nearest above it, else from `C.shared`.
/// - A `withContainer(_:_:)` registration gives the views below it a child of what they would
///   resolve from, with the registration applied (see `SubtreeContainer.swift`): a new
///   `Container`, or, for a custom container type, a manager that the container's own is routed
///   to while the views' objects are created. Nothing outside that part of the hierarchy sees it,
///   and nothing needs undoing.
/// - While a view's object is created, a scene or child `Container` is bound as
///   `Container.shared`, so `@Injected` and `dependency(_:)` inside the object's initializer see
///   the same container.
package struct ViewContainers: Sendable {
    /// Scene containers by their type.
    private var scene: [ObjectIdentifier: any SharedContainer] = [:]
    /// The registrations asked for above this point, by container type, outermost first; the
    /// views here resolve from children that have them.
    package internal(set) var subtreeRegistrations: [ObjectIdentifier: [SubtreeRegistration]] = [:]
    /// Custom containers' managers routed to subtrees' children, by the original's identity.
    var routes: [ObjectIdentifier: ManagerRoutes.Route] = [:]

    /// Nothing installed: every factory resolves from its container type's `shared`.
    package init() {}

    /// The container a view here resolves `C`'s factories from: the scene container of type `C`
    /// installed nearest above it, else `C.shared`.
    package func container<C: SharedContainer>(_ type: C.Type = C.self) -> C {
        guard let installed = scene[ObjectIdentifier(C.self)] else { return C.shared }
        // Stored under its own type's identifier, so the cast cannot fail.
        return installed as! C
    }

    /// Whether a scene container of type `C` is installed.
    package func hasSceneContainer<C: SharedContainer>(_ type: C.Type) -> Bool {
        scene[ObjectIdentifier(C.self)] != nil
    }

    /// These containers with `container` installed as the scene container of type `C`,
    /// replacing one installed above.
    package func installing<C: SharedContainer>(_ container: C) -> ViewContainers {
        var copy = self
        copy.scene[ObjectIdentifier(C.self)] = container
        return copy
    }

    /// Resolves `keyPath` as a view here would: see ``object(from:)``.
    @MainActor
    package func resolve<C: SharedContainer, T>(_ keyPath: KeyPath<C, Factory<T>>) -> T {
        object(from: .factory(keyPath))
    }

    /// Builds a view's object with `build`, with a scene or child `Container` bound as
    /// `Container.shared` and the routes of custom containers' subtree registrations bound.
    @MainActor
    package func make<T>(_ build: () throws -> T) rethrows -> T {
        guard hasSceneContainer(Container.self) else { return try ManagerRoutes.withRoutes(routes, build) }
        return try Container.$shared.withValue(container(Container.self)) {
            try ManagerRoutes.withRoutes(routes, build)
        }
    }

    /// Runs `body` with the container of type `C` views here reach, as their objects are
    /// created: see `SceneContainer`'s `projectedValue`.
    @MainActor
    package func resolving<C: SharedContainer, R>(_ type: C.Type, _ body: (C) throws -> R) rethrows -> R {
        try make { try body(container(C.self)) }
    }
}
