/// One run of `validate` or `validateAll`: the fresh containers it resolves in, where their
/// issues go, and the graph of every resolution they make, from which scope leaks are read.
final class ValidationRun {
    let sink = ValidationSink()
    let recorder = GraphRecorder(only: [])
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

    /// Resolves `factory`, made on `container`, with the singletons of the step it runs in
    /// (``step(_:)``, new for each factory) and a fresh `Container.shared`, reporting to the run:
    /// `container` itself when it is a `Container`, else a new one that `prepare` sees first. A
    /// synchronous factory is resolved on `isolation`.
    func validate(
        _ factory: any ValidatableFactory, in container: any ManagedContainer, isolation: (any Actor)? = nil,
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
                sink: sink, shared: shared, singletons: Scope.singleton, isolation: isolation))
    }

    /// Lists the factories of the `validate` call at `site` that validates `list` (``ValidationChild/call(at:validating:)``)
    /// with `listing`, which returns how many there are and, where `list` does not name them, what
    /// they are (``ValidationChild/listing(of:)``), then makes their resolutions, `resolve(index)`
    /// each: first in child processes, which find the dependency cycles (see ``ValidationChild``),
    /// then here every one that met none, a cycle's findings and graph standing in for its
    /// resolution. A cycle met while listing is reported, and nothing resolved. The listing and
    /// each resolution run in a step of their own (``step(_:)``), so what the fresh containers do
    /// in `autoRegister()` is validation's too. Then ends the task-bound blocks validation opened,
    /// also when cancelled, so what was created in them is shut down. In a child, answers the
    /// call it was started for, or returns at once.
    func resolving(
        at site: String, validating list: String, listing: () -> (count: Int, listing: String?),
        _ resolve: (Int) async -> Void
    ) async throws {
        let call = ValidationChild.call(at: site, validating: list)
        if let request = ValidationChild.request {
            guard request.call == call else { return }
            await ValidationChild.answer(
                request, for: self, list: { await step(listing) }, { index in await step { await resolve(index) } })
        }
        do {
            let answers = try await ValidationChild.cycles(of: call)
            if let cycle = answers?.cycles[-1] {
                for finding in cycle.findings { sink.report(finding) }
                recorder.merge(cycle.graph)
                await sink.closeBlocks()
                return
            }
            try Task.checkCancellation()
            let (count, listed) = await step(listing)
            var cycles = answers?.cycles ?? [:]
            if let answers, !answers.match(count: count, listing: listed) {
                Diagnostics.log(
                    "FactoryKit: validate at \(call): a child process found other factories to resolve than this "
                        + "process; its answer is not used, and a cycle stops this process.")
                cycles = [:]
            }
            for index in 0..<count {
                try Task.checkCancellation()
                guard let cycle = cycles[index] else {
                    await step { await resolve(index) }
                    continue
                }
                for finding in cycle.findings { sink.report(finding) }
                recorder.merge(cycle.graph)
            }
        } catch {
            await sink.closeBlocks()
            throw error
        }
        await sink.closeBlocks()
    }

    /// Runs `body`, a listing or one factory's resolution, with new singletons (which the
    /// resolution of ``validate(_:in:isolation:preparing:)`` keeps), a fresh `Container.shared`
    /// and the run's sink bound: the fresh containers `body` makes run `autoRegister()` here, and
    /// leave nothing in the process's singletons; a cycle they reach is reported by a child.
    func step<R: Sendable>(_ body: () async -> R) async -> R {
        let shared = Container()
        adopt(shared)
        return await ValidationBindings(sink: sink, shared: shared, singletons: Scope.Singleton(), isolation: nil)
            .bind(body)
    }

    /// Returns the issues reported (with `oncePerCycle`, each dependency cycle once, however many
    /// of its factories found it), the scope leaks the graph shows, and the graph. After
    /// ``resolving(at:validating:listing:_:)``, which ended the task-bound blocks.
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

/// What a validation binds around one factory's resolution: where issues go, the fresh
/// `Container.shared` and singletons it resolves with, and the actor a synchronous factory runs on.
struct ValidationBindings: @unchecked Sendable {
    // Containers and singleton caches are safe across threads; the actor is only hopped to.
    let sink: ValidationSink
    let shared: Container
    let singletons: Scope.Singleton
    let isolation: (any Actor)?

    /// Runs `body` with the sink, the singletons and `Container.shared` bound, and outside the
    /// caller's test: validation reports what it finds itself, and resolves live definitions.
    func bind<R: Sendable>(_ body: () async -> R) async -> R {
        await TestSupport.$reporter.withValue(nil) {
            await TestSupport.$strictness.withValue(nil) {
                await ValidationSink.$current.withValue(sink) {
                    await Scope.$singleton.withValue(singletons) {
                        await Container.$shared.withValue(shared, operation: body)
                    }
                }
            }
        }
    }

    /// Runs a synchronous resolution, bound, on the factory's actor (where the caller runs when
    /// it has none).
    func resolve(_ body: @escaping () -> Void) async {
        // Run only on the actor the factory's closure belongs to, as the app would.
        let body = UncheckedSendable(body)
        await bind { await Self.run(on: isolation) { body.value() } }
    }

    /// Resolves an async factory, bound, and reports what it throws.
    func resolve(_ factory: String, _ body: () async throws -> Void) async {
        if let finding = await bind({ await ValidationSink.issue(resolving: factory, body) }) { sink.report(finding) }
    }

    private static func run(on actor: isolated (any Actor)?, _ body: @Sendable () -> Void) {
        body()
    }
}
