#if canImport(SwiftUI)
    import Combine
    import Foundation
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
    /// The object is created once per view identity, on the main actor, in ``update()``, which
    /// SwiftUI calls before the view's `body`: the object's initializer runs outside `body`, so
    /// the observable properties it reads do not become the view's dependencies. It is resolved
    /// from the container the view reaches: the one `withContainer(_:_:)` gives the views below
    /// it, else the scene container installed above the view with `withContainer(_:)`, else
    /// `Container.shared` (or the custom container's `shared`). The view updates when the
    /// properties its `body` reads change, through Observation.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @MainActor @propertyWrapper
    public struct InjectedObservable<T>: DynamicProperty where T: Observation.Observable {
        @Environment(\.factoryViewContainers) private var containers
        @StateObject private var holder = ViewObjectBox<T>()
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
        /// `@InjectedObservable(ContentViewModel()) var model`. The expression is evaluated only
        /// when the view's object is created, not each time the view is initialized.
        public init(_ wrappedValue: @autoclosure @escaping () -> T) {
            source = .building(wrappedValue)
        }

        /// Builds the object with the property's initial value, without a factory, once per
        /// view identity: `@InjectedObservable var model = ContentViewModel()`.
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

        /// A binding to the object. Writing to the binding itself is ignored; bindings to the
        /// object's properties (`$viewModel.text`) write to the object.
        public var projectedValue: Binding<T> {
            .constant(wrappedValue)
        }
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    extension InjectedObservable: @unchecked Sendable where T: Sendable {}
#endif
