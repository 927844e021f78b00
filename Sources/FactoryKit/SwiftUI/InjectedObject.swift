#if canImport(SwiftUI)
    import Combine
    import Foundation
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
    /// The object is created once per view identity, on the main actor, in ``update()``, which
    /// SwiftUI calls before the view's `body`: the object's initializer runs outside `body`, so
    /// what it reads is not tracked as the view's dependencies. It is resolved from the container
    /// the view reaches: the one `withContainer(_:_:)` gives the views below it, else the scene
    /// container installed above the view with `withContainer(_:)`, else `Container.shared` (or
    /// the custom container's `shared`). The view updates when the object's `objectWillChange`
    /// publishes.
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

        /// Builds the object with `wrappedValue`, without a factory, once per view identity:
        /// `@InjectedObject(ProfileViewModel()) var viewModel`. As with `@StateObject`, the
        /// expression is evaluated only when the view's object is created, not each time the
        /// view is initialized.
        public init(_ wrappedValue: @autoclosure @escaping () -> T) {
            source = .building(wrappedValue)
        }

        /// Builds the object with the property's initial value, without a factory, once per
        /// view identity: `@InjectedObject var viewModel = ProfileViewModel()`.
        public init(wrappedValue: @autoclosure @escaping () -> T) {
            source = .building(wrappedValue)
        }

        /// Creates the object if this view identity has none yet; SwiftUI calls it before `body`.
        nonisolated public mutating func update() {
            // `DynamicProperty.update()` is nonisolated, but SwiftUI calls it on the main thread,
            // where views update. Called anywhere else, it leaves the object to `wrappedValue`,
            // which is main-actor isolated. The copy shares the storage (`holder`) `body` reads.
            guard Thread.isMainThread else { return }
            nonisolated(unsafe) let property = self
            MainActor.assumeIsolated { _ = property.wrappedValue }
        }

        /// The object. SwiftUI has created it in ``update()`` by the time `body` reads it.
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
