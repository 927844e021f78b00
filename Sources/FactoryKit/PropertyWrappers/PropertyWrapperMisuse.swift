// Property wrappers take a `Factory` only. These overloads catch the two key paths users reach for
// by mistake, an `AsyncFactory` and a `ParameterFactory`, and make the compiler say what to write
// instead of reporting a bare key-path type mismatch.

extension Injected {
    /// Unavailable: `@Injected` resolves when its owner is created, synchronously, so it cannot await an `AsyncFactory`.
    @available(
        *, unavailable,
        message:
            "@Injected cannot await an AsyncFactory. Resolve it in async code: `try await Container.shared.name()` or `try await dependency(\\.name)`."
    )
    public init(_ keyPath: KeyPath<Container, AsyncFactory<T>>) {
        fatalError("unavailable")
    }

    /// Unavailable: `@Injected` resolves when its owner is created, synchronously, so it cannot await an `AsyncFactory`.
    @available(
        *, unavailable,
        message:
            "@Injected cannot await an AsyncFactory. Resolve it in async code: `try await MyContainer.shared.name()` or `try await dependency(\\MyContainer.name)`."
    )
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, AsyncFactory<T>>) {
        fatalError("unavailable")
    }

    /// Unavailable: `@Injected` has no parameter to pass to a `ParameterFactory`.
    @available(
        *, unavailable,
        message:
            "@Injected cannot pass a parameter to a ParameterFactory. Call it with one: `Container.shared.name(parameter)` or `dependency(\\.name, parameter: parameter)`."
    )
    public init<P>(_ keyPath: KeyPath<Container, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }

    /// Unavailable: `@Injected` has no parameter to pass to a `ParameterFactory`.
    @available(
        *, unavailable,
        message:
            "@Injected cannot pass a parameter to a ParameterFactory. Call it with one: `MyContainer.shared.name(parameter)` or `dependency(\\MyContainer.name, parameter: parameter)`."
    )
    public init<C: SharedContainer, P>(_ keyPath: KeyPath<C, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }
}

extension LazyInjected {
    /// Unavailable: `@LazyInjected` resolves on first read, synchronously, so it cannot await an `AsyncFactory`.
    @available(
        *, unavailable,
        message:
            "@LazyInjected cannot await an AsyncFactory. Resolve it in async code: `try await Container.shared.name()` or `try await dependency(\\.name)`."
    )
    public init(_ keyPath: KeyPath<Container, AsyncFactory<T>>) {
        fatalError("unavailable")
    }

    /// Unavailable: `@LazyInjected` resolves on first read, synchronously, so it cannot await an `AsyncFactory`.
    @available(
        *, unavailable,
        message:
            "@LazyInjected cannot await an AsyncFactory. Resolve it in async code: `try await MyContainer.shared.name()` or `try await dependency(\\MyContainer.name)`."
    )
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, AsyncFactory<T>>) {
        fatalError("unavailable")
    }

    /// Unavailable: `@LazyInjected` has no parameter to pass to a `ParameterFactory`.
    @available(
        *, unavailable,
        message:
            "@LazyInjected cannot pass a parameter to a ParameterFactory. Call it with one: `Container.shared.name(parameter)` or `dependency(\\.name, parameter: parameter)`."
    )
    public init<P>(_ keyPath: KeyPath<Container, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }

    /// Unavailable: `@LazyInjected` has no parameter to pass to a `ParameterFactory`.
    @available(
        *, unavailable,
        message:
            "@LazyInjected cannot pass a parameter to a ParameterFactory. Call it with one: `MyContainer.shared.name(parameter)` or `dependency(\\MyContainer.name, parameter: parameter)`."
    )
    public init<C: SharedContainer, P>(_ keyPath: KeyPath<C, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }
}

extension WeakLazyInjected {
    /// Unavailable: `@WeakLazyInjected` resolves on first read, synchronously, so it cannot await an `AsyncFactory`.
    @available(
        *, unavailable,
        message:
            "@WeakLazyInjected cannot await an AsyncFactory. Resolve it in async code: `try await Container.shared.name()` or `try await dependency(\\.name)`."
    )
    public init(_ keyPath: KeyPath<Container, AsyncFactory<T>>) {
        fatalError("unavailable")
    }

    /// Unavailable: `@WeakLazyInjected` resolves on first read, synchronously, so it cannot await an `AsyncFactory`.
    @available(
        *, unavailable,
        message:
            "@WeakLazyInjected cannot await an AsyncFactory. Resolve it in async code: `try await MyContainer.shared.name()` or `try await dependency(\\MyContainer.name)`."
    )
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, AsyncFactory<T>>) {
        fatalError("unavailable")
    }

    /// Unavailable: `@WeakLazyInjected` has no parameter to pass to a `ParameterFactory`.
    @available(
        *, unavailable,
        message:
            "@WeakLazyInjected cannot pass a parameter to a ParameterFactory. Call it with one: `Container.shared.name(parameter)` or `dependency(\\.name, parameter: parameter)`."
    )
    public init<P>(_ keyPath: KeyPath<Container, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }

    /// Unavailable: `@WeakLazyInjected` has no parameter to pass to a `ParameterFactory`.
    @available(
        *, unavailable,
        message:
            "@WeakLazyInjected cannot pass a parameter to a ParameterFactory. Call it with one: `MyContainer.shared.name(parameter)` or `dependency(\\MyContainer.name, parameter: parameter)`."
    )
    public init<C: SharedContainer, P>(_ keyPath: KeyPath<C, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }
}

extension DynamicInjected {
    /// Unavailable: `@DynamicInjected` resolves on every read, synchronously, so it cannot await an `AsyncFactory`.
    @available(
        *, unavailable,
        message:
            "@DynamicInjected cannot await an AsyncFactory. Resolve it in async code: `try await Container.shared.name()` or `try await dependency(\\.name)`."
    )
    public init(_ keyPath: KeyPath<Container, AsyncFactory<T>>) {
        fatalError("unavailable")
    }

    /// Unavailable: `@DynamicInjected` resolves on every read, synchronously, so it cannot await an `AsyncFactory`.
    @available(
        *, unavailable,
        message:
            "@DynamicInjected cannot await an AsyncFactory. Resolve it in async code: `try await MyContainer.shared.name()` or `try await dependency(\\MyContainer.name)`."
    )
    public init<C: SharedContainer>(_ keyPath: KeyPath<C, AsyncFactory<T>>) {
        fatalError("unavailable")
    }

    /// Unavailable: `@DynamicInjected` has no parameter to pass to a `ParameterFactory`.
    @available(
        *, unavailable,
        message:
            "@DynamicInjected cannot pass a parameter to a ParameterFactory. Call it with one: `Container.shared.name(parameter)` or `dependency(\\.name, parameter: parameter)`."
    )
    public init<P>(_ keyPath: KeyPath<Container, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }

    /// Unavailable: `@DynamicInjected` has no parameter to pass to a `ParameterFactory`.
    @available(
        *, unavailable,
        message:
            "@DynamicInjected cannot pass a parameter to a ParameterFactory. Call it with one: `MyContainer.shared.name(parameter)` or `dependency(\\MyContainer.name, parameter: parameter)`."
    )
    public init<C: SharedContainer, P>(_ keyPath: KeyPath<C, ParameterFactory<P, T>>) {
        fatalError("unavailable")
    }
}
