import Services

/// The real account loader.
public struct LiveAccountLoader: AccountLoading {
    /// Creates a loader.
    public init() {}

    /// The user's accounts.
    public func accounts() -> [String] { ["checking", "savings"] }
}
