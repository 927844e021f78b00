public import FactoryKit
public import Testing

/// A Swift Testing trait that gives each test a fresh container of type `C` and its own
/// singletons, so tests run in parallel without seeing each other's registrations.
///
/// ```swift
/// @Suite(.container)
/// struct ModelTests {
///     @Test func loads() {
///         Container.shared.api { MockAPI() }
///         #expect(Container.shared.model().load())
///     }
/// }
/// ```
///
/// On a suite it applies to every test in it, one fresh container per test case. For your own
/// shared container (declared with `@TaskLocal static var shared`), make a trait of your own:
///
/// ```swift
/// extension Trait where Self == ContainerTrait<NetworkContainer> {
///     static var network: ContainerTrait<NetworkContainer> {
///         .init(shared: NetworkContainer.$shared, container: .init())
///     }
/// }
/// ```
public struct ContainerTrait<C: SharedContainer>: TestTrait, SuiteTrait, TestScoping {
    /// A configuration applied to each test's container before the test runs.
    public typealias Transform = @Sendable @isolated(any) (C) async -> Void

    /// Always `true`: on a suite, the trait applies to every test inside it.
    public let isRecursive: Bool = true

    private let shared: TaskLocal<C>
    private let makeContainer: @Sendable () -> C
    private var transforms: [Transform] = []
    private var singletonPolicy = SingletonIsolation.cloned
    private var mode = Mode.lenient

    /// Creates a trait that binds `shared` to a new `container()` for each test.
    public init(shared: TaskLocal<C>, container: @autoclosure @escaping @Sendable () -> C) {
        self.shared = shared
        self.makeContainer = container
    }

    /// How a test treats the factories it did not replace.
    public enum Mode: Sendable {
        /// Every factory may resolve its own definition: the default.
        case lenient
        /// Resolving a factory whose own definition runs (the test neither registered it nor
        /// overrode it for a context) records an issue naming the factory, unless the factory is
        /// marked `liveInTests()`. Keeps a live network client or database from slipping into a
        /// unit test unnoticed.
        case strict
    }

    /// Runs the test with a fresh container bound to `shared` and a singleton cache of its own,
    /// after applying this trait's configuration to the container.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let container = makeContainer()
        try await reportingToTest(SwiftTestingIssueReporter(), strict: mode == .strict) {
            try await Scope.$singleton.withValue(singletonPolicy.makeSingletons()) {
                try await shared.withValue(container) {
                    for transform in transforms { await transform(container) }
                    try await function()
                }
            }
        }
    }

    /// The same trait, which also configures each test's container:
    /// `@Test(.container { $0.api { MockAPI() } })`.
    ///
    /// To register a factory isolated to the main actor, make the closure main-actor isolated:
    /// `.container { @MainActor in $0.model { MockModel() } }`.
    public func callAsFunction(transform: @escaping Transform) -> Self {
        changing { $0.transforms.append(transform) }
    }

    /// The same trait, in `mode`: `@Suite(.container(.strict))`.
    public func callAsFunction(_ mode: Mode) -> Self {
        changing { $0.mode = mode }
    }

    /// The same trait, with each test's singletons chosen by `policy`:
    /// `@Suite(.container.singletons(.empty))`.
    public func singletons(_ policy: SingletonIsolation) -> Self {
        changing { $0.singletonPolicy = policy }
    }

    /// A copy of this trait with `change` applied.
    private func changing(_ change: (inout Self) -> Void) -> Self {
        var trait = self
        change(&trait)
        return trait
    }
}

/// What singletons a test starts with.
///
/// Singletons are process-wide, so a test that creates one would otherwise hand it to every test
/// after it. Each test therefore gets its own singleton cache, bound to `Scope.$singleton` for
/// the test's task:
///
/// - ``cloned`` (the default, as in Factory): a copy of the singletons that existed when the test
///   started. Singletons the test creates stay in the test; singletons created before it (say, by
///   app code that ran first) are shared, the same instances in every test.
/// - ``empty``: no singletons at all; every singleton the test resolves is created for it.
public enum SingletonIsolation: Sendable {
    /// A copy of the singletons that exist when the test starts.
    case cloned
    /// No singletons: each test creates its own.
    case empty

    /// The singleton cache to bind for one test.
    public func makeSingletons() -> Scope.Singleton {
        switch self {
        case .cloned: return Scope.singleton.clone()
        case .empty: return Scope.Singleton()
        }
    }
}

extension Trait where Self == ContainerTrait<Container> {
    /// Gives each test a fresh `Container.shared` and its own singletons.
    public static var container: ContainerTrait<Container> {
        ContainerTrait(shared: Container.$shared, container: Container())
    }
}
