// Every module that imports Services sees FactoryKit too, without importing it.
@_exported public import FactoryKit

/// Loads the user's accounts; implemented by another module.
public protocol AccountLoading: Sendable {
    func accounts() -> [String]
}

extension Container {
    /// Promised here, registered by the app: Services does not depend on Accounts.
    public var accountLoader: Factory<(any AccountLoading)?> { promised() }
}
