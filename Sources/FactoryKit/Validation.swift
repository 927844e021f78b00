/// A problem found by `validate`: a factory that threw, a dependency cycle, a promised factory
/// never registered, or a scope smell.
public struct ValidationIssue: Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Equatable {
        /// An async factory threw.
        case threw
        /// Async factories wait for each other in a cycle.
        case cycle
        /// A `promised()` factory was resolved but nothing is registered for it.
        case unregisteredPromise
        /// A longer-lived value captures a shorter-lived one, such as a singleton depending on a
        /// unique or cached value.
        case scopeSmell
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
    /// without crashing on what can be caught.
    ///
    /// ```swift
    /// @Test func wiringIsSound() async throws {
    ///     #expect(try await Container.shared.validate(\.database, \.contentModel).isEmpty)
    /// }
    /// ```
    ///
    /// `fresh` makes the container to resolve in, so this container's caches are left alone; its
    /// singletons are a new, empty set, so validation neither sees nor leaves process-wide
    /// singletons. With no factories listed, every factory registered on the fresh container
    /// (for example in `autoRegister()`) is resolved.
    ///
    /// Reported: each async factory that throws, each cycle among async factories (with its path),
    /// each `promised()` factory resolved but never registered, and each singleton that depends on a
    /// unique, cached, shared or graph value, capturing it forever. Parameter factories need a
    /// parameter and are skipped. A cycle among synchronous factories stops the program (it cannot
    /// be unwound); check for one with an exit test, as the documentation shows.
    public func validate(_ factories: [PartialKeyPath<Self>], in fresh: @autoclosure () -> Self) async throws
        -> [ValidationIssue]
    {
        let container = fresh()
        container.manager.promiseTriggersError = false
        let sink = ValidationSink()
        let recorder = GraphRecorder(only: container)
        Diagnostics.settings.withLock { $0.recorders.append(recorder) }
        defer { Diagnostics.settings.withLock { $0.recorders.removeAll { $0 === recorder } } }
        try await Scope.$singleton.withValue(Scope.Singleton()) {
            try await ValidationSink.$current.withValue(sink) {
                let targets: [any ValidatableFactory]
                if factories.isEmpty {
                    targets = container.registeredFactories()
                } else {
                    targets = factories.compactMap { container[keyPath: $0] as? any ValidatableFactory }
                }
                for target in targets {
                    try Task.checkCancellation()
                    if let issue = await target.validationIssue() { sink.report(issue) }
                }
            }
        }
        return sink.issues + Self.scopeSmells(in: recorder.graph)
    }

    /// Validates the listed factories; see ``validate(_:in:)-([PartialKeyPath<Self>],()->Self)``.
    public func validate(_ factories: PartialKeyPath<Self>..., in fresh: @autoclosure () -> Self) async throws
        -> [ValidationIssue]
    {
        try await validate(factories, in: fresh())
    }

    /// Every factory registered on this container, as something validation can resolve.
    func registeredFactories() -> [any ValidatableFactory] {
        manager.withState(of: self) { state in
            state.records.values.compactMap { record in
                guard let validator = record.validator, let site = record.validatorSite else { return nil }
                return BoundValidator(container: self, name: record.key.name, site: site, validator: validator)
            }
        }
    }

    static func scopeSmells(in graph: DependencyGraph) -> [ValidationIssue] {
        let scopes = Dictionary(graph.nodes.map { ($0.id, $0.scope) }, uniquingKeysWith: { first, _ in first })
        return graph.edges.compactMap { edge in
            guard scopes[edge.from] == "singleton", let captured = scopes[edge.to],
                ["unique", "cached", "shared", "graph"].contains(captured)
            else { return nil }
            return ValidationIssue(
                kind: .scopeSmell, factory: edge.from,
                message:
                    "\(edge.from) is a singleton but depends on \(edge.to), which is \(captured): the singleton keeps "
                    + "the first one forever. Make \(edge.to) a singleton too, or resolve it when it is needed.")
        }
    }
}

extension Container {
    /// Resolves `factories` in a fresh `Container`; see ``ManagedContainer/validate(_:in:)-([PartialKeyPath<Self>],()->Self)``.
    ///
    /// `#expect(try await Container.shared.validate(\.database, \.contentModel).isEmpty)`
    public func validate(_ factories: PartialKeyPath<Container>...) async throws -> [ValidationIssue] {
        try await validate(factories, in: Container())
    }
}

/// Something `validate` can resolve and judge.
protocol ValidatableFactory {
    func validationIssue() async -> ValidationIssue?
}

/// Resolves a registered factory, named by its key and definition site, on a given container: how
/// validation reaches what `autoRegister()` set up.
@usableFromInline
protocol FactoryValidating {
    static func validate(_ container: any ManagedContainer, name: LiteralText, site: DefinitionSite) async
        -> ValidationIssue?
}

@usableFromInline
enum SyncValidator<T>: FactoryValidating {
    @usableFromInline
    static func validate(_ container: any ManagedContainer, name: LiteralText, site: DefinitionSite) async
        -> ValidationIssue?
    {
        _ = Factory<T>(container, name: name, site: site) { fatalError("registered") }()
        return nil
    }
}

@usableFromInline
enum AsyncValidator<T>: FactoryValidating {
    @usableFromInline
    static func validate(_ container: any ManagedContainer, name: LiteralText, site: DefinitionSite) async
        -> ValidationIssue?
    {
        let factory = AsyncFactory<T>(container, name: name, site: site) {
            fatalError("registered")
        }
        return await ValidationSink.issue(resolving: factory.registration.description) { _ = try await factory() }
    }
}

struct BoundValidator: ValidatableFactory {
    let container: any ManagedContainer
    let name: LiteralText
    let site: DefinitionSite
    let validator: any FactoryValidating.Type

    func validationIssue() async -> ValidationIssue? { await validator.validate(container, name: name, site: site) }
}

extension Factory: ValidatableFactory {
    func validationIssue() async -> ValidationIssue? {
        _ = resolve()
        return nil
    }
}

extension AsyncFactory: ValidatableFactory {
    func validationIssue() async -> ValidationIssue? {
        await ValidationSink.issue(resolving: registration.description) { _ = try await resolve() }
    }
}

/// Collects the issues of one validation; resolutions reach it through the task.
final class ValidationSink: @unchecked Sendable {
    @TaskLocal static var current: ValidationSink?

    private let storage = Locked<[ValidationIssue]>([])

    func report(_ issue: ValidationIssue) {
        storage.withLock { $0.append(issue) }
    }

    var issues: [ValidationIssue] { storage.withLock { $0 } }

    /// The issue an async resolution's error amounts to, if it fails.
    static func issue(resolving factory: String, _ body: () async throws -> Void) async -> ValidationIssue? {
        do {
            try await body()
            return nil
        } catch let cycle as DependencyCycleError {
            return ValidationIssue(kind: .cycle, factory: factory, message: cycle.description)
        } catch {
            return ValidationIssue(kind: .threw, factory: factory, message: "\(factory) threw: \(error)")
        }
    }
}
