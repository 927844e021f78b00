/// Sends what is asked of one container manager to another, for the code running in a task while
/// a route is bound: SwiftUI's `withContainer(_:_:)` on a custom container type gives the views
/// below it a child manager this way, because FactoryKit cannot make an instance of the user's
/// container type to hold it.
///
/// A route is bound only while a view's object is created (and inside `SceneContainer`'s
/// `$container { }`), so at most a few are bound at any time. Unbound, a manager pays one relaxed
/// load of a process-wide count per trip through its lock; the task-local is read only while some
/// task, anywhere, has a route bound.
enum ManagerRoutes {
    /// A manager and the one that answers for it.
    struct Route: @unchecked Sendable {
        // Both managers are `Sendable`; the table holds them strongly, so neither identifier is
        // reused while the route can be bound.
        let original: ContainerManager
        let target: ContainerManager
    }

    /// The routes bound in this task, by the identity of the manager they redirect.
    @TaskLocal static var bound: [ObjectIdentifier: Route] = [:]

    /// How many tasks have routes bound now, process-wide.
    @inline(__always)
    private static var activeCount: AtomicCounter { AtomicCounter(ProcessWords.managerRoutes) }

    /// Runs `body` with `routes` bound, added to those bound already (a route for the same manager
    /// replaces the outer one).
    static func withRoutes<Result>(_ routes: [ObjectIdentifier: Route], _ body: () throws -> Result) rethrows -> Result
    {
        if routes.isEmpty { return try body() }
        activeCount.add(1)
        defer { activeCount.add(-1) }
        return try $bound.withValue(bound.merging(routes) { _, inner in inner }, operation: body)
    }

    /// Whether any task has a route bound: one relaxed load.
    @inline(__always)
    static var anyBound: Bool { activeCount.value != 0 }

    /// The route's target for `manager` in this task, if one is bound.
    static func target(for manager: ContainerManager) -> ContainerManager? {
        bound[ObjectIdentifier(manager)]?.target
    }
}
