/// One run of `validate` or `validateAll`: the fresh containers it resolves in, where their
/// issues go, and the graph of every resolution they make, from which scope leaks are read.
final class ValidationRun {
    let sink = ValidationSink()
    private let recorder = GraphRecorder(only: [])
    /// Kept alive until the graph is read, so the recorder's identifiers stay theirs.
    private var containers: [any ManagedContainer] = []

    /// Starts recording; ``stopRecording()`` must follow, also when validation throws.
    init() {
        Diagnostics.settings.withLock { $0.recorders.append(recorder) }
    }

    func stopRecording() {
        Diagnostics.settings.withLock { $0.recorders.removeAll { $0 === recorder } }
    }

    /// Takes `container`, fresh, into the run: a promise left unregistered is an issue, not a
    /// stop, and its resolutions are recorded. `prepare` sees it first.
    func adopt(_ container: any ManagedContainer, preparing prepare: (any ManagedContainer) -> Void = { _ in }) {
        container.manager.promiseTriggersError = false
        prepare(container)
        recorder.keep(container)
        containers.append(container)
    }

    /// Resolves `factory`, made on `container`, with singletons of its own and a fresh
    /// `Container.shared`, reporting to the run: `container` itself when it is a `Container`, else
    /// a new one that `prepare` sees first.
    func validate(
        _ factory: any ValidatableFactory, in container: any ManagedContainer,
        preparing prepare: (any ManagedContainer) -> Void = { _ in }
    ) async {
        let shared: Container
        if let container = container as? Container {
            shared = container
        } else {
            shared = Container()
            adopt(shared, preparing: prepare)
        }
        await factory.validate(
            with: ValidationBindings(
                sink: sink, factory: factory.validationName, shared: shared, singletons: Scope.Singleton()))
    }

    /// Runs `resolutions`, then ends the task-bound blocks validation opened, also when
    /// `resolutions` throws (a cancelled validation), so what was created in them is shut down.
    func resolving(_ resolutions: () async throws -> Void) async throws {
        do {
            try await resolutions()
        } catch {
            await sink.closeBlocks()
            throw error
        }
        await sink.closeBlocks()
    }

    /// Returns the issues reported (with `oncePerCycle`, each dependency cycle once, however many
    /// of its factories found it), the scope leaks the graph shows, and the graph. After
    /// ``resolving(_:)``, which ended the task-bound blocks.
    func finish(oncePerCycle: Bool = false) -> (issues: [ValidationIssue], graph: DependencyGraph) {
        withExtendedLifetime(containers) {
            let graph = recorder.graph
            return ((oncePerCycle ? sink.issuesOncePerCycle : sink.issues) + Self.scopeSmells(in: graph), graph)
        }
    }

    static func scopeSmells(in graph: DependencyGraph) -> [ValidationIssue] {
        let scopes = Dictionary(graph.nodes.map { ($0.id, $0.scope) }, uniquingKeysWith: { first, _ in first })
        return graph.edges.compactMap { edge in
            guard scopes[edge.from] == "singleton", let captured = scopes[edge.to],
                ["unique", "cached", "shared", "graph", "task-bound"].contains(captured)
            else { return nil }
            // A task-bound value belongs to its block: the fix is on the singleton's side.
            let fix =
                captured == "task-bound"
                ? "Make \(edge.from) task-bound too, or resolve \(edge.to) each time it is used instead of keeping it."
                : "Make \(edge.to) a singleton too, or resolve it when it is needed."
            return ValidationIssue(
                kind: .scopeSmell, factory: edge.from,
                message:
                    "\(edge.from) is a singleton but depends on \(edge.to), which is \(captured): the singleton keeps "
                    + "the first one forever. " + fix)
        }
    }
}
