extension Scope {
    /// Keeps a factory's value weakly in its container: resolutions share it while anyone else holds
    /// it, and the next resolution after the last owner lets go creates a new one.
    ///
    /// Only class instances (or optionals of them) can be held weakly. A factory scoped `shared`
    /// that produces a value type behaves as `unique`, and FactoryKit logs a warning the first time,
    /// naming the factory.
    public final class Shared: Scope, @unchecked Sendable {
        /// Creates a shared scope of its own, reset independently of ``Scope/shared``.
        public override init() { super.init(kind: .shared) }

        static let warned = Locked(Set<String>())

        static func warnValueType(_ factory: String) {
            guard warned.withLock({ $0.insert(factory).inserted }) else { return }
            Diagnostics.log(
                "FactoryKit: \(factory) is scoped .shared but produced a value type, which cannot be held weakly; "
                    + "it is created anew on every resolution. Use .cached or .singleton to keep one value."
            )
        }
    }
}
