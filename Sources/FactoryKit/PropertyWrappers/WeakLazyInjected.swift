/// Resolves a dependency the first time it is read and holds it weakly.
///
/// ```swift
/// final class ChildCoordinator {
///     @WeakLazyInjected(\.parentCoordinator) private var parent
/// }
/// ```
///
/// Once the object is released the property reads `nil`; it is not resolved again on its own
/// (call ``resolve(reset:)`` or assign). A value type cannot be held weakly, so one is kept
/// strongly instead of being lost.
@propertyWrapper
public struct WeakLazyInjected<T> {
    @usableFromInline let reference: FactoryReference<T>
    @usableFromInline let storage = LazyStorage<WeakHolder<T>>()

    /// Resolves `keyPath` on `Container.shared` when first read.
    public init(_ keyPath: KeyPath<Container, Factory<T>>) {
        reference = FactoryReference(keyPath)
    }

    /// Resolves `keyPath` on `C.shared` when first read.
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        reference = FactoryReference(keyPath)
    }

    /// The dependency while it is alive; `nil` once released. Assigning replaces it.
    public var wrappedValue: T? {
        get {
            // The new value must stay alive until it is returned: the holder keeps it only weakly.
            var created: T?
            let holder = storage.value(label: "@WeakLazyInjected \(reference.factory.registration.description)") {
                let value = reference.factory()
                created = value
                return WeakHolder(value)
            }
            return created ?? holder.value
        }
        mutating set { storage.set(.resolved(WeakHolder(newValue))) }
    }

    /// The wrapper itself, for ``factory``, ``resolve(reset:)`` and ``resolvedOrNil()``.
    public var projectedValue: WeakLazyInjected<T> {
        get { self }
        mutating set { self = newValue }
    }

    /// The factory, from the container's current `shared` instance.
    public var factory: Factory<T> { reference.factory }

    /// Resets the factory as `options` says, then resolves it again and holds the new value.
    public func resolve(reset options: FactoryResetOptions = .none) {
        let factory = reference.factory
        factory.reset(options)
        storage.set(.resolved(WeakHolder(factory())))
    }

    /// The dependency if it has been resolved and is still alive, without resolving it.
    public func resolvedOrNil() -> T? {
        storage.resolved?.value
    }
}

extension WeakLazyInjected: @unchecked Sendable where T: Sendable {}

/// Holds class instances weakly and anything else strongly.
@usableFromInline
struct WeakHolder<T> {
    @usableFromInline weak var object: AnyObject?
    @usableFromInline var strongValue: T?

    init(_ value: T?) {
        if let value, let object = ValueInspection.object(in: value) {
            self.object = object
        } else {
            strongValue = value
        }
    }

    var value: T? {
        if let strongValue { return strongValue }
        return object.flatMap { $0 as? T }
    }
}
