/// Lets a container register and resolve by type alone, like a classic service locator.
///
/// ```swift
/// final class Services: SharedContainer, Resolving {
///     static let shared = Services()
///     let manager = ContainerManager()
/// }
///
/// Services.shared.register { Logger() }.singleton
/// let logger: Logger? = Services.shared.resolve()
/// ```
///
/// One registration per type per container. Lookups match the exact type registered:
/// registering `Logger.self` and resolving `(any Logging).self` finds nothing and returns `nil`.
/// Prefer typed factories, which the compiler checks.
public protocol Resolving: ManagedContainer {
    /// Registers `factory` for `type` and returns its factory, for modifiers such as `.singleton`.
    func register<T>(_ type: T.Type, factory: @escaping @Sendable () -> T) -> Factory<T>
    /// The factory registered for `type`, or `nil`.
    func factory<T>(_ type: T.Type) -> Factory<T>?
    /// Resolves the value registered for `type`, or returns `nil` when there is none.
    func resolve<T>(_ type: T.Type) -> T?
}

extension Resolving {
    /// Registers `factory` for `type` and returns its factory, for modifiers such as `.singleton`.
    @discardableResult
    public func register<T>(_ type: T.Type = T.self, factory: @escaping @Sendable () -> T) -> Factory<T> {
        let registered = Factory<T>(self, key: "*", file: "FactoryKit/Resolving.swift", line: 0) { factory() }
        registered.register(factory: factory)
        return registered
    }

    /// The factory registered for `type`, or `nil`.
    public func factory<T>(_ type: T.Type = T.self) -> Factory<T>? {
        let key = FactoryKey(LiteralText("*"), parameter: Void.self, result: T.self)
        guard let box = manager.withState(of: self, { $0.existingRecord(for: key)?.registration }) else { return nil }
        let closure = unsafeDowncast(box, to: ClosureBox<Void, T>.self)
        return Factory<T>(self, key: "*", file: "FactoryKit/Resolving.swift", line: 0) { [self] in
            closure.make(self, ())
        }
    }

    /// Resolves the value registered for `type`, or returns `nil` when there is none.
    public func resolve<T>(_ type: T.Type = T.self) -> T? {
        factory(type)?()
    }
}
