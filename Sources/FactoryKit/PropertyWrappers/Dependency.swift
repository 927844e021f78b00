/// Resolves a factory of `Container.shared`: `let api: APIClient = dependency(\.api)`.
///
/// Works anywhere, including `nonisolated` types where property wrappers are awkward, and reads
/// `Container.shared` when called, so a task-local container (as in tests) is honoured. Defining
/// your own `dependency` function with the same key paths is all it takes to hide FactoryKit from
/// the rest of your code.
public func dependency<T>(_ keyPath: KeyPath<Container, Factory<T>>) -> T {
    Container.shared[keyPath: keyPath]()
}

/// Resolves a factory of a custom shared container: `dependency(\NetworkContainer.session)`.
public func dependency<C: SharedContainer, T>(_ keyPath: KeyPath<C, Factory<T>>) -> T {
    C.shared[keyPath: keyPath]()
}

/// Resolves a parameter factory of `Container.shared`:
/// `dependency(\.profile, parameter: user.id)`.
public func dependency<T, P>(_ keyPath: KeyPath<Container, ParameterFactory<P, T>>, parameter: P) -> T {
    Container.shared[keyPath: keyPath](parameter)
}

/// Resolves a parameter factory of a custom shared container.
public func dependency<C: SharedContainer, P, T>(_ keyPath: KeyPath<C, ParameterFactory<P, T>>, parameter: P) -> T {
    C.shared[keyPath: keyPath](parameter)
}

/// Resolves an async factory of `Container.shared`: `let db = try await dependency(\.database)`.
///
/// Property wrappers cannot do this: a wrapper's value cannot be `async` or `throws`, so
/// asynchronous dependencies are resolved with this function or by calling the factory.
public func dependency<T>(_ keyPath: KeyPath<Container, AsyncFactory<T>>) async throws -> T {
    try await Container.shared[keyPath: keyPath]()
}

/// Resolves an async factory of a custom shared container.
public func dependency<C: SharedContainer, T>(_ keyPath: KeyPath<C, AsyncFactory<T>>) async throws -> T {
    try await C.shared[keyPath: keyPath]()
}

/// Resolves an async parameter factory of `Container.shared`.
public func dependency<T, P>(_ keyPath: KeyPath<Container, AsyncParameterFactory<P, T>>, parameter: P) async throws -> T
{
    try await Container.shared[keyPath: keyPath](parameter)
}

/// Resolves a factory of `Container.shared`; renamed ``dependency(_:)-(KeyPath<Container,Factory<T>>)``.
@available(*, deprecated, renamed: "dependency", message: "Use dependency(_:) instead.")
public func resolve<T>(_ keyPath: KeyPath<Container, Factory<T>>) -> T {
    Container.shared[keyPath: keyPath]()
}

/// Resolves a factory of a custom shared container; renamed `dependency(_:)`.
@available(*, deprecated, renamed: "dependency", message: "Use dependency(_:) instead.")
public func resolve<C: SharedContainer, T>(_ keyPath: KeyPath<C, Factory<T>>) -> T {
    C.shared[keyPath: keyPath]()
}
