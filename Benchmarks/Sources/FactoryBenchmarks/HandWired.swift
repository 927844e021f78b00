// The hand-written side: the same objects, built by direct initializer calls, singletons as
// `static let`, a cached value as a `lazy var` of a hand-written container.

enum HandWired {
    static let shared = SharedService()
    static let graphC = GraphC()
    static let graphG = GraphG()
    /// Created asynchronously, once: what S8's async singleton is by hand.
    static let asyncShared = Task { SharedService() }
}

/// A hand-written container holding what FactoryKit's `cached` scope holds.
final class HandContainer: @unchecked Sendable {
    lazy var graphB = GraphB(c: HandWired.graphC)

    func graphRoot() -> GraphRoot {
        let f = GraphF()
        return GraphRoot(
            a: GraphA(d: GraphD(f: f), e: GraphE(f: f)),
            b: graphB,
            h: GraphH(g: HandWired.graphG, i: GraphI()))
    }
}

/// Reads the hand-written singleton the way a use site does. Not inlined, so a loop cannot hoist
/// the read out and measure nothing; FactoryKit's side is a call too.
@inline(never)
func handWiredShared() -> SharedService {
    HandWired.shared
}

/// The hand-written async singleton: a value created once by a task, which every use awaits. Not
/// inlined, like `handWiredShared()`.
@inline(never)
func handWiredAsyncShared() async -> SharedService {
    await HandWired.asyncShared.value
}

/// The hand-written version of a container a test sets up with ten overrides: an object holding
/// an optional replacement closure per dependency.
final class HandOverrides {
    var overrides = [(() -> SmallService)?](repeating: nil, count: 10)
}

/// Where both sides of a scenario put each result, so the optimizer can neither drop the work
/// nor keep the object on the stack. One per thread.
final class Sink: @unchecked Sendable {
    var value: AnyObject?

    @inline(never)
    func keep(_ object: AnyObject) {
        value = object
    }
}
