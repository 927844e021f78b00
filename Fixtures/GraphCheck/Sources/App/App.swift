import Catalog

struct LivePricing: Pricing {
    func price(of product: String) -> Int { product.count }
}

final class Cart: Sendable {}

final class Checkout: Sendable {
    let cart: Cart
    init(cart: Cart) { self.cart = cart }
}

final class Orders: Sendable {
    init(payments: Payments) {}
}

final class Payments: Sendable {
    init(orders: Orders) {}
}

// The app's composition root fills in what Catalog promised; the conformance is retroactive on
// purpose, as the documentation shows.
// swift-format-ignore: AvoidRetroactiveConformances
extension Container: @retroactive AutoRegistering {
    /// Registers what modules promised.
    public func autoRegister() {
        pricing.register { LivePricing() }
    }
}

extension Container {
    /// Planted fault: promised, and registered nowhere.
    var receiptPrinter: Factory<String?> { promised() }

    /// A new cart each time.
    var cart: Factory<Cart> { self { Cart() } }

    /// Planted fault: a singleton that keeps the first cart forever.
    var checkout: Factory<Checkout> {
        self { Checkout(cart: self.cart()) }.singleton
    }

    /// Planted fault: orders and payments need each other.
    var orders: Factory<Orders> { self { Orders(payments: self.payments()) } }
    var payments: Factory<Payments> { self { Payments(orders: self.orders()) } }

    /// Resolved on the main actor.
    @MainActor var banner: Factory<String> { self { "Welcome" } }

    /// A method-style factory isolated to the main actor: the manifest cannot call it, and says so.
    @MainActor func mainActorBanner() -> Factory<String> { self { "Hello" } }
}
