#if canImport(SwiftUI)
    import Observation
    import SwiftUI

    /// Resolves an `@Observable` object for a SwiftUI view and keeps it for as long as the view
    /// exists, as `@State` would.
    ///
    /// ```swift
    /// struct ContentView: View {
    ///     @InjectedObservable(\.contentViewModel) var viewModel
    ///
    ///     var body: some View {
    ///         Text(viewModel.text)
    ///     }
    /// }
    /// ```
    ///
    /// The object is resolved on the main actor the first time the view reads it, once per view
    /// identity, from the scene container installed above the view with `withContainer(_:)`,
    /// else from `Container.shared` (or the custom container's `shared`). Registrations asked for
    /// above the view with `withContainer(_:_:)` are applied first. The view updates when the
    /// properties it reads change, through Observation.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @MainActor @propertyWrapper
    public struct InjectedObservable<T>: DynamicProperty where T: Observation.Observable {
        @Environment(\.factoryViewContainers) private var containers
        @State private var holder = ViewObjectHolder<T>()
        private let source: ViewObjectSource<T>

        /// Resolves the factory at `keyPath` of `Container`.
        public init(_ keyPath: KeyPath<Container, Factory<T>>) {
            source = .factory(keyPath)
        }

        /// Resolves the factory at `keyPath` of a custom container.
        public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
            source = .factory(keyPath)
        }

        /// Builds the object with `wrappedValue` the first time the view reads it, without a
        /// factory: `@InjectedObservable var model = ContentViewModel()`.
        public init(_ wrappedValue: @autoclosure @escaping () -> T) {
            source = .building(wrappedValue)
        }

        /// The object; resolved the first time it is read.
        public var wrappedValue: T {
            holder.object { containers.object(from: source) }
        }

        /// A binding to the object. Writing to the binding itself is ignored; bindings to the
        /// object's properties (`$viewModel.text`) write to the object.
        public var projectedValue: Binding<T> {
            .constant(wrappedValue)
        }
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    extension InjectedObservable: @unchecked Sendable where T: Sendable {}
#endif
