extension Scope {
    /// Keeps a factory's value in its container until the container resets it or is released.
    ///
    /// Create your own instances for caches you reset together:
    /// `extension Scope { static let session = Cached() }`, then
    /// `container.manager.reset(scope: .session)`.
    public final class Cached: Scope, @unchecked Sendable {
        /// Creates a cached scope of its own, reset independently of ``Scope/cached``.
        public override init() { super.init(kind: .cached) }
    }
}
