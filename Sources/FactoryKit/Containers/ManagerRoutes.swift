/// Sends what is asked of one container manager to another, for the code running in a task while
/// a route is bound: SwiftUI's `withContainer(_:_:)` on a custom container type gives the views
/// below it a child manager this way, because FactoryKit cannot make an instance of the user's
/// container type to hold it.
///
/// Whether a resolution is routed depends only on the task it runs in: a manager that was ever
/// routed says so in its state (`isRouted`, set before the route is first bound, never cleared),
/// and only then does its lock section read the task-local table.
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

    /// Runs `body` with `routes` bound, added to those bound already (a route for the same manager
    /// replaces the outer one).
    static func withRoutes<Result>(_ routes: [ObjectIdentifier: Route], _ body: () throws -> Result) rethrows -> Result
    {
        if routes.isEmpty { return try body() }
        for route in routes.values { route.original.markRouted() }
        return try $bound.withValue(bound.merging(routes) { _, inner in inner }, operation: body)
    }

    /// The route's target for `manager` in this task, if one is bound.
    static func target(for manager: ContainerManager) -> ContainerManager? {
        bound[ObjectIdentifier(manager)]?.target
    }
}
