/// The default container. Extend it with your factories.
///
/// ```swift
/// extension Container {
///     var service: Factory<ServiceType> { self { Service() } }
/// }
///
/// let service = Container.shared.service()
/// ```
///
/// `shared` is task-local: `Container.$shared.withValue(Container()) { ... }` gives the code
/// inside (and the tasks it starts) a fresh container without touching anyone else's, which is
/// how tests run in parallel. Registrations and cached values belong to the instance and are
/// released with it.
public nonisolated final class Container: SharedContainer, @unchecked Sendable {
    /// The container resolved from by default; rebind it per task with `Container.$shared`.
    @TaskLocal public static var shared = Container()

    /// This container's registrations, options and caches.
    public let manager: ContainerManager

    /// Creates an empty container.
    public init() {
        manager = ContainerManager()
    }

    /// A subtree's child of `parent` (see `ContainerManager.init(parent:)`).
    package init(childOf parent: Container) {
        manager = ContainerManager(parent: parent.manager)
    }
}
