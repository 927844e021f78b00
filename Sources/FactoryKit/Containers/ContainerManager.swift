import Foundation

/// Holds a container's registrations, options and caches, and the switches that govern them.
///
/// Every container owns one manager (`let manager = ContainerManager()`). It is safe to use from
/// any thread; its lock is held only for lookups and updates, never while a factory closure,
/// decorator or `autoRegister()` runs.
///
/// ```swift
/// Container.shared.manager.defaultScope = .cached
/// Container.shared.manager.reset(options: .registration)
/// ```
public final nonisolated class ContainerManager: @unchecked Sendable {
    /// Everything the manager guards, behind the container's one lock. Reach it through
    /// `withState`, which releases what a locked section dropped once the lock is given up.
    @usableFromInline let lockedState: Locked<ManagerState>

    /// Runs `body` under the container's lock. What `body` took out of the container (see
    /// `DroppedValues`) is released after the lock is given up, on this thread: a `deinit` there
    /// may use the container.
    ///
    /// In a task where SwiftUI routes this manager to a subtree's child (see `ManagerRoutes`), the
    /// child's state is used instead.
    @usableFromInline
    func withState<Result>(_ body: (inout ManagerState) -> Result) -> Result {
        withRoutedState { state, _ in body(&state) }
    }

    /// `withState`, also handing `body` the manager whose state it is.
    func withRoutedState<Result>(_ body: (inout ManagerState, ContainerManager) -> Result) -> Result {
        var result: Result?
        let routed = withOwnState { state -> Bool in
            if state.isRouted { return true }
            result = body(&state, self)
            return false
        }
        if !routed { return result.unsafelyUnwrapped }
        let target = ManagerRoutes.target(for: self) ?? self
        return target.withOwnState { body(&$0, target) }
    }

    /// Marks this manager as one a route may redirect, before the route is first bound.
    func markRouted() {
        withOwnState { state in
            if !state.isRouted { state.isRouted = true }
        }
    }

    /// `withState` on this manager's own state, whatever the task routes.
    func withOwnState<Result>(_ body: (inout ManagerState) -> Result) -> Result {
        // Optional, so a section that dropped nothing releases nothing, not even the empty array.
        var dropped: [Any]?
        let result = lockedState.withLock { state in
            let result = body(&state)
            if !state.dropped.isEmpty { dropped = state.dropped.take() }
            return result
        }
        withExtendedLifetime(dropped) {}
        return result
    }

    /// The manager a subtree's child reads through to for what it has not set itself (SwiftUI's
    /// `withContainer(_:_:)`); `nil` for every other manager.
    let parent: ContainerManager?

    /// Creates an empty manager.
    public init() {
        parent = nil
        lockedState = Locked(ManagerState())
    }

    /// A subtree's child of `parent`: it reads `parent`'s registrations, context overrides,
    /// decorators, scopes and settings for what it does not set itself, at each resolution, and
    /// keeps scoped values of its own from the start. Its own `autoRegister()` never runs: what
    /// the parent's registered is read through.
    package init(parent: ContainerManager) {
        self.parent = parent
        var state = ManagerState()
        state.autoRegistration = .done
        state.isChild = true
        state.promiseTriggersError = parent.promiseTriggersError
        lockedState = Locked(state)
    }

    /// The scope of every factory on this container that does not name one; `nil` means `unique`.
    ///
    /// Usually set in `autoRegister()`. Cleared by `reset(options: .all)`.
    public var defaultScope: Scope? {
        get { withState { $0.defaultScope } }
        set {
            let scope = newValue.map(Scope.Singleton.stored)
            withState { $0.defaultScope = scope }
        }
    }

    /// Kept for source compatibility with Factory; FactoryKit always detects dependency cycles.
    ///
    /// Detection is keyed by container instance, factory and parameter, so it has no false
    /// positives, and it costs nothing until a resolution nests eight levels deep. Setting this has
    /// no effect. Like Factory's flag it is process-wide.
    public var circularDependencyTesting: Bool {
        get { Diagnostics.settings.withLock { $0.circularDependencyTesting } }
        set { Diagnostics.settings.withLock { $0.circularDependencyTesting = newValue } }
    }

    /// Whether resolving a `promised()` factory that was never registered stops the program.
    ///
    /// Defaults to `true` in debug builds outside SwiftUI previews, `false` otherwise, where such a
    /// factory resolves to `nil`. Per container; reset by `reset(options: .all)`.
    public var promiseTriggersError: Bool {
        get { withState { $0.promiseTriggersError } }
        set { withState { $0.promiseTriggersError = newValue } }
    }

    /// Turns the resolution trace on or off for every container in the process.
    ///
    /// Each resolution then writes one line to ``logger``, parent first, when the outermost
    /// resolution completes:
    /// `0: Container.service<Service> = F:140264090034416 Service`
    /// (depth, indented factory, `F` original closure / `R` registration / `O` context override /
    /// `C` cache hit, the object's identity for class instances, and the runtime type). Works in
    /// every build.
    public var trace: Bool {
        get { Diagnostics.settings.withLock { $0.trace } }
        set { Diagnostics.settings.withLock { $0.trace = newValue } }
    }

    /// Receives trace lines and FactoryKit's warnings; by default each line goes to standard
    /// error, so it never mixes into a program's output. Process-wide.
    public var logger: (String) -> Void {
        get { Diagnostics.settings.withLock { $0.logger } }
        set { Diagnostics.settings.withLock { $0.logger = newValue } }
    }

    /// How long a thread waits for another thread's creation of the same scoped instance before
    /// it logs which factory it waits for (a wait that can never end, such as a creator blocked on
    /// the waiting thread through `DispatchQueue.sync`, is otherwise silent). Process-wide; 5 s by
    /// default; zero or less turns the warning off.
    public var waitWarningInterval: TimeInterval {
        get { Diagnostics.settings.withLock { $0.slowWaitThreshold } }
        set { Diagnostics.settings.withLock { $0.slowWaitThreshold = newValue } }
    }

    /// Removes what was added to this container from outside the factory definitions.
    ///
    /// - `.all`: registrations, context overrides, options, cached values, `defaultScope`, the
    ///   container decorator and `promiseTriggersError`; `autoRegister()` runs again on next use.
    /// - `.registration`: registrations only (cached values stay); `autoRegister()` runs again.
    /// - `.context`: context overrides only.
    /// - `.scope`: cached values only.
    /// - `.none`: nothing.
    ///
    /// Cached instances that conform to ``Shutdownable`` and are dropped by the reset are shut down
    /// in a task of their own, newest first, each once.
    ///
    /// Singletons are not the container's and stay; use `Scope.singleton.reset()`. Values already
    /// handed out are never affected.
    public func reset(options: FactoryResetOptions = .all) {
        let dropped = withState { state -> [StoredValue] in
            var dropped: [StoredValue] = []
            switch options {
            case .all:
                // The options' closures go to `state.dropped`, released after the lock.
                for record in state.records.values {
                    record.clearOptions()
                    dropped += record.cache.drain()
                    record.cacheScope = nil
                }
                state.autoRegistration = .pending
                state.defaultScope = nil
                state.decorator = nil
                state.promiseTriggersError = FactoryContext.promiseTriggersErrorByDefault
            case .registration:
                for record in state.records.values { record.registration = nil }
                state.autoRegistration = .pending
            case .context:
                for record in state.records.values { record.contexts = nil }
            case .scope:
                for record in state.records.values { dropped += record.cache.drain() }
            case .none:
                break
            }
            return dropped
        }
        ScopedShutdown.schedule(dropped)
    }

    /// Drops this container's cached values made by one scope instance, such as a custom
    /// `extension Scope { static let session = Cached() }`.
    ///
    /// Singletons are not managed by containers: passing one logs a note and changes nothing (use
    /// `Scope.singleton.reset()`). `unique` and `graph` hold nothing, so they are no-ops.
    public func reset(scope: Scope) {
        if scope is Scope.Singleton {
            Diagnostics.log(
                "FactoryKit: reset(scope:) ignores singletons, which no container owns; call Scope.singleton.reset() instead."
            )
            return
        }
        let id = ObjectIdentifier(scope)
        let dropped = withState { state -> [StoredValue] in
            var dropped: [StoredValue] = []
            for record in state.records.values where record.cacheScope == id {
                dropped += record.cache.drain()
            }
            return dropped
        }
        ScopedShutdown.schedule(dropped)
    }

    /// Saves this container's registrations, options, cached values and settings, to be restored
    /// by ``pop()``. Singletons, the global trace settings and `FactoryContext` are not saved.
    public func push() {
        withState { state in
            let autoRegistrationDone: Bool
            if case .done = state.autoRegistration { autoRegistrationDone = true } else { autoRegistrationDone = false }
            state.snapshots.append(
                ManagerState.Snapshot(
                    records: state.records.mapValues { ($0.options, $0.cache.settled, $0.cacheScope) },
                    autoRegistrationDone: autoRegistrationDone,
                    defaultScope: state.defaultScope,
                    decorator: state.decorator,
                    promiseTriggersError: state.promiseTriggersError
                )
            )
        }
    }

    /// Restores what the latest ``push()`` saved.
    ///
    /// Without a matching `push()` it changes nothing and logs a note: a stray `pop()` is a bug in
    /// the caller, but not one worth stopping the program for.
    public func pop() {
        // What the restored options and caches replace is released after the lock (see
        // `withState`): a `deinit` may resolve.
        let restored = withState { state -> Bool in
            guard let snapshot = state.snapshots.popLast() else { return false }
            state.dropped.keep(snapshot)
            for (key, record) in state.records {
                let saved = snapshot.records[key]
                record.restore(options: saved?.options ?? FactoryRecord.Options())
                state.release(record.cache.drain())
                record.cache = saved?.cache ?? SlotGroup()
                record.cacheScope = saved?.cacheScope
            }
            state.autoRegistration = snapshot.autoRegistrationDone ? .done : .pending
            state.defaultScope = snapshot.defaultScope
            state.decorator = snapshot.decorator
            state.promiseTriggersError = snapshot.promiseTriggersError
            return true
        }
        if !restored {
            Diagnostics.log("FactoryKit: pop() without a matching push() on this container; nothing was restored.")
        }
    }
}
