import Accounts
import Services

// The app's composition root fills in what modules promised; the conformance is retroactive on
// purpose, as the documentation shows.
// swift-format-ignore: AvoidRetroactiveConformances
extension Container: @retroactive AutoRegistering {
    /// Registers the implementations other modules promised.
    public func autoRegister() {
        accountLoader.register { LiveAccountLoader() }
    }
}

/// A screen model that uses a dependency promised by one module and provided by another.
public final class AccountsModel: @unchecked Sendable {
    @Injected(\.accountLoader) private var loader

    /// Creates the model, resolving its loader from `Container.shared`.
    public init() {}

    /// The names of the user's accounts.
    public var titles: [String] { loader?.accounts() ?? [] }
}

extension Container {
    /// The accounts screen's model.
    public var accountsModel: Factory<AccountsModel> { self { AccountsModel() } }
}
