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

    @Test func traceNamesTheDeclaredTypeAndTheRuntimeType() {
        var greeting: (any Greeting)?
        let lines = traced { greeting = TraceContainer().traceExistential() }
        let address = Int(bitPattern: ObjectIdentifier(greeting!))
        #expect(lines == ["0: TraceContainer.traceExistential<Greeting> = F:\(address) MockGreeter"])
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
