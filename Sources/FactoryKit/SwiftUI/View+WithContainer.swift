#if canImport(SwiftUI)
    import SwiftUI

    extension View {
        /// Makes `container` the scene container of its type for this view and everything below
        /// it: their `InjectedObject`, `InjectedObservable` and `SceneContainer` properties
        /// resolve from it instead of `shared`.
        ///
        /// ```swift
        /// struct AccountRoot: View {
        ///     let account: Account   // owns the account's container
        ///     var body: some View {
        ///         ContentView().withContainer(account.container)
        ///     }
        /// }
        /// ```
        ///
        /// Use it for a container something else owns and may replace; the views below follow
        /// the container passed in each update. To give each window (or each identity of a view)
        /// a container of its own, use the closure form, `withContainer { Container() }`: a
        /// `Container()` written in `body` here would be a new container on every update. While
        /// a view's object is created, a scene `Container` is also bound as `Container.shared`,
        /// so `@Injected` properties the object initializes resolve from it.
        public func withContainer<C: SharedContainer>(_ container: C) -> some View {
            modifier(SceneContainerModifier(container: container))
        }

        /// Makes a scene container with `make` once per identity of this view, and makes it the
        /// scene container of its type for this view and everything below it, for as long as
        /// this view exists.
        ///
        /// ```swift
        /// WindowGroup {
        ///     ContentView().withContainer { Container() }
        /// }
        /// ```
        ///
        /// SwiftUI gives each window of a group new storage for its views' state, so each window
        /// gets a container of its own, made when the modifier first updates. Views below resolve
        /// from it as with the form that takes a container.
        @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
        public func withContainer<C: SharedContainer>(_ make: @escaping @MainActor () -> C) -> some View {
            modifier(OwnedSceneContainerModifier(make: make))
        }

        /// Registers `factory` for the `Container` factory at `keyPath`, for this view and
        /// everything below it, and nothing else:
        /// `ContentView().withContainer(\.service) { MockService() }`.
        ///
        /// The views below resolve from a container of their own: a child of the `Container` they
        /// would resolve from otherwise (the scene container installed above them with
        /// `withContainer(_:)`, else `Container.shared`), made when the modifier first updates,
        /// that starts with everything its parent has registered and cached, with `factory`
        /// registered on top, and takes the parent's later registrations of other factories when
        /// the modifier updates and when a view below creates its object. Their `InjectedObject`,
        /// `InjectedObservable` and `SceneContainer` properties use it, and it is bound as
        /// `Container.shared` while their objects are created. Siblings, ancestors and views
        /// elsewhere never see the registration, and when the modifier leaves the hierarchy the
        /// child goes with it: there is nothing to undo. The nearest registration wins for the
        /// same factory.
        public func withContainer<T>(
            _ keyPath: KeyPath<Container, Factory<T>>, _ factory: @escaping VoidFactoryType<T>
        ) -> some View {
            modifier(ViewRegistrationModifier(keyPath, factory: factory))
        }

        /// Registers `factory` for the factory at `keyPath` of a custom container, for this view
        /// and everything below it, and nothing else:
        /// `.withContainer(\FeatureContainer.api) { MockAPI() }`.
        ///
        /// FactoryKit cannot make an instance of a custom container type, so the views below
        /// reach the container they would reach otherwise (the scene container of type `C`
        /// installed above them, else `C.shared`), and the registration lives in a child of that
        /// container's manager, made when the modifier first updates. While the views'
        /// `InjectedObject` and `InjectedObservable` objects are created, and inside
        /// `SceneContainer`'s `$container { }`, the container's manager answers from the child:
        /// the objects and what they resolve see the registration; a resolution from the
        /// container anywhere else, `body` included, does not. When the modifier leaves the
        /// hierarchy the child goes with it: there is nothing to undo.
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

    /// Installs a scene container; see `View.withContainer(_:)`. Below `withContainer(_:_:)`
    /// registrations, its views get a child of the container with them, kept in `@State`.
    private struct SceneContainerModifier<C: SharedContainer>: ViewModifier {
        let container: C
        @Environment(\.factoryViewContainers) private var containers
        @State private var children = SubtreeContainerCache()

        func body(content: Content) -> some View {
            content.environment(\.factoryViewContainers, containers.installing(container, cache: children))
        }
    }

    /// Makes and installs a scene container; see `View.withContainer(_:)`. The container lives in
    /// `@StateObject` storage, made once per view identity (see `ViewObjectBox`).
    @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
    private struct OwnedSceneContainerModifier<C: SharedContainer>: ViewModifier {
        let make: @MainActor () -> C
        @Environment(\.factoryViewContainers) private var containers
        @StateObject private var owned = ViewObjectBox<C>()
        @State private var children = SubtreeContainerCache()

        func body(content: Content) -> some View {
            let container = owned.object(orCreate: make)
            return content.environment(\.factoryViewContainers, containers.installing(container, cache: children))
        }
    }

    /// Asks for a registration; see `View.withContainer(_:_:)`. The registration, and the child
    /// it makes, are kept in `@State`, so there is one per view identity, released when the view
    /// leaves.
    private struct ViewRegistrationModifier<C: SharedContainer, T>: ViewModifier {
        @Environment(\.factoryViewContainers) private var containers
        @State private var registration: SubtreeRegistration
        @State private var children = SubtreeContainerCache()

        init(_ keyPath: KeyPath<C, Factory<T>>, factory: @escaping VoidFactoryType<T>) {
            _registration = State(wrappedValue: SubtreeRegistration(keyPath, factory: factory))
        }

        func body(content: Content) -> some View {
            content.environment(\.factoryViewContainers, containers.registering(registration, cache: children))
        }
    }
#endif
