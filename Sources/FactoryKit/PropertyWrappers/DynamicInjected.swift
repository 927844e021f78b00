/// Resolves a dependency on every read.
///
/// ```swift
/// final class Dashboard {
///     @DynamicInjected(\.featureFlags) private var flags   // always the current registration
/// }
/// ```
///
/// Each read costs a resolution; use it only where the registration really changes while the
/// owner lives. The projected value is the factory: `$flags.register { TestFlags() }`.
@propertyWrapper
public struct DynamicInjected<T> {
    @usableFromInline let reference: FactoryReference<T>

    /// Resolves `keyPath` on `Container.shared` on every read.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        reference = FactoryReference(keyPath)
    }

    /// Resolves `keyPath` on `C.shared` on every read.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        reference = FactoryReference(keyPath)
    }

    /// A freshly resolved dependency.
    public var wrappedValue: T { reference.factory() }

    /// The factory, from the container's current `shared` instance.
    public var projectedValue: Factory<T> { reference.factory }
}

extension DynamicInjected: @unchecked Sendable where T: Sendable {}
