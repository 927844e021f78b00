extension Scope {
    /// Gives one instance per `withScope` block: one per request, job or session of work.
    ///
    /// ```swift
    /// extension Container {
    ///     var requestLogger: Factory<RequestLogger> { self { RequestLogger(id: UUID()) }.scope(.request) }
    /// }
    ///
    /// await Container.shared.withScope(.request) {
    ///     handle(request)   // every resolution of requestLogger in here, and in child tasks, shares one
    /// }
    /// ```
    ///
    /// The block's instances are shared by every child task inside it and released when it ends,
    /// after the ones conforming to ``Shutdownable`` are shut down. Blocks nest (an inner block of
    /// the same scope starts fresh) and run concurrently without seeing each other's instances.
    /// Resolving such a factory outside any block of its scope is an error: an async factory
    /// throws ``InactiveScopeError``; a synchronous one stops the program with that message.
    public final class TaskBound: Scope, @unchecked Sendable {
        /// Creates a task-bound scope of its own, with blocks independent of other scopes'.
        public override init() { super.init(kind: .taskBound) }
    }

    /// The scope of one request: `try await Container.shared.withScope(.request) { ... }`.
    public static let request = TaskBound()
}

/// A dependency with work to do when its scope ends: closing a transaction, flushing a log.
///
/// Instances created in a ``Scope/TaskBound`` block are shut down when the block ends, in reverse
/// order of creation, each once. An error is logged and does not stop the others.
public protocol Shutdownable: Sendable {
    /// Releases what the instance holds; called once, when its scope ends.
    func shutdown() async throws
}

/// The error of resolving a factory scoped to a ``Scope/TaskBound`` scope outside any block of it.
public struct InactiveScopeError: Error, CustomStringConvertible, Sendable {
    /// The factory, as `Container.factory<Type>`.
    public let factory: String

    /// What went wrong and how to fix it.
    public var description: String {
        "\(factory) is scoped to a task-bound scope, but no withScope block of that scope is active in "
            + "this task. Resolve it inside `await container.withScope(...) { ... }` (`try await` if the block "
            + "throws; child tasks inherit the block, Task.detached and other threads do not), or give the factory "
            + "another scope."
    }
}

extension ManagedContainer {
    /// Runs `body` in a new block of `scope`: factories with that scope give one instance for the
    /// whole block, shared by its child tasks, and shut down and released when it ends.
    ///
    /// ```swift
    /// try await Container.shared.withScope(.request) {
    ///     try await handle(request)
    /// }
    /// ```
    public func withScope<Result>(
        _ scope: Scope.TaskBound, _ body: () async throws -> Result
    ) async rethrows -> Result {
        let block = ScopeBlock()
        var blocks = ScopeBlock.blocks
        blocks[ObjectIdentifier(scope)] = block
        do {
            let result = try await ScopeBlock.$blocks.withValue(blocks) { try await body() }
            await block.close()
            return result
        } catch {
            await block.close()
            throw error
        }
    }
}

/// Shuts down scoped instances that conform to ``Shutdownable`` when their scope or container is
/// reset: newest first, each once, errors logged.
enum ScopedShutdown {
    private static let counter = Locked<UInt64>(0)

    /// A number that grows with every scoped value created in the process.
    @usableFromInline
    static func nextOrder() -> UInt64 {
        counter.withLock { value in
            value &+= 1
            return value
        }
    }

    /// The shut-down-able instances among `values`, newest first.
    static func instances(in values: [StoredValue]) -> [any Shutdownable] {
        values.compactMap(\.shutdownable)
            .sorted { $0.order > $1.order }
            .map(\.instance)
    }

    /// Starts shutting down the instances among `values`. Resets are synchronous, so the work
    /// runs in a task of its own.
    static func schedule(_ values: [StoredValue]) {
        let instances = UncheckedSendable(instances(in: values))
        guard !instances.value.isEmpty else { return }
        Task.detached {
            for instance in instances.value {
                do {
                    try await instance.shutdown()
                } catch {
                    Diagnostics.log("FactoryKit: shutting down \(type(of: instance)) after a reset failed: \(error)")
                }
            }
        }
    }
}

/// Reaches the creation order of a `ValueBox` without knowing its type.
protocol OrderedBox {
    var creationOrder: UInt64 { get }
}

extension ValueBox: OrderedBox {
    var creationOrder: UInt64 { order }
}

/// Identifies a factory's values inside a block: the container and the factory.
@usableFromInline
struct BlockKey: Hashable, Sendable {
    @usableFromInline let container: ObjectIdentifier
    @usableFromInline let factory: FactoryKey
}

/// The instances of one `withScope` block.
@usableFromInline
final class ScopeBlock: @unchecked Sendable {
    struct State {
        var groups: [BlockKey: SlotGroup] = [:]
        /// Instances to shut down, in order of creation.
        var created: [(label: String, instance: any Shutdownable)] = []
        var isClosed = false
    }

    let state = Locked(State())

    /// The blocks the current task is inside, by scope.
    @TaskLocal static var blocks: [ObjectIdentifier: ScopeBlock] = [:]

    /// The block of `scope` the current task is inside; while validation runs, a block it opened
    /// for the purpose when the task is inside none.
    @usableFromInline
    static func active(for scope: Scope) -> ScopeBlock? {
        blocks[ObjectIdentifier(scope)] ?? ValidationSink.current?.block(for: scope)
    }

    /// Looks the value of `key` up, reserving its slot if it must be created; for a
    /// `scopeOnParameters` factory, in the slot `parameters` chooses with no lock held.
    ///
    /// The slot is chosen again, with no lock held, while the group's table changes under the
    /// choice.
    @usableFromInline
    func lookup<Reservation>(
        _ key: BlockKey, parameters: ParameterLookup?, timeToLive: UInt64?, reserve: () -> Reservation
    ) -> (SlotLookup<Reservation>, ParameterSlot?) {
        // Only a parameter's slot can drop anything here (a table it replaces).
        let dropped = parameters.map { _ in DroppedValues() }
        while true {
            let result = state.withLock { state -> (SlotLookup<Reservation>, ParameterSlot?)? in
                var slot: ParameterSlot?
                if let parameters, let dropped {
                    guard let chosen = parameters.slot(in: &state.groups[key, default: SlotGroup()], dropped: dropped)
                    else { return nil }
                    slot = chosen
                }
                let lookup = state.groups[key, default: SlotGroup()].lookup(
                    parameter: slot, timeToLive: timeToLive, reserve: reserve)
                return (lookup, slot)
            }
            withExtendedLifetime(dropped?.take()) {}
            if let result { return result }
            parameters?.choose()
        }
    }

    /// Publishes (or, with `nil`, drops) a value created in this block.
    @usableFromInline
    func publish(
        _ stored: StoredValue?, key: BlockKey, parameter: ParameterSlot?, for flight: Flight, timestamp: UInt64,
        label: String
    ) {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.groups[key]?.publish(stored, parameter: parameter, for: flight, timestamp: timestamp)
            if let instance = ScopeBlock.shutdownable(stored) { state.created.append((label, instance)) }
        }
    }

    private static func shutdownable(_ stored: StoredValue?) -> (any Shutdownable)? {
        stored?.shutdownable?.instance
    }

    /// Ends the block: shuts its instances down in reverse order of creation, each once, logging
    /// errors without stopping, then releases everything.
    func close() async {
        let created = state.withLock { state -> [(label: String, instance: any Shutdownable)] in
            state.isClosed = true
            defer {
                state.created.removeAll()
                state.groups.removeAll()
            }
            return state.created
        }
        for (label, instance) in created.reversed() {
            do {
                try await instance.shutdown()
            } catch {
                Diagnostics.log("FactoryKit: shutting down \(label) at the end of its scope failed: \(error)")
            }
        }
    }
}

/// Warns when a kept value captures a task-bound one: a singleton, cached or shared value whose
/// creation resolves a task-bound factory keeps that block's value after the block ends, and
/// every later block shares it (two requests, one request logger). Logged once per pair; in a
/// test run through FactoryTesting, also an issue of the test at the kept factory's definition,
/// every time.
enum TaskBoundCapture {
    private static let warned = Locked<Set<String>>([])

    /// Called as a task-bound factory, `factory`, resolves inside its block.
    static func check(resolving factory: String) {
        guard let chain = ResolutionChain.currentIfAny, let creation = chain.keptCreations.last,
            creation.frameIndex < chain.frames.count
        else { return }
        let owner = chain.frames[creation.frameIndex].description
        let text = message(owner: owner, scope: Diagnostics.scopeName(creation.scope), taskBound: factory)
        _ = TestSupport.recordInTest(text, site: creation.site)
        guard warned.withLock({ $0.insert(owner + " " + factory).inserted }) else { return }
        Diagnostics.log("FactoryKit: " + text)
    }

    static func message(owner: String, scope: String, taskBound factory: String) -> String {
        "\(owner) is \(scope) and its creation resolved \(factory), which is task-bound: \(owner) "
            + "keeps this block's value after the block ends, and later blocks share it. Make \(owner) "
            + "task-bound too, or resolve \(factory) each time it is used instead of keeping it."
    }
}
