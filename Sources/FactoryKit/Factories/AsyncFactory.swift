/// The closure type of an ``AsyncFactory``: builds a value asynchronously, and may fail.
public typealias AsyncFactoryType<T> = @Sendable () async throws -> T

/// The closure type of an ``AsyncParameterFactory``.
public typealias AsyncParameterFactoryType<P, T> = @Sendable (P) async throws -> T

/// A recipe for a dependency that is created asynchronously and may fail: opening a database,
/// reading a configuration file, connecting a client.
///
/// ```swift
/// extension Container {
///     var database: AsyncFactory<Database> {
///         self { try await Database.open(path: self.config().databasePath) }
///             .singleton
///     }
/// }
///
/// let database = try await Container.shared.database()
/// Container.shared.database.register { try await FakeDatabase() }
/// ```
///
/// A scoped async factory creates its value once, however many tasks ask for it together: they
/// all wait for that one creation. An error reaches every waiter of that attempt and is not cached;
/// the next resolution tries again. A waiter whose task is cancelled stops waiting with
/// `CancellationError`; the creation goes on for the others and is cancelled when nobody waits for
/// it any more. A dependency cycle throws ``DependencyCycleError``.
///
/// Scopes share one value across tasks, so they are offered only for `Sendable` results. A
/// container's `defaultScope` does not apply to async factories: each names its scope.
public nonisolated struct AsyncFactory<T>: AsyncFactoryModifying, Sendable {
    /// The factory's identity and original closure, used by modifiers.
    public var registration: AsyncFactoryRegistration<Void, T>

    /// Creates an async factory on `container`, keyed by `key` (the enclosing property's name).
    ///
    /// Inlinable, as the synchronous factory's is: compiled in the library, the registration's
    /// and the key marker's generic metadata were looked up at run time on every access, about
    /// 1,300 instructions of an async singleton hit's 2,600 (S8).
    @inlinable
    public init(
        _ container: any ManagedContainer, key: StaticString = #function, file: StaticString = #filePath,
        line: UInt = #line, _ factory: @escaping AsyncFactoryType<T>
    ) {
        self.init(
            container, name: LiteralText(key), site: DefinitionSite(file: LiteralText(file), line: line), factory)
    }

    /// Creates a factory from a key and site already converted, as validation does.
    @inlinable
    init(
        _ container: any ManagedContainer, name: LiteralText, site: DefinitionSite,
        _ factory: @escaping AsyncFactoryType<T>
    ) {
        registration = AsyncFactoryRegistration(
            name: name, site: site, container: container, factory: { _ in try await factory() })
    }

    /// Resolves the dependency: `try await Container.shared.database()`.
    @inlinable
    public func callAsFunction() async throws -> T {
        try await registration.resolve(())
    }

    /// Resolves the dependency; the same as calling the factory.
    @inlinable
    public func resolve() async throws -> T {
        try await registration.resolve(())
    }

    /// Replaces the factory's closure in its container; see ``Factory/register(factory:)``.
    @discardableResult
    public func register(factory: @escaping AsyncFactoryType<T>) -> Self {
        registration.register(
            AsyncClosureBox<Void, T> { _, _ in try await factory() }, validator: AsyncValidator<T>.self)
        return self
    }

    /// Registers a closure: `Container.shared.database { try await FakeDatabase() }`.
    public func callAsFunction(factory: @escaping AsyncFactoryType<T>) {
        register(factory: factory)
    }
}

/// An asynchronous factory that takes a parameter; see ``AsyncFactory``.
///
/// ```swift
/// extension Container {
///     var report: AsyncParameterFactory<ReportID, Report> {
///         self { id in try await Report.load(id, from: self.database()) }
///     }
/// }
///
/// let report = try await Container.shared.report(id)
/// ```
public nonisolated struct AsyncParameterFactory<P: Sendable, T>: AsyncFactoryModifying, Sendable {
    /// The factory's identity and original closure, used by modifiers.
    public var registration: AsyncFactoryRegistration<P, T>

    /// Creates an async parameter factory on `container`, keyed by `key`.
    @inlinable
    public init(
        _ container: any ManagedContainer, key: StaticString = #function, file: StaticString = #filePath,
        line: UInt = #line, _ factory: @escaping AsyncParameterFactoryType<P, T>
    ) {
        registration = AsyncFactoryRegistration(
            name: LiteralText(key), site: DefinitionSite(file: LiteralText(file), line: line), container: container,
            factory: factory)
    }

    /// Resolves the dependency for `parameters`.
    @inlinable
    public func callAsFunction(_ parameters: P) async throws -> T {
        try await registration.resolve(parameters)
    }

    /// Resolves the dependency for `parameters`; the same as calling the factory.
    @inlinable
    public func resolve(_ parameters: P) async throws -> T {
        try await registration.resolve(parameters)
    }

    /// Replaces the factory's closure in its container.
    @discardableResult
    public func register(factory: @escaping AsyncParameterFactoryType<P, T>) -> Self {
        registration.register(AsyncClosureBox<P, T> { _, parameter in try await factory(parameter) })
        return self
    }

    /// Registers a closure: `Container.shared.report { id in try await FakeReport(id) }`.
    public func callAsFunction(factory: @escaping AsyncParameterFactoryType<P, T>) {
        register(factory: factory)
    }
}

/// The identity and definition of an asynchronous factory; it has no public members.
public nonisolated struct AsyncFactoryRegistration<P, T>: @unchecked Sendable {
    // Plain words, as in `FactoryRegistration`, so copies and destroys stay inline.
    @usableFromInline let name: LiteralText
    @usableFromInline let file: LiteralText
    @usableFromInline var lineAndOnce: LineAndOnce
    @usableFromInline let container: any ManagedContainer
    @usableFromInline let factory: @Sendable (P) async throws -> T
    /// The key's parameter type, `AsyncKeyMarker<P>`. Kept rather than worked out on use:
    /// unspecialized code would instantiate the marker's metadata on every resolution.
    @usableFromInline let keyParameter: ObjectIdentifier

    @inlinable
    init(
        name: LiteralText, site: DefinitionSite, container: any ManagedContainer,
        factory: @escaping @Sendable (P) async throws -> T
    ) {
        self.name = name
        self.file = site.file
        self.lineAndOnce = LineAndOnce(line: site.line)
        self.container = container
        self.factory = factory
        self.keyParameter = ObjectIdentifier(AsyncKeyMarker<P>.self)
    }

    /// The marker keeps an async factory's key apart from a synchronous one of the same name.
    @inlinable
    var key: FactoryKey { FactoryKey(name, parameter: keyParameter, result: ObjectIdentifier(T.self)) }

    /// How errors and messages name this factory: `Container.database<Database>`.
    var description: String {
        Diagnostics.describe(container: type(of: container), name: name, result: T.self)
    }
}

extension AsyncFactoryRegistration: FactoryIdentity, DefinitionWords {
    /// `FactoryIdentity.setScope`, with the registration's fields read directly: through the
    /// protocol, the registration's generic metadata is looked up at run time on every access.
    @inlinable
    func setScope(_ scope: Scope) {
        ScopeWrite.set(scope, container: container, key: key, site: site, once: once)
    }

    /// `FactoryIdentity.setSingletonScope`, with the registration's fields read directly.
    @inlinable
    func setSingletonScope() {
        ScopeWrite.setSingleton(container: container, key: key, site: site, once: once)
    }
}

/// Distinguishes the keys of asynchronous factories.
@usableFromInline
enum AsyncKeyMarker<P> {}

/// A registration or context override of an asynchronous factory.
@usableFromInline
final class AsyncClosureBox<P, T>: @unchecked Sendable {
    @usableFromInline let make: @Sendable (any ManagedContainer, P) async throws -> T

    @usableFromInline
    init(_ make: @escaping @Sendable (any ManagedContainer, P) async throws -> T) { self.make = make }
}
