#if canImport(SwiftUI)
    import SwiftUI

    /// Gives a SwiftUI view the container it resolves from: the scene container of type `C`
    /// installed above it with `withContainer(_:)`, else `C.shared`.
    ///
    /// ```swift
    /// struct SettingsView: View {
    ///     @SceneContainer var container                        // Container
    ///     @SceneContainer(FeatureContainer.self) var features  // a custom container
    ///
    ///     var body: some View {
    ///         Text(container.greeting())
    ///     }
    /// }
    /// ```
    ///
    /// Read it to resolve a factory with parameters, or to hand the scene's container to code
    /// outside the view hierarchy. Reading it applies the registrations asked for above the view
    /// with `withContainer(_:_:)` first, as `InjectedObject` and `InjectedObservable` do.
    @MainActor @propertyWrapper
    public struct SceneContainer<C: SharedContainer>: DynamicProperty {
        @Environment(\.factoryViewContainers) private var containers

        /// The `Container` views here resolve from.
        public init() where C == Container {}

        /// The container of type `C` views here resolve from.
        public init(_ type: C.Type) {}

        /// The scene container of type `C` installed above the view, else `C.shared`.
        public var wrappedValue: C {
            containers.applyRegistrations()
            return containers.container(C.self)
        }
    }
#endif
