/// The identity and definition of a factory: its key, container, original closure and `once` flag.
///
/// Every ``Factory`` and ``ParameterFactory`` carries one; modifiers use it to write the factory's
/// options into its container. It has no public members.
public nonisolated struct FactoryRegistration<P, T> {
    @usableFromInline let key: FactoryKey
    @usableFromInline let site: DefinitionSite
    @usableFromInline let container: any ManagedContainer
    @usableFromInline let factory: FactoryClosure<P, T>
    /// Set on the value `.once()` returns; see ``FactoryModifying/once()``.
    @usableFromInline var once = false

    @inlinable
    init(
        key: StaticString, file: StaticString, line: UInt, container: any ManagedContainer,
        factory: FactoryClosure<P, T>
    ) {
        self.key = FactoryKey(key, parameter: P.self, result: T.self)
        self.site = DefinitionSite(file: file, line: line)
        self.container = container
        self.factory = factory
    }

    /// How traces and messages name this factory: `Container.service<Service>`.
    @usableFromInline
    var description: String {
        Diagnostics.describe(container: type(of: container), name: key.name, result: T.self)
    }

}

/// A factory's original closure, kept in the shape it was written in.
///
/// A `Factory`'s `() -> T` stored as `(Void) -> T` would need a reabstraction thunk, and with it an
/// allocation, every time a definition builds its `Factory`, which is every resolution.
@usableFromInline
enum FactoryClosure<P, T> {
    /// A `Factory`'s closure.
    case plain(() -> T)
    /// A `ParameterFactory`'s closure.
    case parameterized((P) -> T)

    /// Runs the closure.
    @inlinable
    func callAsFunction(_ parameter: P) -> T {
        switch self {
        case .plain(let make): make()
        case .parameterized(let make): make(parameter)
        }
    }
}

extension FactoryRegistration: @unchecked Sendable where P: Sendable, T: Sendable {}

extension FactoryRegistration: FactoryIdentity {}
