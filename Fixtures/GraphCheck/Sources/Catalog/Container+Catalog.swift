@_exported public import FactoryKit

/// Prices products; the app provides the implementation.
public protocol Pricing: Sendable {
    func price(of product: String) -> Int
}

/// A product page's model.
public final class ProductModel: Sendable {
    /// The product shown.
    public let product: String

    /// Creates the model for `product`.
    public init(product: String) { self.product = product }
}

/// The catalog's list of products.
public final class ProductList: Sendable {
    /// Creates the list.
    public init() {}
}

/// A catalog search, which takes time.
public final class Search: Sendable {
    /// Creates a search.
    public init() {}
}

extension Container {
    /// Promised here, registered in the app's `autoRegister()`.
    public var pricing: Factory<(any Pricing)?> { promised() }

    /// The product list, once per resolution graph.
    public var productList: Factory<ProductList> { self { ProductList() }.graph }

    /// A product page's model, by product name.
    public var productModel: ParameterFactory<String, ProductModel> {
        self { ProductModel(product: $0) }
    }

    /// A search, built asynchronously.
    public var search: AsyncFactory<Search> { self { Search() } }

    /// A search scoped to a query.
    var querySearch: AsyncParameterFactory<String, Search> { self { _ in Search() } }

    /// Not a factory of the container: an optional factory is a value, and the manifest skips it.
    var maybeList: Factory<ProductList>? { nil }

    /// A method-style factory: a key path cannot name it, so the manifest calls it.
    func legacyList() -> Factory<ProductList> { self { ProductList() } }

    /// A method-style factory taking an argument: validation cannot invent one, so the command
    /// reports it and the manifest cannot list it.
    func namedList(_ name: String) -> Factory<ProductList> { self { ProductList() } }
}
