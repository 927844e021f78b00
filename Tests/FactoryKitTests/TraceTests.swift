import FactoryKit
import Foundation
import Testing

final class TraceLeaf: @unchecked Sendable {}
final class TraceRoot: @unchecked Sendable {
    let left: TraceLeaf
    let right: TraceLeaf
    init(left: TraceLeaf, right: TraceLeaf) {
        self.left = left
        self.right = right
    }
}

final class TraceContainer: SharedContainer {
    static let shared = TraceContainer()
    let manager = ContainerManager()
    var traceLeaf: Factory<TraceLeaf> { self { TraceLeaf() }.cached }
    var traceRoot: Factory<TraceRoot> { self { TraceRoot(left: self.traceLeaf(), right: self.traceLeaf()) } }
    var traceExistential: Factory<any Greeting> { self { MockGreeter("traced") } }
    var traceValue: Factory<TraceValue> { self { TraceValue(id: 1) }.cached }
}

struct TraceValue: Sendable {
    let id: Int
}

final class TraceStore: Sendable {}
struct TraceFailure: Error, CustomStringConvertible {
    var description: String { "store offline" }
}

extension TraceContainer {
    var traceAsyncStore: AsyncFactory<TraceStore> {
        self {
            _ = self.traceLeaf()
            return TraceStore()
        }
        .cached
    }
    var traceAsyncService: AsyncFactory<TraceRoot> {
        self {
            _ = try await self.traceAsyncStore()
            return TraceRoot(left: self.traceLeaf(), right: self.traceLeaf())
        }
    }
    var traceAsyncFailing: AsyncFactory<TraceStore> {
        self {
            _ = self.traceLeaf()
            throw TraceFailure()
        }
    }
}

/// The trace switch and logger are process-wide, so these tests run one at a time and filter
/// the lines they collect down to their own container.
@Suite(.serialized)
struct TraceTests {
    private func traced(_ body: () -> Void) -> [String] {
        let mark = TestLog.mark()
        let manager = TraceContainer.shared.manager
        manager.trace = true
        body()
        manager.trace = false
        return TestLog.lines(since: mark).filter { $0.contains("TraceContainer.") }
    }

    @Test func traceShowsEachResolutionParentFirst() {
        let container = TraceContainer()
        container.traceLeaf.register { TraceLeaf() }
        var root: TraceRoot?
        let lines = traced { root = container.traceRoot() }
        let rootAddress = Int(bitPattern: ObjectIdentifier(root!))
        let leafAddress = Int(bitPattern: ObjectIdentifier(root!.left))
        #expect(
            lines == [
                "0: TraceContainer.traceRoot<TraceRoot> = F:\(rootAddress) TraceRoot",
                "1:     TraceContainer.traceLeaf<TraceLeaf> = R:\(leafAddress) TraceLeaf",
                "1:     TraceContainer.traceLeaf<TraceLeaf> = C:\(leafAddress) TraceLeaf",
            ])
    }

    @Test func contextOverridesAreTaggedO() {
        let container = TraceContainer()
        container.traceLeaf.onArg("trace-override") { TraceLeaf() }
        FactoryContext.setArg("trace-override", forKey: "trace-override")
        defer { FactoryContext.removeArg(forKey: "trace-override") }
        var leaf: TraceLeaf?
        let lines = traced { leaf = container.traceLeaf() }
        #expect(
            lines == [
                "0: TraceContainer.traceLeaf<TraceLeaf> = O:\(Int(bitPattern: ObjectIdentifier(leaf!))) TraceLeaf"
            ])
    }

    @Test func aValueTypeIsTracedWithoutAnAddress() {
        let container = TraceContainer()
        let lines = traced {
            _ = container.traceValue()
            _ = container.traceValue()
        }
        // Boxing a struct to print an address showed a new, meaningless address each time.
        #expect(
            lines == [
                "0: TraceContainer.traceValue<TraceValue> = F TraceValue",
                "0: TraceContainer.traceValue<TraceValue> = C TraceValue",
            ])
    }

    @Test func aClassInstanceHasOneIdentityFromCreationToCacheHit() {
        let container = TraceContainer()
        var leaf: TraceLeaf?
        let lines = traced {
            leaf = container.traceLeaf()
            _ = container.traceLeaf()
        }
        let identity = Int(bitPattern: ObjectIdentifier(leaf!))
        #expect(
            lines == [
                "0: TraceContainer.traceLeaf<TraceLeaf> = F:\(identity) TraceLeaf",
                "0: TraceContainer.traceLeaf<TraceLeaf> = C:\(identity) TraceLeaf",
            ])
    }

    @Test func traceNamesTheDeclaredTypeAndTheRuntimeType() {
        var greeting: (any Greeting)?
        let lines = traced { greeting = TraceContainer().traceExistential() }
        let address = Int(bitPattern: ObjectIdentifier(greeting!))
        #expect(lines == ["0: TraceContainer.traceExistential<Greeting> = F:\(address) MockGreeter"])
    }

    private func traced(_ body: () async throws -> Void) async rethrows -> [String] {
        let mark = TestLog.mark()
        let manager = TraceContainer.shared.manager
        manager.trace = true
        defer { manager.trace = false }
        try await body()
        return TestLog.lines(since: mark).filter { $0.contains("TraceContainer.") }
    }

    /// Async factories are traced like sync ones, parent first, with the sync resolutions their
    /// closures make (also inside the task that creates a scoped value) nested under them.
    @Test func traceFollowsAsyncFactoriesAndTheSyncOnesTheyResolve() async throws {
        let container = TraceContainer()
        var root: TraceRoot?
        var lines = try await traced { root = try await container.traceAsyncService() }
        let store = try await container.traceAsyncStore()
        func address(_ object: AnyObject) -> Int { Int(bitPattern: ObjectIdentifier(object)) }
        let leaf = address(root!.left)
        #expect(
            lines == [
                "0: TraceContainer.traceAsyncService<TraceRoot> = F:\(address(root!)) TraceRoot",
                "1:     TraceContainer.traceAsyncStore<TraceStore> = F:\(address(store)) TraceStore",
                "2:         TraceContainer.traceLeaf<TraceLeaf> = F:\(leaf) TraceLeaf",
                "1:     TraceContainer.traceLeaf<TraceLeaf> = C:\(leaf) TraceLeaf",
                "1:     TraceContainer.traceLeaf<TraceLeaf> = C:\(leaf) TraceLeaf",
            ])
        lines = try await traced { _ = try await container.traceAsyncStore() }
        #expect(lines == ["0: TraceContainer.traceAsyncStore<TraceStore> = C:\(address(store)) TraceStore"])
    }

    @Test func traceShowsWhatAnAsyncFactoryThrew() async throws {
        let container = TraceContainer()
        let lines = await traced { _ = try? await container.traceAsyncFailing() }
        #expect(lines.first == "0: TraceContainer.traceAsyncFailing<TraceStore> threw store offline")
        #expect(lines.count == 2)
        #expect(lines.last?.hasPrefix("1:     TraceContainer.traceLeaf<TraceLeaf> = F:") == true)
    }

    @Test func traceIsOffByDefault() {
        #expect(TraceContainer().manager.trace == false)
        let mark = TestLog.mark()
        _ = TraceContainer().traceRoot()
        #expect(TestLog.lines(since: mark).filter { $0.contains("TraceContainer.") }.isEmpty)
    }

    @Test func traceAndLoggerAreProcessWide() {
        let first = TraceContainer()
        let second = TraceContainer()
        first.manager.trace = true
        #expect(second.manager.trace)
        first.manager.trace = false
        #expect(first.manager.circularDependencyTesting)
    }
}

/// A value whose `deinit` resolves another factory, for the trace test below.
final class TraceResolvingOnDeinit: @unchecked Sendable {
    /// Weak: the container's cache holds this value.
    weak var container: TraceContainer?
    init(_ container: TraceContainer) { self.container = container }
    deinit { _ = container?.traceLeaf() }
}

extension TraceContainer {
    var traceExpiring: Factory<TraceResolvingOnDeinit> {
        self { TraceResolvingOnDeinit(self) }.cached.timeToLive(0)
    }
}

extension TraceTests {
    /// The value a creation replaces is released before the creation runs, by the resolving
    /// thread, with no frame on its stack yet: a `deinit` that resolves then starts and finishes a
    /// traced resolution of its own, which must not flush (and lose) the line of the resolution
    /// still in progress. It used to stop the process with "Index out of range".
    @Test func aDeinitThatResolvesBeforeTheCreationKeepsTheTraceLinesOfTheResolutionInProgress() {
        let container = TraceContainer()
        _ = container.traceExpiring()  // cached, and expired at once
        let lines = traced { _ = container.traceExpiring() }
        #expect(lines.count == 2)
        #expect(lines.contains { $0.hasPrefix("0: TraceContainer.traceExpiring<TraceResolvingOnDeinit> = F:") })
        #expect(lines.contains { $0.hasPrefix("0: TraceContainer.traceLeaf<TraceLeaf> = F:") })
    }
}
