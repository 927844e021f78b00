/// One factory of an app, with how to make a fresh container of its type: a line of the list that
/// ``Container/validateAll(_:preparing:fileID:line:column:)`` checks.
///
/// ```swift
/// enum FactoryManifest {
///     static let all: [FactoryManifestEntry] = [
///         .factory(\Container.database, in: { Container() }),
///         .factory(\Container.session, in: { Container() }),
///         .factory(\FeatureContainer.lookup, in: { FeatureContainer() }),
///     ]
/// }
/// ```
///
/// A method-style factory, which a key path cannot name, is listed with `factory(calling:in:)`.
/// Every kind of factory is listed the same way. A `Factory` or `AsyncFactory` is resolved; a
/// `ParameterFactory` or `AsyncParameterFactory` is listed so the report names it as skipped:
/// validation cannot invent its parameter. `fresh` runs once per entry, so each factory is
/// resolved in a container of its own, where `autoRegister()` has run.
///
/// The `validate-factories` command plugin writes such a list for a whole target; it can be
/// written by hand as well.
public struct FactoryManifestEntry: @unchecked Sendable {
    // Unchecked: the closure holds a key path, which names a property and holds no state, and a
    // `@Sendable` maker of containers.
    let target: () -> (container: any ManagedContainer, factory: any ValidatableFactory)
    /// What names the entry without making a container: its key path, or for a method-style
    /// factory the container and factory types. Addresses in it differ between runs (see
    /// `ValidationChild.stable(_:)`).
    let identity: String

    private init(
        identity: String, _ target: @escaping () -> (container: any ManagedContainer, factory: any ValidatableFactory)
    ) {
        self.identity = identity
        self.target = target
    }

    /// An entry whose container `fresh` makes, and whose factory `factory` reads from it.
    private static func entry<C: ManagedContainer>(
        _ fresh: @escaping @Sendable () -> C, identity: String, _ factory: @escaping (C) -> any ValidatableFactory
    ) -> FactoryManifestEntry {
        FactoryManifestEntry(identity: identity) {
            let container = fresh()
            return (container, factory(container))
        }
    }

    /// An entry for the factory at `keyPath`, resolved in a container that `fresh` makes.
    public static func factory<C: ManagedContainer, T>(
        _ keyPath: KeyPath<C, Factory<T>>, in fresh: @escaping @Sendable () -> C
    ) -> FactoryManifestEntry {
        entry(fresh, identity: "\(keyPath)") { $0[keyPath: keyPath] }
    }

    /// An entry for the async factory at `keyPath`, resolved in a container that `fresh` makes.
    public static func factory<C: ManagedContainer, T>(
        _ keyPath: KeyPath<C, AsyncFactory<T>>, in fresh: @escaping @Sendable () -> C
    ) -> FactoryManifestEntry {
        entry(fresh, identity: "\(keyPath)") { $0[keyPath: keyPath] }
    }

    /// An entry for the parameter factory at `keyPath`, which validation reports as skipped.
    public static func factory<C: ManagedContainer, P, T>(
        _ keyPath: KeyPath<C, ParameterFactory<P, T>>, in fresh: @escaping @Sendable () -> C
    ) -> FactoryManifestEntry {
        entry(fresh, identity: "\(keyPath)") { $0[keyPath: keyPath] }
    }

    /// An entry for the async parameter factory at `keyPath`, which validation reports as skipped.
    public static func factory<C: ManagedContainer, P, T>(
        _ keyPath: KeyPath<C, AsyncParameterFactory<P, T>>, in fresh: @escaping @Sendable () -> C
    ) -> FactoryManifestEntry {
        entry(fresh, identity: "\(keyPath)") { $0[keyPath: keyPath] }
    }

    /// An entry for a method-style factory, `func legacyList() -> Factory<ProductList>`, which a
    /// key path cannot name: `.factory(calling: { (c: Container) in c.legacyList() }, in: { Container() })`.
    public static func factory<C: ManagedContainer, T>(
        calling method: @escaping @Sendable (C) -> Factory<T>, in fresh: @escaping @Sendable () -> C
    ) -> FactoryManifestEntry {
        entry(fresh, identity: "\(C.self) calling \(type(of: method))", method)
    }

    /// An entry for a method-style async factory.
    public static func factory<C: ManagedContainer, T>(
        calling method: @escaping @Sendable (C) -> AsyncFactory<T>, in fresh: @escaping @Sendable () -> C
    ) -> FactoryManifestEntry {
        entry(fresh, identity: "\(C.self) calling \(type(of: method))", method)
    }

    /// An entry for a method-style parameter factory, which validation reports as skipped.
    public static func factory<C: ManagedContainer, P, T>(
        calling method: @escaping @Sendable (C) -> ParameterFactory<P, T>, in fresh: @escaping @Sendable () -> C
    ) -> FactoryManifestEntry {
        entry(fresh, identity: "\(C.self) calling \(type(of: method))", method)
    }

    /// An entry for a method-style async parameter factory, which validation reports as skipped.
    public static func factory<C: ManagedContainer, P, T>(
        calling method: @escaping @Sendable (C) -> AsyncParameterFactory<P, T>, in fresh: @escaping @Sendable () -> C
    ) -> FactoryManifestEntry {
        entry(fresh, identity: "\(C.self) calling \(type(of: method))", method)
    }
}
