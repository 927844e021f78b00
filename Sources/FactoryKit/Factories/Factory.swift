/// The closure type of a ``Factory``: builds a value from nothing.
///
/// It is deliberately not `@Sendable`: a closure written inside a `@MainActor` property takes on
/// the main actor's isolation, so it can build main-actor types.
public typealias VoidFactoryType<T> = () -> T

/// The closure type of a ``ParameterFactory``: builds a value from a parameter.
public typealias ParameterFactoryType<P, T> = (P) -> T

/// A recipe for a dependency, defined as a computed property of a container.
///
/// ```swift
/// extension Container {
///     var service: Factory<ServiceType> {
///         self { Service(api: self.api()) }
///             .singleton
///     }
/// }
///
/// let service = Container.shared.service()         // resolve
/// Container.shared.service.register { MockService() } // override, e.g. in a test
/// ```
///
/// A `Factory` is a small value built each time its property is read: building it has no side
/// effects, and its modifiers (`.singleton`, `.onTest { }`, ...) are re-applied on every access, so
/// the definition always wins unless it ends with ``FactoryModifying/once()``. Registrations,
/// context overrides and cached values live in the container.
public nonisolated struct Factory<T>: FactoryModifying {
    /// The factory's identity and original closure, used by modifiers.
    public var registration: FactoryRegistration<Void, T>

    /// Creates a factory on `container`, keyed by `key` (the enclosing property's name).
    ///
    /// `self { Service() }` inside a container extension is the shorter spelling. `file` and `line`
    /// record where the factory is defined, and `isolation` the actor its closure is isolated to
    /// (`validate` resolves it there); leave them to their defaults.
    @inlinable
    public init(
        _ container: any ManagedContainer, key: StaticString = #function, file: StaticString = #filePath,
        line: UInt = #line, isolation: (any Actor)? = #isolation, _ factory: @escaping VoidFactoryType<T>
    ) {
        self.init(
            container, name: LiteralText(key), site: DefinitionSite(file: LiteralText(file), line: line), factory)
        // Nil, and compiled away, where the definition is not isolated.
        if let isolation, Diagnostics.isObserving { IsolationProbe.note(isolation) }
    }

    /// Creates a factory from a key and site already converted, as validation does.
    @inlinable
    init(
        _ container: any ManagedContainer, name: LiteralText, site: DefinitionSite,
        _ factory: @escaping VoidFactoryType<T>
    ) {
        registration = FactoryRegistration(
            name: name, site: site, container: container, plain: factory, parameterized: nil)
    }

    /// Resolves the dependency: `Container.shared.service()`.
    ///
    /// Uses, in order, a context override that applies, a registration, or the definition's
    /// closure, and honours the factory's scope and decorators.
    @inlinable
    public func callAsFunction() -> T {
        registration.resolve(())
    }

    /// Resolves the dependency; the same as calling the factory.
    @inlinable
    public func resolve() -> T {
        registration.resolve(())
    }

    /// Replaces the factory's closure in its container, for example with a mock.
    ///
    /// Clears the value the factory's scope holds, so the next resolution uses the new closure
    /// (except inside `autoRegister()`, which never clears cached values). Context overrides still
    /// take precedence. To build the value from the container without capturing it (a capture
    /// would keep the container alive forever), use
    /// ``ManagedContainer/register(_:factory:)-(KeyPath<Self,Factory<T>>,_)``.
    @discardableResult
    @inlinable
    public func register(factory: @escaping VoidFactoryType<T>) -> Self {
        registration.register(ClosureBox<Void, T> { _, _ in factory() }, validator: SyncValidator<T>.self)
        return self
    }

    #if !canImport(SwiftUI)
        // Where SwiftUI exists, Factory+SwiftUI.swift declares this returning `EmptyView`.
        /// Registers a closure: `Container.shared.service { MockService() }` is
        /// `Container.shared.service.register { MockService() }`.
        @inlinable
        public func callAsFunction(factory: @escaping VoidFactoryType<T>) {
            register(factory: factory)
        }
    #endif
}

extension Factory: @unchecked Sendable where T: Sendable {}
