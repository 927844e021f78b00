extension Scope {
    /// Shares one instance among the factories resolved during one outermost resolution.
    ///
    /// When `Container.shared.screen()` builds a view model and a presenter that both need the
    /// `graph`-scoped `router`, they get the same router; the next call to `screen()` gets a new
    /// one. The values live on the resolving thread only, so concurrent resolutions and other
    /// containers never share them.
    public final class Graph: Scope, @unchecked Sendable {
        @usableFromInline
        override init() { super.init(kind: .graph) }

        /// How many factory closures are running on this thread right now, outermost first: zero
        /// outside any resolution.
        public var depth: Int { ResolutionChain.current.depth }
    }
}
