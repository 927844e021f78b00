/// What a part of a SwiftUI view hierarchy resolves from: the scene containers installed above it
/// and the registrations `withContainer(_:_:)` asked for. SwiftUI carries it in the environment;
/// every decision it makes is here, free of SwiftUI, so it is built and tested on every platform.
///
/// - A view resolves a factory of container type `C` from the scene container of type `C`
///   installed nearest above it, else from `C.shared`.
/// - A `withContainer(_:_:)` registration for `Container` gives the views below it a child
///   container: a copy of the `Container` they would resolve from, with the registration applied.
///   Nothing outside that part of the hierarchy sees it, and nothing needs undoing.
/// - For other container types, before a view wrapper creates its object, and when a view reads
///   its `SceneContainer`, each registration asked for above it is applied, once, to the
///   container of its key path's root type that this view resolves from.
/// - While the object is created, a scene `Container` is bound as `Container.shared`, so
///   `@Injected` and `dependency(_:)` inside the object's initializer see the same container.
package struct ViewContainers: Sendable {
    /// Scene containers by their type.
    private var scene: [ObjectIdentifier: any SharedContainer] = [:]
    /// Registrations asked for above this point on containers they resolve from (custom
    /// container types), outermost first.
    package private(set) var registrations: [any ViewRegistration] = []
    /// `Container` registrations asked for above this point, outermost first; the views here
    /// resolve from a child container that has them (see `SubtreeContainer.swift`).
    package internal(set) var subtreeRegistrations: [SubtreeRegistration] = []

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

    /// These containers with `registration` asked for as well; it is applied after those asked
    /// for above it, so the nearest one wins for the same factory.
    package func adding(_ registration: any ViewRegistration) -> ViewContainers {
        var copy = self
        copy.registrations.append(registration)
        return copy
    }

    /// Applies every registration asked for above this point that is not yet applied to the
    /// container it reaches from here.
    @MainActor
    package func applyRegistrations() {
        for registration in registrations {
            registration.apply(in: self)
        }
    }

    /// Resolves `keyPath` as a view here would: see ``object(from:)``.
    @MainActor
    package func resolve<C: SharedContainer, T>(_ keyPath: KeyPath<C, Factory<T>>) -> T {
        object(from: .factory(keyPath))
    }

    /// Builds a view's object with `build`, after applying the registrations asked for above it
    /// and with a scene `Container` bound as `Container.shared`.
    @MainActor
    package func make<T>(_ build: () -> T) -> T {
        applyRegistrations()
        guard hasSceneContainer(Container.self) else { return build() }
        return Container.$shared.withValue(container(Container.self), operation: build)
    }
}
