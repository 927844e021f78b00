/// The identity and definition of a factory: its key, container, original closure and `once` flag.
///
/// Every ``Factory`` and ``ParameterFactory`` carries one; modifiers use it to write the factory's
/// options into its container. It has no public members.
public nonisolated struct FactoryRegistration<P, T> {
    @usableFromInline let key: FactoryKey
    @usableFromInline let site: DefinitionSite
    @usableFromInline let container: any ManagedContainer
    @usableFromInline let factory: (P) -> T
    /// Set on the value `.once()` returns; see ``FactoryModifying/once()``.
    @usableFromInline var once = false

    @inlinable
    init(
        key: StaticString, file: StaticString, line: UInt, container: any ManagedContainer,
        factory: @escaping (P) -> T
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

extension FactoryRegistration: @unchecked Sendable where P: Sendable, T: Sendable {}

extension FactoryRegistration: FactoryIdentity {}
