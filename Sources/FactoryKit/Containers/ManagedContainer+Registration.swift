extension ManagedContainer {
    /// Registers a closure that builds the value from the container it is resolved on, without
    /// capturing it.
    ///
    /// A registration is stored in its container, so a closure that captures the container
    /// (`c.api.register { API(session: c.session()) }`) keeps that container alive forever. This
    /// form hands the container to the closure instead:
    ///
    /// ```swift
    /// container.register(\.api) { container in API(session: container.session()) }
    /// ```
    ///
    /// Otherwise it behaves exactly like ``Factory/register(factory:)``.
    @discardableResult
    @inlinable
    public func register<T>(_ keyPath: KeyPath<Self, Factory<T>>, factory: @escaping (Self) -> T) -> Factory<T> {
        let target = self[keyPath: keyPath]
        target.registration.register(ClosureBox<Void, T> { container, _ in factory(container as! Self) })
        return target
    }

    /// Registers a closure for a parameter factory that builds the value from the container it is
    /// resolved on, without capturing it: `container.register(\.profile) { container, id in ... }`.
    @discardableResult
    @inlinable
    public func register<P, T>(
        _ keyPath: KeyPath<Self, ParameterFactory<P, T>>, factory: @escaping (Self, P) -> T
    ) -> ParameterFactory<P, T> {
        let target = self[keyPath: keyPath]
        target.registration.register(
            ClosureBox<P, T> { container, parameter in factory(container as! Self, parameter) })
        return target
    }
}
