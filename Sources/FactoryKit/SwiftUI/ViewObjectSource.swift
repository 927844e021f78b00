/// Where a SwiftUI view wrapper's object comes from: a factory, resolved from the container the
/// view reaches, or a closure the view was given.
///
/// `InjectedObject` and `InjectedObservable` store one and create their object with
/// ``ViewContainers/object(from:)`` in `update()`, before the view's `body` runs.
package struct ViewObjectSource<T> {
    /// Builds the object for a view that sees `containers`.
    let create: (ViewContainers) -> T

    /// The factory at `keyPath`, resolved from the container of type `C` the view reaches.
    package static func factory<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) -> Self {
        Self { containers in containers.container(C.self)[keyPath: keyPath]() }
    }

    /// The object `build` returns.
    package static func building(_ build: @escaping () -> T) -> Self {
        Self { _ in build() }
    }
}

extension ViewContainers {
    /// Creates a view's object from `source`, on the main actor, after applying the registrations
    /// asked for above the view and with a scene `Container` bound as `Container.shared`.
    @MainActor
    package func object<T>(from source: ViewObjectSource<T>) -> T {
        make { source.create(self) }
    }
}
