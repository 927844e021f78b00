/// Resolves a dependency by type from a ``Resolving`` container when the enclosing value is
/// created.
///
/// ```swift
/// @InjectedType var logger: Logger?               // from Container.shared
/// @InjectedType(Services.shared) var api: API?    // from another container
/// ```
///
/// The value is `nil` when the container is not `Resolving` or nothing is registered for the type.
@propertyWrapper
public struct InjectedType<T> {
    @usableFromInline var dependency: T?

    /// Resolves from `Container.shared`, if it conforms to ``Resolving``.
    public init() {
        dependency = (Container.shared as any ManagedContainer as? any Resolving)?.resolve(T.self)
    }

    /// Resolves from `container`, if it conforms to ``Resolving``.
    public init(_ container: any ManagedContainer) {
        dependency = (container as? any Resolving)?.resolve(T.self)
    }

    /// The resolved dependency, or `nil`; assigning replaces it in this wrapper only.
    public var wrappedValue: T? {
        get { dependency }
        mutating set { dependency = newValue }
    }
}

extension InjectedType: @unchecked Sendable where T: Sendable {}
