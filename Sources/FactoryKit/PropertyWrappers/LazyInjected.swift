/// Resolves a dependency the first time it is read.
///
/// ```swift
/// final class ReportBuilder {
///     @LazyInjected(\.pdfRenderer) private var renderer   // resolved on first use
/// }
/// ```
///
/// The dependency is resolved exactly once per wrapper, even when several threads read it first
/// together (the others wait for that one value). Copies of the enclosing value share the
/// resolved dependency. Also a way to break a dependency cycle: the dependency is resolved after
/// its owner exists.
@propertyWrapper
public struct LazyInjected<T> {
    @usableFromInline let reference: FactoryReference<T>
    @usableFromInline let storage = LazyStorage<T>()

    /// Resolves `keyPath` on `Container.shared` when first read.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        reference = FactoryReference(keyPath)
    }

    /// Resolves `keyPath` on `C.shared` when first read.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        reference = FactoryReference(keyPath)
    }

    /// The dependency, resolved on first read; assigning replaces it.
    public var wrappedValue: T {
        get {
            storage.value(label: "@LazyInjected \(reference.factory.registration.description)") { reference.factory() }
        }
        mutating set { storage.set(.resolved(newValue)) }
    }

    /// The wrapper itself, for ``factory``, ``resolve(reset:)`` and ``resolvedOrNil()``.
    public var projectedValue: LazyInjected<T> {
        get { self }
        mutating set { self = newValue }
    }

    /// The factory, from the container's current `shared` instance.
    public var factory: Factory<T> { reference.factory }

    /// Resets the factory as `options` says, then resolves it again and keeps the new value.
    public func resolve(reset options: FactoryResetOptions = .none) {
        let factory = reference.factory
        factory.reset(options)
        storage.set(.resolved(factory()))
    }

    /// The dependency if it has been resolved, without resolving it.
    public func resolvedOrNil() -> T? {
        storage.resolved
    }
}

extension LazyInjected: @unchecked Sendable where T: Sendable {}
