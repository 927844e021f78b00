/// How long a factory's instance lives, and who shares it.
///
/// Apply one with a modifier on the factory definition:
///
/// ```swift
/// extension Container {
///     var network: Factory<Networking> { self { Network() }.singleton }
///     var session: Factory<Session> { self { Session() }.scope(.session) }
/// }
///
/// extension Scope {
///     static let session = Cached()
/// }
/// ```
///
/// | scope | lives | shared by |
/// | --- | --- | --- |
/// | ``unique`` (the default) | not kept | nobody: a new instance every time |
/// | ``cached`` | until its container resets it or is released | resolutions on that container |
/// | ``shared`` | while someone else holds it (weakly cached) | resolutions on that container |
/// | ``singleton`` | until `Scope.singleton.reset()` | every container in the process |
/// | ``graph`` | one outermost resolution | factories resolved within it |
/// | ``request`` and other ``TaskBound`` scopes | one `withScope` block | the block and its child tasks |
///
/// A scoped factory's closure runs once per scope entry even when many threads resolve it for the
/// first time at once: one creates, the others wait for that instance. `nil` is never cached.
public class Scope: @unchecked Sendable {
    @usableFromInline let kind: Kind

    @usableFromInline
    enum Kind {
        case unique, cached, shared, singleton, graph, taskBound
    }

    @usableFromInline
    init() { kind = .unique }

    @usableFromInline
    init(kind: Kind) { self.kind = kind }

    /// Values kept by their container until it is reset or released.
    public static let cached = Cached()
    /// The scope of one outermost resolution: factories resolved inside it share one instance.
    public static let graph = Graph()
    /// Values kept weakly by their container: shared while someone else holds them.
    public static let shared = Shared()
    /// Values shared by every container in the process. Bound per task, so a test can give each
    /// test its own singletons with `Scope.$singleton.withValue(Scope.singleton.clone()) { ... }`.
    @TaskLocal public static var singleton = Singleton.main
    /// No caching: a new instance for every resolution.
    public static let unique = Unique()
}
