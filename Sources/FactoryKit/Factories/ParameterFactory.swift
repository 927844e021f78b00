/// A recipe for a dependency that needs a value at resolution time.
///
/// ```swift
/// extension Container {
///     var profile: ParameterFactory<User.ID, ProfileModel> {
///         self { id in ProfileModel(id: id, api: self.api()) }
///     }
/// }
///
/// let model = Container.shared.profile(user.id)
/// ```
///
/// Pass several values as a tuple or a struct. A scoped parameter factory keeps the first value
/// it creates for every parameter, unless it is also ``FactoryModifying/scopeOnParameters``, which
/// keeps one value per distinct parameter. Property wrappers cannot take parameter factories; use
/// ``dependency(_:parameter:)-(KeyPath<Container,ParameterFactory<P,T>>,_)`` or call the factory.
public nonisolated struct ParameterFactory<P, T>: FactoryModifying {
    /// The factory's identity and original closure, used by modifiers.
    public var registration: FactoryRegistration<P, T>

    /// Creates a parameter factory on `container`, keyed by `key` (the enclosing property's name).
    @inlinable
    public init(
        _ container: any ManagedContainer, key: StaticString = #function, file: StaticString = #filePath,
        line: UInt = #line, _ factory: @escaping ParameterFactoryType<P, T>
    ) {
        registration = FactoryRegistration(
            name: LiteralText(key), site: DefinitionSite(file: LiteralText(file), line: line), container: container,
            plain: nil, parameterized: factory)
    }

    /// Resolves the dependency for `parameters`.
    @inlinable
    public func callAsFunction(_ parameters: P) -> T {
        registration.resolve(parameters)
    }

    /// Resolves the dependency for `parameters`; the same as calling the factory.
    @inlinable
    public func resolve(_ parameters: P) -> T {
        registration.resolve(parameters)
    }

    /// Replaces the factory's closure in its container; see ``Factory/register(factory:)``.
    @inlinable @discardableResult
    public func register(factory: @escaping ParameterFactoryType<P, T>) -> Self {
        registration.register(ClosureBox<P, T>(ignoringContainer: factory))
        return self
    }

    #if !canImport(SwiftUI)
        // Where SwiftUI exists, Factory+SwiftUI.swift declares this returning `EmptyView`.
        /// Registers a closure: `Container.shared.profile { id in MockProfile(id) }`.
        @inlinable
        public func callAsFunction(factory: @escaping ParameterFactoryType<P, T>) {
            register(factory: factory)
        }
    #endif
}

extension ParameterFactory: @unchecked Sendable where P: Sendable, T: Sendable {}
