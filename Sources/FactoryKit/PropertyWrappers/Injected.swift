/// Resolves a dependency when the enclosing value is created.
///
/// ```swift
/// final class ContentViewModel {
///     @Injected(\.api) private var api
///     @Injected(\NetworkContainer.session) private var session
/// }
/// ```
///
/// Resolution reads the container's current `shared` instance (task-local containers are
/// honoured). The projected value (`$api`) gives access to the factory and to ``resolve(reset:)``.
@propertyWrapper
public struct Injected<T> {
    @usableFromInline let reference: FactoryReference<T>
    @usableFromInline var dependency: T

    /// Resolves `keyPath` on `Container.shared` now.
    @inlinable
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        self.init(reference: FactoryReference(keyPath))
    }

    /// Resolves `keyPath` on `C.shared` now.
    @inlinable
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        self.init(reference: FactoryReference(keyPath))
    }

    @inlinable
    init(reference: FactoryReference<T>) {
        self.reference = reference
        self.dependency = reference.factory()
    }

    /// The resolved dependency; assigning replaces it in this wrapper only.
    @inlinable
    public var wrappedValue: T {
        get { dependency }
        mutating set { dependency = newValue }
    }

    /// The wrapper itself, for ``factory`` and ``resolve(reset:)``.
    public var projectedValue: Injected<T> {
        get { self }
        mutating set { self = newValue }
    }

    /// The factory, from the container's current `shared` instance.
    public var factory: Factory<T> { reference.factory }

    /// Resets the factory as `options` says, then resolves it again and keeps the new value.
    public mutating func resolve(reset options: FactoryResetOptions = .none) {
        let factory = reference.factory
        factory.reset(options)
        dependency = factory()
    }
}

extension Injected: @unchecked Sendable where T: Sendable {}
