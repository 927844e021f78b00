/// Process-wide diagnostic settings: the trace switch, the logger and the slow-wait threshold.
///
/// They are global on purpose (API.md §16, item 12): `ContainerManager.trace` set on any container
/// traces every container. They live under their own lock and are read once per resolution.
@usableFromInline
enum Diagnostics {
    @usableFromInline
    struct Settings {
        var trace = false {
            didSet { Diagnostics.tracing.set(trace) }
        }
        var logger: (String) -> Void = { print($0) }
        var circularDependencyTesting = true
        var slowWaitThreshold: Double = 5
    }

    @usableFromInline
    static let settings = Locked(Settings())

    /// A copy of `settings.trace` that resolutions read without taking the lock.
    @usableFromInline
    static let tracing = AtomicFlag()

    @inlinable
    static var isTracing: Bool { tracing.value }

    /// Sends a line to the user's logger, outside the lock so the logger may itself use FactoryKit.
    static func log(_ message: String) {
        let logger = settings.withLock { $0.logger }
        logger(message)
    }

    /// Describes a factory the way traces and error messages name it: `Container.service<Service>`.
    static func describe(container: Any.Type, name: StaticString, result: Any.Type) -> String {
        "\(container).\(name)<\(result)>"
    }
}
