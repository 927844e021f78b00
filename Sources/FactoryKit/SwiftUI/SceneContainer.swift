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
    /// outside the view hierarchy.
    ///
    /// Below `withContainer(\FeatureContainer.api) { MockAPI() }`, the container of a custom
    /// type is the one views would reach anyway, and the registration lives in a child that
    /// answers for it only while the views' objects are created. To resolve from that child in
    /// `body`, use the projected value: `$features { $0.api() }`. For `Container`, the wrapped
    /// value is the child itself.
    @MainActor @propertyWrapper
    public struct SceneContainer<C: SharedContainer>: DynamicProperty {
        @Environment(\.factoryViewContainers) private var containers

        /// The `Container` views here resolve from.
        public init() where C == Container {}

        /// The container of type `C` views here resolve from.
        public init(_ type: C.Type) {}

        /// The scene container of type `C` installed above the view, else `C.shared`; for
        /// `Container` below `withContainer(_:_:)`, the subtree's child.
        public var wrappedValue: C {
            containers.container(C.self)
        }

        /// Resolves from the container as the view's objects are created: `$features { $0.api() }`.
        public var projectedValue: Resolver {
            Resolver(containers: containers)
        }

        /// Runs code with a view's container as its objects are created: the subtree's
        /// `withContainer(_:_:)` registrations apply, and a scene or child `Container` is bound as
        /// `Container.shared`.
        @MainActor
        public struct Resolver {
            let containers: ViewContainers

            /// Runs `body` with the container, its subtree's registrations in force, and returns
            /// what `body` returns.
            public func callAsFunction<R>(_ body: (C) throws -> R) rethrows -> R {
                try containers.resolving(C.self, body)
            }
        }
    }
#endif
