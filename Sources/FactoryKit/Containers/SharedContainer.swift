/// A container with a `shared` instance, which property wrappers and `dependency(_:)` resolve
/// from.
///
/// ```swift
/// public final class NetworkContainer: SharedContainer {
///     @TaskLocal public static var shared = NetworkContainer()
///     public let manager = ContainerManager()
/// }
/// ```
///
/// Declare `shared` with `@TaskLocal` so tests can give each test its own instance
/// (`NetworkContainer.$shared.withValue(NetworkContainer()) { ... }`, or a `ContainerTrait`).
public nonisolated protocol SharedContainer: ManagedContainer {
    /// The instance resolved from by default.
    static var shared: Self { get }
}

extension SharedContainer {
    #if !canImport(SwiftUI)
        // Where SwiftUI exists, Factory+SwiftUI.swift declares this returning `EmptyView`.
        /// Configures the container in one block: `Container.shared { $0.api { MockAPI() } }`.
        public func callAsFunction(_ transform: (Self) -> Void) {
            transform(self)
        }
    #endif

    /// Configures the container in one asynchronous block, which may hop to an actor to register
    /// actor-isolated factories. Returns the container.
    @discardableResult
    public func callAsFunction(_ transform: @Sendable @isolated(any) (Self) async -> Void) async -> Self {
        await transform(self)
        return self
    }
}
