/// The catalog's own container, as the documentation declares custom containers.
public final class CatalogContainer: SharedContainer {
    /// The container every catalog screen resolves from.
    public static let shared = CatalogContainer()
    /// The container's registrations and caches.
    public let manager = ContainerManager()

    /// Creates a container.
    public init() {}

    /// The product list, cached until reset.
    var cachedList: Factory<ProductList> {
        self {
            ProductList()
        }.cached
    }
}

extension CatalogContainer {
    /// A factory on the type, not on a container: valid Swift, but the manifest cannot list it.
    static var sharedList: Factory<ProductList> { Factory(shared) { ProductList() } }
}

extension SharedContainer {
    /// Declared for every container: the manifest lists it on each one.
    public var catalogName: Factory<String> { self { "Catalog" } }
}
