/// The error an asynchronous resolution throws when it would wait for itself: a dependency cycle.
///
/// ```swift
/// do {
///     _ = try await Container.shared.database()
/// } catch let cycle as DependencyCycleError {
///     print(cycle.path)   // ["Container.database<Database>", "Container.config<Config>", "Container.database<Database>"]
/// }
/// ```
///
/// Synchronous factories cannot throw, so a cycle among them stops the program with the same
/// message instead.
public struct DependencyCycleError: Error, CustomStringConvertible, Sendable {
    /// The factories of the cycle in resolution order; the first appears again at the end.
    public let path: [String]

    /// The message, with the path and advice on breaking the cycle.
    public var description: String { DependencyCycle.message(path: path) }

    init(path: [String]) {
        self.path = path
    }
}
