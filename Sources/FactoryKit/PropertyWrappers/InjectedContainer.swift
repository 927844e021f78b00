/// Captures a shared container when the enclosing value is created.
///
/// ```swift
/// final class Coordinator {
///     @InjectedContainer var container                     // Container.shared
///     @InjectedContainer(NetworkContainer.self) var network
/// }
/// ```
///
/// Useful to hand one container to everything a screen builds, even if `shared` is rebound later.
@propertyWrapper
public struct InjectedContainer<C: SharedContainer> {
    @usableFromInline var container: C

    /// Captures `Container.shared`.
    public init() where C == Container {
        container = Container.shared
    }

    /// Captures `C.shared`.
    public init(_ type: C.Type) {
        container = C.shared
    }

    /// The captured container; assigning replaces it.
    public var wrappedValue: C {
        get { container }
        mutating set { container = newValue }
    }

    /// Resets the captured container as `options` says.
    public mutating func reset(options: FactoryResetOptions = .none) {
        container.manager.reset(options: options)
    }
}
