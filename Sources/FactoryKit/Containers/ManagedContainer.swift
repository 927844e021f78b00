/// A container of factories: any class that owns a ``ContainerManager``.
///
/// Factories are computed properties in extensions of a container:
///
/// ```swift
/// extension Container {
///     var api: Factory<APIClient> { self { LiveAPIClient() } }
///     var user: ParameterFactory<User.ID, UserModel> { self { UserModel(id: $0, api: self.api()) } }
/// }
/// ```
///
/// Most containers are ``SharedContainer``s, which also have a `shared` instance.
public nonisolated protocol ManagedContainer: AnyObject, Sendable {
    /// The manager holding this container's registrations, options and caches.
    var manager: ContainerManager { get }
}

extension ManagedContainer {
    /// Defines a factory: `self { Service() }` is `Factory(self) { Service() }`.
    ///
    /// The key defaults to the name of the enclosing property. `file` and `line` record where the
    /// factory is defined, so that two definitions sharing a name never share a singleton, and
    /// `isolation` the actor its closure is isolated to; leave them to their defaults.
    @inlinable
    public func callAsFunction<T>(
        key: StaticString = #function, file: StaticString = #filePath, line: UInt = #line,
        isolation: (any Actor)? = #isolation, _ factory: @escaping VoidFactoryType<T>
    ) -> Factory<T> {
        Factory(self, key: key, file: file, line: line, isolation: isolation, factory)
    }

    /// Defines a factory that takes a parameter: `self { id in User(id: id) }`.
    @inlinable
    public func callAsFunction<P, T>(
        key: StaticString = #function, file: StaticString = #filePath, line: UInt = #line,
        _ factory: @escaping ParameterFactoryType<P, T>
    ) -> ParameterFactory<P, T> {
        ParameterFactory(self, key: key, file: file, line: line, factory)
    }

    /// Defines an asynchronous factory: `self { try await Database.open() }`; see ``AsyncFactory``.
    @inlinable
    public func callAsFunction<T>(
        key: StaticString = #function, file: StaticString = #filePath, line: UInt = #line,
        _ factory: @escaping AsyncFactoryType<T>
    ) -> AsyncFactory<T> {
        AsyncFactory(self, key: key, file: file, line: line, factory)
    }

    /// Defines an asynchronous factory that takes a parameter: `self { id in try await Report.load(id) }`.
    @inlinable
    public func callAsFunction<P: Sendable, T>(
        key: StaticString = #function, file: StaticString = #filePath, line: UInt = #line,
        _ factory: @escaping AsyncParameterFactoryType<P, T>
    ) -> AsyncParameterFactory<P, T> {
        AsyncParameterFactory(self, key: key, file: file, line: line, factory)
    }

    /// Defines a factory that another module must register before it is used.
    ///
    /// ```swift
    /// extension Container {
    ///     public var accountLoader: Factory<AccountLoading?> { promised() }
    /// }
    /// ```
    ///
    /// Until something is registered it resolves to `nil`, except in debug builds, where
    /// resolving it stops the program with a message naming the factory (see
    /// ``ContainerManager/promiseTriggersError``).
    public func promised<T>(
        key: StaticString = #function, file: StaticString = #filePath, line: UInt = #line
    ) -> Factory<T?> {
        Factory<T?>(self, key: key, file: file, line: line) { [self] in
            unregisteredPromise(key: key, result: T?.self, file: file, line: line)
        }
    }

    /// Defines a factory with a parameter that another module must register before it is used.
    public func promised<P, T>(
        key: StaticString = #function, file: StaticString = #filePath, line: UInt = #line
    ) -> ParameterFactory<P, T?> {
        ParameterFactory<P, T?>(self, key: key, file: file, line: line) { [self] _ in
            unregisteredPromise(key: key, result: T?.self, file: file, line: line)
        }
    }

    /// Stops at the `promised()` definition, where the missing registration is easiest to see.
    private func unregisteredPromise<T>(key: StaticString, result: T?.Type, file: StaticString, line: UInt) -> T? {
        let name = Diagnostics.describe(container: type(of: self), name: LiteralText(key), result: T?.self)
        if let sink = ValidationSink.current {
            sink.report(
                ValidationIssue(
                    kind: .unregisteredPromise, factory: name,
                    message: "\(name) was promised but never registered: register it, for example in autoRegister()."))
            return nil
        }
        guard manager.promiseTriggersError else { return nil }
        let message =
            "\(name) was promised but never registered. Register it before resolving it "
            + "(for example `\(type(of: self)).shared.\(key).register { ... }` or in autoRegister()), "
            + "or set manager.promiseTriggersError = false to resolve it to nil."
        // In a test run through FactoryTesting, a test failure that names the factory; the
        // resolution goes on with nil.
        if TestSupport.recordInTest(message, file: file, line: line) { return nil }
        Diagnostics.stop(
            message + " In a test, FactoryTesting's .container trait makes this an issue of the test at the "
                + "promised() line, and the factory resolves to nil.", file: file, line: line)
    }

    /// Sets a decorator that sees every value this container resolves, or clears it with `nil`.
    ///
    /// A factory's own `decorator` modifier replaces it for
    /// that factory. Cleared by `reset(options: .all)`.
    public func decorator(_ decorator: ((Any) -> Void)?) {
        // The closure replaced is released after the lock (see `ContainerManager.withState`).
        manager.withState { $0.decorator = decorator }
    }

    /// Resets this container; see ``ContainerManager/reset(options:)``.
    public func reset(options: FactoryResetOptions = .all) {
        manager.reset(options: options)
    }

    /// Runs `transform` on this container and returns it.
    @available(*, deprecated, message: "Use the container directly, or callAsFunction on a shared container.")
    @discardableResult
    public func with(_ transform: (Self) -> Void) -> Self {
        transform(self)
        return self
    }

    /// Runs an asynchronous `transform` on this container and returns it.
    @available(*, deprecated, message: "Use the container directly, or callAsFunction on a shared container.")
    @discardableResult
    public func with(_ transform: @Sendable @isolated(any) (Self) async -> Void) async -> Self {
        await transform(self)
        return self
    }
}
