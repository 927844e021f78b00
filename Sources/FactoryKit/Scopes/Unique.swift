extension Scope {
    /// Keeps nothing: every resolution runs the factory. The default scope.
    ///
    /// Naming it explicitly (`.unique`) also overrides a container's `defaultScope`.
    public final class Unique: Scope, @unchecked Sendable {
        /// Creates a unique scope; every instance behaves the same.
        public override init() { super.init(kind: .unique) }
    }
}
