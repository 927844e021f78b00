#if canImport(SwiftUI)
    import SwiftUI

    extension View {
        /// Makes `container` the scene container of its type for this view and everything below
        /// it: their `InjectedObject`, `InjectedObservable` and `SceneContainer` properties
        /// resolve from it instead of `shared`.
        ///
        /// ```swift
        /// WindowGroup {
        ///     SceneRoot()   // holds `@State private var container = Container()`
        /// }
        ///
        /// struct SceneRoot: View {
        ///     @State private var container = Container()
        ///     var body: some View {
        ///         ContentView().withContainer(container)
        ///     }
        /// }
        /// ```
        ///
        /// Keep the container where it lives as long as the scene (`@State` in the scene's root
        /// view, or a property of the app): a container created in `body` would be a new one on
        /// every update. While a view's object is created, a scene `Container` is also bound as
        /// `Container.shared`, so `@Injected` properties the object initializes resolve from it.
        public func withContainer<C: SharedContainer>(_ container: C) -> some View {
            modifier(SceneContainerModifier(container: container))
        }

        /// Registers `factory` for the `Container` factory at `keyPath`, for this view and
        /// everything below it: `ContentView().withContainer(\.service) { MockService() }`.
        ///
        /// The registration reaches the container the views below resolve from: the scene
        /// `Container` installed above them with `withContainer(_:)`, else `Container.shared`.
        /// It is applied the first time an `InjectedObject` or `InjectedObservable` below creates
        /// its object (before resolving it) or a `SceneContainer` below is read, and undone when
        /// this view leaves the hierarchy (a registration made since wins over the undo).
        public func withContainer<T>(
            _ keyPath: KeyPath<Container, Factory<T>>, _ factory: @escaping VoidFactoryType<T>
        ) -> some View {
            modifier(ViewRegistrationModifier(keyPath, factory: factory))
        }

        /// Registers `factory` for the factory at `keyPath` of a custom container, for this view
        /// and everything below it: `.withContainer(\FeatureContainer.api) { MockAPI() }`. It
        /// reaches the scene container of type `C` installed above the views, else `C.shared`, at
        /// the moments the `Container` form describes.
        public func withContainer<C: SharedContainer, T>(
            _ keyPath: KeyPath<C, Factory<T>>, _ factory: @escaping VoidFactoryType<T>
        ) -> some View {
            modifier(ViewRegistrationModifier(keyPath, factory: factory))
        }
    }

    extension EnvironmentValues {
        /// The scene containers and registrations of this part of the view hierarchy.
        var factoryViewContainers: ViewContainers {
            get { self[ViewContainersKey.self] }
            set { self[ViewContainersKey.self] = newValue }
        }
    }

    private struct ViewContainersKey: EnvironmentKey {
        static let defaultValue = ViewContainers()
    }

    /// Installs a scene container; see `View.withContainer(_:)`.
    private struct SceneContainerModifier<C: SharedContainer>: ViewModifier {
        let container: C
        @Environment(\.factoryViewContainers) private var containers

        func body(content: Content) -> some View {
            content.environment(\.factoryViewContainers, containers.installing(container))
        }
    }

    /// Asks for a registration; see `View.withContainer(_:_:)`. The registration is kept in
    /// `@State`, so there is one per view identity, undone when SwiftUI releases it.
    private struct ViewRegistrationModifier<C: SharedContainer, T>: ViewModifier {
        @Environment(\.factoryViewContainers) private var containers
        @State private var registration: FactoryViewRegistration<C, T>

        init(_ keyPath: KeyPath<C, Factory<T>>, factory: @escaping VoidFactoryType<T>) {
            _registration = State(wrappedValue: FactoryViewRegistration(keyPath, factory: factory))
        }

        func body(content: Content) -> some View {
            content.environment(\.factoryViewContainers, containers.adding(registration))
        }
    }
#endif
