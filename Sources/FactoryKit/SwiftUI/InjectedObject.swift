#if canImport(SwiftUI)
    import Combine
    import SwiftUI

    /// Resolves an `ObservableObject` for a SwiftUI view and keeps it for as long as the view
    /// exists, as `@StateObject` would.
    ///
    /// ```swift
    /// struct ProfileView: View {
    ///     @InjectedObject(\.profileViewModel) var viewModel
    ///
    ///     var body: some View {
    ///         Text(viewModel.name)
    ///     }
    /// }
    /// ```
    ///
    /// The object is resolved on the main actor the first time the view reads it, once per view
    /// identity, from the scene container installed above the view with `withContainer(_:)`,
    /// else from `Container.shared` (or the custom container's `shared`). Registrations asked for
    /// above the view with `withContainer(_:_:)` are applied first. The view updates when the
    /// object's `objectWillChange` publishes.
    @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
    @MainActor @propertyWrapper
    public struct InjectedObject<T>: DynamicProperty where T: ObservableObject {
        @Environment(\.factoryViewContainers) private var containers
        @StateObject private var holder = ObservableObjectHolder<T>()
        private let source: ViewObjectSource<T>

        /// Resolves the factory at `keyPath` of `Container`.
        public init(_ keyPath: KeyPath<Container, Factory<T>>) {
            source = .factory(keyPath)
        }

        /// Resolves the factory at `keyPath` of a custom container.
        public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
            source = .factory(keyPath)
        }

        /// Keeps `wrappedValue` without resolving anything, for previews and tests. As with
        /// `@StateObject`, the object passed when the view is first created is the one kept.
        public init(_ wrappedValue: T) {
            source = .building { wrappedValue }
        }

        /// The object; resolved the first time it is read.
        public var wrappedValue: T {
            holder.object { containers.object(from: source) }
        }

        /// Bindings to the object's properties: `$viewModel.name`.
        public var projectedValue: ObservedObject<T>.Wrapper {
            ObservedObject(wrappedValue: wrappedValue).projectedValue
        }
    }

    @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
    extension InjectedObject: @unchecked Sendable where T: Sendable {}

    /// Holds an `InjectedObject`'s object in `@StateObject` and republishes the object's
    /// `objectWillChange`, so the view updates as if it observed the object itself.
    final class ObservableObjectHolder<T: ObservableObject>: ViewObjectHolder<T>, ObservableObject {
        let objectWillChange = ObservableObjectPublisher()
        private var forwarding: AnyCancellable?

        override func didCreate(_ object: T) {
            let publisher = objectWillChange
            forwarding = object.objectWillChange.sink { _ in publisher.send() }
        }
    }
#endif
