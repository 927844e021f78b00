/// The identity and definition of a factory: its key, container, original closure and `once` flag.
///
/// Every ``Factory`` and ``ParameterFactory`` carries one; modifiers use it to write the factory's
/// options into its container. It has no public members.
public nonisolated struct FactoryRegistration<P, T> {
    // Nine machine words, each copied on its own. Past that, the compiler copies and destroys a
    // specialized generic struct through the runtime's value witnesses, which costs a resolution
    // more than everything else a cache hit does; so the key and the definition site are kept as
    // plain words and put together when needed, and the closure is two optionals, not an enum.
    @usableFromInline let name: LiteralText
    @usableFromInline let file: LiteralText
    @usableFromInline var lineAndOnce: LineAndOnce
    @usableFromInline let container: any ManagedContainer
    /// A `Factory`'s closure. Storing it as `(Void) -> T` would need a reabstraction thunk, and
    /// with it an allocation, every time a definition builds its `Factory`: every resolution.
    @usableFromInline let plain: (() -> T)?
    /// A `ParameterFactory`'s closure.
    @usableFromInline let parameterized: ((P) -> T)?

    @inlinable
    init(
        name: LiteralText, site: DefinitionSite, container: any ManagedContainer, plain: (() -> T)?,
        parameterized: ((P) -> T)?
    ) {
        self.name = name
        self.file = site.file
        self.lineAndOnce = LineAndOnce(line: site.line)
        self.container = container
        self.plain = plain
        self.parameterized = parameterized
    }

    @inlinable
    var key: FactoryKey { FactoryKey(name, parameter: P.self, result: T.self) }

    /// Runs the definition's closure.
    @inlinable
    func factory(_ parameter: P) -> T {
        if plain != nil { return plain.unsafelyUnwrapped() }
        return parameterized.unsafelyUnwrapped(parameter)
    }

    /// How traces and messages name this factory: `Container.service<Service>`.
    @usableFromInline
    var description: String {
        Diagnostics.describe(container: type(of: container), name: name, result: T.self)
    }
}

extension FactoryRegistration: @unchecked Sendable where P: Sendable, T: Sendable {}

extension FactoryRegistration: FactoryIdentity, DefinitionWords {}
