import Foundation

/// Process-wide diagnostic settings: the trace switch, the logger and the slow-wait threshold.
///
/// They are global on purpose (API.md §16, item 12): `ContainerManager.trace` set on any container
/// traces every container. They live under their own lock and are read once per resolution.
@usableFromInline
enum Diagnostics {
    struct Settings {
        var trace = false {
            didSet { updateObserving() }
        }
        /// Dependency-graph recordings in progress.
        var recorders: [GraphRecorder] = [] {
            didSet { updateObserving() }
        }
        /// Strict tests running (see `TestSupport`), which check every resolution.
        var strictTests = 0 {
            didSet { updateObserving() }
        }
        var logger: (String) -> Void = Diagnostics.writeToStandardError {
            didSet { hasCustomLogger = true }
        }
        /// Whether `logger` was replaced: a message that stops the program then goes to it too.
        var hasCustomLogger = false
        var circularDependencyTesting = true
        var slowWaitThreshold: Double = 5

        private func updateObserving() {
            Diagnostics.setObserving(trace || !recorders.isEmpty || strictTests > 0)
        }
    }

    static let settings = Locked(Settings())

    /// Whether anything watches resolutions (the trace or a graph recording): the one check a
    /// resolution makes, without taking the lock. A statically allocated word, so reading it
    /// needs no lazy-initialization check.
    @inlinable
    static var isObserving: Bool { ProcessWords.diagnostics.loadRelaxed() != 0 }

    static func setObserving(_ value: Bool) { ProcessWords.diagnostics.storeRelaxed(value ? 1 : 0) }

    /// Notes one resolution for the trace (returning the trace line to complete, if tracing) and
    /// for graph recordings.
    static func observe(
        container: any ManagedContainer, name: LiteralText, result: Any.Type, scope: Scope?, parent: String?,
        chain: ResolutionChain?, site: DefinitionSite
    ) -> Int? {
        let (tracing, recorders) = settings.withLock { ($0.trace, $0.recorders) }
        let containerType = type(of: container)
        let description = describe(container: containerType, name: name, result: result)
        if !recorders.isEmpty {
            let node = DependencyGraph.Node(
                container: "\(containerType)", factory: name.string, type: "\(result)", scope: scopeName(scope?.kind))
            for recorder in recorders where recorder.records(container) {
                recorder.note(node, id: description, parent: parent, site: site)
            }
        }
        guard tracing, let chain else { return nil }
        return chain.beginTrace(description)
    }

    /// The factory being resolved here, innermost first, on this thread or in this task: what a
    /// lazily injected property created now will name as its owner.
    static func currentResolution() -> String? {
        ResolutionChain.current.frames.last?.description ?? AsyncResolution.stack.last?.description
    }

    /// The parent to draw for a resolution that has none of its own: the owner of the lazily
    /// injected property that resolves it.
    @TaskLocal static var adoptedParent: String?

    /// Runs `make` with `owner` as the parent of the resolution it starts.
    static func resolving<Value>(adoptedBy owner: String, _ make: () -> Value) -> Value {
        $adoptedParent.withValue(owner, operation: make)
    }

    /// Whether the resolution trace is on.
    static var isTracing: Bool { settings.withLock { $0.trace } }

    /// The start of a trace line: `2:         Container.service<Service>`.
    static func traceLine(depth: Int, _ description: String) -> String {
        "\(depth): \(String(repeating: " ", count: depth * 4))\(description)"
    }

    /// The end of a trace line: ` = F:140234 LiveService`, the tag saying where the value came from
    /// (F the factory, R a registration, O a context override, C a cache), then the object's
    /// identity, for class instances only (a value type has none: boxing it to print an address
    /// would show a new one each time), then the runtime type.
    static func traceSuffix<T>(tag: ValueOrigin, value: T) -> String {
        let runtimeType = type(of: value as Any)
        guard runtimeType is AnyObject.Type else { return " = \(tag.letter) \(runtimeType)" }
        return " = \(tag.letter):\(Int(bitPattern: ObjectIdentifier(value as AnyObject))) \(runtimeType)"
    }

    /// A scope's name as graphs and messages give it; `unique` for none.
    static func scopeName(_ kind: Scope.Kind?) -> String {
        switch kind ?? .unique {
        case .unique: return "unique"
        case .cached: return "cached"
        case .shared: return "shared"
        case .singleton: return "singleton"
        case .graph: return "graph"
        case .taskBound: return "task-bound"
        }
    }

    /// The default logger: one line to standard error, so diagnostics never mix into what a
    /// program prints to standard output.
    static func writeToStandardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Stops the program with `message`, which the runtime prints to standard error. A logger
    /// the user installed receives it first; the default one does not, so it is printed once.
    static func stop(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
        TestSupport.announceStop(message)
        let logger = settings.withLock { $0.hasCustomLogger ? $0.logger : nil }
        logger?("FactoryKit: \(message)")
        Swift.fatalError(message, file: file, line: line)
    }

    /// Where the factory `id` (`Container.name<Type>`) is defined, `path:line`, if a graph
    /// recording saw it resolve.
    static func site(of id: String) -> String? {
        settings.withLock { $0.recorders }.lazy.compactMap { $0.site(of: id) }.first
    }

    /// Sends a line to the user's logger, outside the lock so the logger may itself use FactoryKit.
    static func log(_ message: String) {
        let logger = settings.withLock { $0.logger }
        logger(message)
    }

    /// Describes a factory the way traces and error messages name it: `Container.service<Service>`.
    static func describe(container: Any.Type, name: LiteralText, result: Any.Type) -> String {
        "\(container).\(name.string)<\(result)>"
    }
}
