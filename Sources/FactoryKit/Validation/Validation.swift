/// A problem found by `validate`: a factory that threw, a dependency cycle, a promised factory
/// never registered, a scope smell, or a listed factory it could not resolve.
public struct ValidationIssue: Sendable, Equatable, Codable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// An async factory threw.
        case threw
        /// Async factories wait for each other in a cycle.
        case cycle
        /// A `promised()` factory was resolved but nothing is registered for it.
        case unregisteredPromise
        /// A longer-lived value captures a shorter-lived one, such as a singleton depending on a
        /// unique or cached value.
        case scopeSmell
        /// A factory could not be resolved: it takes a parameter.
        case skipped
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// The factory at fault, as `Container.factory<Type>`.
    public let factory: String
    /// What went wrong, and what to do about it.
    public let message: String

    /// The message.
    public var description: String { message }

    /// Creates an issue.
    public init(kind: Kind, factory: String, message: String) {
        self.kind = kind
        self.factory = factory
        self.message = message
    }
}

extension ManagedContainer {
    /// Resolves `factories` in a fresh container and reports what is wrong with the wiring,
    /// without crashing.
    ///
    /// ```swift
    /// @Test func wiringIsSound() async throws {
    ///     #expect(try await Container.shared.validate(\.database, \.contentModel).isEmpty)
    /// }
    /// ```
    ///
    /// `fresh` makes the containers to resolve in, one per factory, so this container's caches
    /// are left alone; each comes with a new, empty set of singletons, so validation neither sees
    /// nor leaves process-wide singletons, also those the container's `autoRegister()` resolves.
    /// With no factories listed, every factory registered on a fresh container (for example in
    /// `autoRegister()`) is resolved, and a line saying which were resolved and which were
    /// skipped goes to the logger; a cycle that `autoRegister()` reaches is reported, and then
    /// nothing else is resolved.
    ///
    /// Reported: each factory in a dependency cycle (with its path, and where each of its
    /// factories is defined, `path:line`), each async factory that
    /// throws, each `promised()` factory resolved but never registered, each singleton that
    /// depends on a unique, cached, shared, graph or task-bound value, capturing it forever, and
    /// each listed factory that cannot be resolved without a parameter (`skipped`). A factory in a
    /// task-bound scope, such as `.request`, is resolved in a block of that scope that validation
    /// opens and ends, shutting down what it created.
    ///
    /// While a factory resolves, `Container.shared` is a fresh `Container` too (the factory's own
    /// container when it is a `Container`), never this one or the caller's: a factory that
    /// resolves through `Container.shared`, as `@Injected` does, leaves nothing in the caller's
    /// containers. A synchronous factory defined on the main actor or a global actor
    /// (`@MainActor var model: Factory<Model>`) is resolved on that actor (one found with no
    /// factories listed, through its registration, where `validate` runs).
    ///
    /// A synchronous factory cannot return an error, so a dependency cycle stops the process that
    /// resolves it. On Linux and macOS the factories are therefore resolved first in a child
    /// process: this executable started again (in a test under FactoryTesting's trait or
    /// `ContainerTestCase`, only the running test; elsewhere with the same arguments), where this
    /// call (`fileID`, `line` and `column`, which you leave to their defaults, with the container
    /// type and `factories`) resolves them in turn and reports a cycle to this process, which
    /// then resolves here every factory that met none. A factory of a cycle never runs in this
    /// process. Calls that run at once from one call site with different lists are never
    /// confused; two with the same list may get each other's answer, which differs from their
    /// own only if their factories depend on state that differs between the calls.
    ///
    /// The child runs this executable again from its start, so what runs before this call runs
    /// twice, side effects included, and if it waits (takes a lock this process holds) the child
    /// never reaches the call. The child reads no input: its standard input is `/dev/null`, so
    /// code that reads input reads nothing there, and what this process has yet to read stays
    /// its own. Call `validate` in a test, or early, before such code, or set
    /// `FACTORYKIT_VALIDATE_IN_PROCESS`. A child that has not reached the call within 300 s
    /// (`FACTORYKIT_VALIDATE_CHILD_DEADLINE`, in seconds, changes it; `inf` means no deadline)
    /// is terminated, with a line to the logger. Cancelling the task that awaits `validate` terminates the child
    /// and throws `CancellationError`; no child outlives this call, unless this process is killed
    /// meanwhile.
    ///
    /// In the child, every other `validate` call returns at once, having resolved nothing. A call
    /// reached only depending on what an earlier one returned
    /// (`if !issues.isEmpty { try await container.validate(...) }`) is therefore never reached
    /// in the child: this process resolves its factories itself, and a cycle among them stops
    /// it. Make such a call unconditional, or validate its factories in a test of their own.
    ///
    /// Where no child process can be started (iOS, tvOS, watchOS and visionOS, with
    /// `FACTORYKIT_VALIDATE_IN_PROCESS` set, or in a process that is itself such a child), or the
    /// child did not reach this call, crashed, or answered for other factories than this process
    /// found registered, the factories are resolved here from the one that child was asked about
    /// on, and a cycle among them stops the process, naming each factory of the cycle with
    /// `path:line`. A cycle an earlier child found stays reported, and is not resolved here.
    public func validate(
        _ factories: [PartialKeyPath<Self>], in fresh: @autoclosure () -> Self, fileID: String = #fileID,
        line: Int = #line, column: Int = #column
    ) async throws -> [ValidationIssue] {
        let run = ValidationRun()
        defer { run.stopRecording() }
        func nextContainer() -> Self {
            let container = fresh()
            run.adopt(container)
            return container
        }
        // With no factories listed, those registered on a fresh container, listed in a step of
        // the run: its `autoRegister()` runs with validation's singletons, and a cycle it reaches
        // is reported.
        var registered: (resolvable: [BoundValidator], skipped: [String])?
        let list =
            "\(Self.self)"
            + (factories.isEmpty ? " registered" : ValidationChild.stable(factories.map { " \($0)" }.joined()))
        try await run.resolving(at: "\(fileID):\(line):\(column)", validating: list) {
            guard factories.isEmpty else { return (factories.count, nil) }
            let listed = nextContainer().registeredFactories()
            registered = listed
            return (listed.resolvable.count, ValidationChild.listing(of: listed.resolvable.map(\.description)))
        } _: {
            let container = nextContainer()
            if let registered {
                await run.validate(registered.resolvable[$0].rebound(to: container), in: container)
            } else {
                let keyPath = factories[$0]
                let (target, isolation) = IsolationProbe.reading {
                    container[keyPath: keyPath] as? any ValidatableFactory
                }
                guard let target else { return }
                await run.validate(target, in: container, isolation: isolation)
            }
        }
        if let registered { Diagnostics.log(Self.summary(of: registered)) }
        return run.finish().issues
    }

    /// Validates the listed factories; see ``validate(_:in:fileID:line:column:)-([PartialKeyPath<Self>],_,_,_,_)``.
    public func validate(
        _ factories: PartialKeyPath<Self>..., in fresh: @autoclosure () -> Self, fileID: String = #fileID,
        line: Int = #line, column: Int = #column
    ) async throws -> [ValidationIssue] {
        try await validate(factories, in: fresh(), fileID: fileID, line: line, column: column)
    }

    /// Every factory registered on this container: those validation can resolve, and the names
    /// of those it cannot (they take a parameter).
    func registeredFactories() -> (resolvable: [BoundValidator], skipped: [String]) {
        manager.withState(of: self) { state in
            var resolvable: [BoundValidator] = []
            var skipped: [String] = []
            for record in state.records.values where record.registration != nil {
                if let validator = record.validator, let site = record.validatorSite {
                    resolvable.append(
                        BoundValidator(container: self, name: record.key.name, site: site, validator: validator))
                } else {
                    skipped.append("\(Self.self).\(record.key.name.string)")
                }
            }
            return (resolvable.sorted { $0.description < $1.description }, skipped.sorted())
        }
    }

    /// What `validate()` with no factories listed says it did.
    static func summary(of registered: (resolvable: [BoundValidator], skipped: [String])) -> String {
        let resolved = registered.resolvable.map(\.description)
        var text =
            "FactoryKit: validate() resolved the \(resolved.count) factories registered on \(Self.self)"
            + (resolved.isEmpty ? "" : ": " + resolved.joined(separator: ", "))
        if !registered.skipped.isEmpty {
            text +=
                "; skipped \(registered.skipped.count) that take a parameter: "
                + registered.skipped.joined(separator: ", ")
        }
        return text + "."
    }
}

extension Container {
    /// Resolves `factories` in a fresh `Container`; see ``ManagedContainer/validate(_:in:fileID:line:column:)-([PartialKeyPath<Self>],_,_,_,_)``.
    ///
    /// `#expect(try await Container.shared.validate(\.database, \.contentModel).isEmpty)`
    public func validate(
        _ factories: PartialKeyPath<Container>..., fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) async throws -> [ValidationIssue] {
        try await validate(factories, in: Container(), fileID: fileID, line: line, column: column)
    }
}

/// Something `validate` can resolve and judge.
protocol ValidatableFactory {
    /// The factory as reports name it, `Container.factory<Type>`.
    var validationName: String { get }

    /// Resolves the factory with `bindings` bound and reports what is wrong to their sink. A
    /// synchronous factory runs on the actor its closure is isolated to.
    func validate(with bindings: ValidationBindings) async
}

/// Resolves a registered factory, named by its key and definition site, on a given container: how
/// validation reaches what `autoRegister()` set up.
@usableFromInline
protocol FactoryValidating {
    /// How to resolve the factory named `name` on `container`.
    static func resolution(_ container: any ManagedContainer, name: LiteralText, site: DefinitionSite)
        -> ValidationResolution
}

/// A resolution validation runs.
@usableFromInline
enum ValidationResolution {
    case synchronous(() -> Void)
    /// The factory's name, as reports give it, and its resolution.
    case asynchronous(String, () async throws -> Void)
}

@usableFromInline
enum SyncValidator<T>: FactoryValidating {
    @usableFromInline
    static func resolution(_ container: any ManagedContainer, name: LiteralText, site: DefinitionSite)
        -> ValidationResolution
    {
        .synchronous { _ = Factory<T>(container, name: name, site: site) { fatalError("registered") }() }
    }
}

@usableFromInline
enum AsyncValidator<T>: FactoryValidating {
    @usableFromInline
    static func resolution(_ container: any ManagedContainer, name: LiteralText, site: DefinitionSite)
        -> ValidationResolution
    {
        let factory = AsyncFactory<T>(container, name: name, site: site) { fatalError("registered") }
        return .asynchronous(factory.registration.description) { _ = try await factory() }
    }
}

/// A registered factory, named by its key and definition site, bound to a container.
struct BoundValidator: ValidatableFactory, @unchecked Sendable {
    // The container is Sendable and the rest are plain values.
    let container: any ManagedContainer
    let name: LiteralText
    let site: DefinitionSite
    let validator: any FactoryValidating.Type

    var description: String { "\(type(of: container)).\(name.string)" }

    var validationName: String { description }

    /// The same factory on another container.
    func rebound(to container: any ManagedContainer) -> BoundValidator {
        BoundValidator(container: container, name: name, site: site, validator: validator)
    }

    func validate(with bindings: ValidationBindings) async {
        switch validator.resolution(container, name: name, site: site) {
        case .synchronous(let resolve):
            await bindings.resolve(resolve)
        case .asynchronous(let name, let resolve):
            await bindings.resolve(name, resolve)
        }
    }
}

extension Factory: ValidatableFactory {
    var validationName: String { registration.description }

    func validate(with bindings: ValidationBindings) async {
        await bindings.resolve { _ = resolve() }
    }
}

extension AsyncFactory: ValidatableFactory {
    var validationName: String { registration.description }

    func validate(with bindings: ValidationBindings) async {
        await bindings.resolve(validationName) { _ = try await resolve() }
    }
}

extension ParameterFactory: ValidatableFactory {
    var validationName: String { registration.description }

    func validate(with bindings: ValidationBindings) async {
        bindings.sink.report(ValidationIssue.skipped(registration.description))
    }
}

extension AsyncParameterFactory: ValidatableFactory {
    var validationName: String { registration.description }

    func validate(with bindings: ValidationBindings) async {
        bindings.sink.report(ValidationIssue.skipped(registration.description))
    }
}

extension ValidationIssue {
    /// A listed factory that validation cannot resolve, because it takes a parameter.
    static func skipped(_ factory: String) -> ValidationIssue {
        ValidationIssue(
            kind: .skipped, factory: factory,
            message:
                "\(factory) takes a parameter, so validate cannot resolve it and skipped it. Validate the factories "
                + "it resolves instead, or a Factory that calls it with a typical parameter.")
    }
}

/// Collects the issues of one validation; resolutions reach it through the task.
final class ValidationSink: @unchecked Sendable {
    @TaskLocal static var current: ValidationSink?

    private let storage = Locked<[ValidationFinding]>([])
    /// The blocks validation opens, one per task-bound scope it meets outside a `withScope` block,
    /// so that factories of such scopes are resolved and checked too.
    private let scopeBlocks = Locked<[ObjectIdentifier: ScopeBlock]>([:])

    func report(_ issue: ValidationIssue) {
        report(ValidationFinding(issue: issue))
    }

    func report(_ finding: ValidationFinding) {
        storage.withLock { $0.append(finding) }
    }

    var findings: [ValidationFinding] { storage.withLock { $0 } }

    var issues: [ValidationIssue] { findings.map(\.issue) }

    /// The issues, each dependency cycle once: a cycle found again, from another of its factories
    /// or from a factory that leads into it, is left out.
    var issuesOncePerCycle: [ValidationIssue] {
        var seen: Set<[String]> = []
        return findings.compactMap { finding in
            guard let cycle = finding.cycle else { return finding.issue }
            return seen.insert(Self.rotated(cycle)).inserted ? finding.issue : nil
        }
    }

    /// A cycle's steps, the closing repetition dropped, starting from the least: the same for
    /// every factory it can be entered from.
    static func rotated(_ path: [String]) -> [String] {
        var steps = Array(path.dropLast(path.count > 1 && path.first == path.last ? 1 : 0))
        guard let least = steps.indices.min(by: { steps[$0] < steps[$1] }) else { return steps }
        steps = Array(steps[least...] + steps[..<least])
        return steps
    }

    /// The block validation keeps open for `scope`.
    func block(for scope: Scope) -> ScopeBlock {
        scopeBlocks.withLock { blocks in
            if let block = blocks[ObjectIdentifier(scope)] { return block }
            let block = ScopeBlock()
            blocks[ObjectIdentifier(scope)] = block
            return block
        }
    }

    /// Ends the blocks validation opened, shutting down what was created in them.
    func closeBlocks() async {
        for block in scopeBlocks.withLock({ $0.values }) { await block.close() }
    }

    /// The issue an async resolution's error amounts to, if it fails.
    static func issue(resolving factory: String, _ body: () async throws -> Void) async -> ValidationFinding? {
        do {
            try await body()
            return nil
        } catch let cycle as DependencyCycleError {
            return ValidationFinding(
                issue: ValidationIssue(kind: .cycle, factory: factory, message: cycle.description), cycle: cycle.path)
        } catch {
            return ValidationFinding(
                issue: ValidationIssue(kind: .threw, factory: factory, message: "\(factory) threw: \(error)"))
        }
    }
}

/// An issue as validation found it: with the cycle's path, for a dependency cycle, so that a
/// report can name each cycle once. Codable for the line a child process of validation writes.
@usableFromInline
struct ValidationFinding: Sendable, Codable {
    let issue: ValidationIssue
    /// The cycle's path, first factory repeated last; nil for other issues, and for a resolution
    /// nested too deep, whose path is not known to be a cycle.
    var cycle: [String]? = nil

}

/// Finds the actor a synchronous factory's closure is isolated to, which validation resolves it
/// on: a factory notes the `#isolation` of its definition while a probe reads it.
@usableFromInline
final class IsolationProbe: @unchecked Sendable {
    @TaskLocal static var current: IsolationProbe?
    // Written only by the task that reads the probe, inside `reading`.
    private var isolation: (any Actor)?

    /// What `make` returns, and the isolation of the first factory it defined.
    static func reading<R>(_ make: () -> R) -> (R, (any Actor)?) {
        let probe = IsolationProbe()
        return ($current.withValue(probe, operation: make), probe.isolation)
    }

    @usableFromInline
    static func note(_ isolation: any Actor) {
        if let probe = current, probe.isolation == nil { probe.isolation = isolation }
    }
}
