// The snippets of DebuggingAndDiagnostics.md.
import FactoryKit
import Foundation
import Testing

@Suite(.container)
struct DebuggingAndDiagnosticsArticleTests {
    @Test func appHasNoDependencyCycle() async {
        await #expect(processExitsWith: .success) {
            _ = Container.shared.appModel()
        }
    }

    @Test func aCycleStopsTheProgramWithItsPath() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container.shared.a()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Dependency cycle: Container.a<A> → Container.b<B> → Container.a<A>"))
    }

    @Test func wiringIsSound() async throws {
        #expect(try await Container.shared.validate(\.database, \.appModel).isEmpty)
    }
}

// Never called: the trace switch, the logger and graph recording are process-wide.
func turnOnTheTrace() {
    Container.shared.manager.logger = { print($0) }  // standard output; standard error by default
    Container.shared.manager.trace = true
}

func exportTheGraph() throws {
    let graph = DependencyGraph.record {
        _ = Container.shared.appModel()
    }
    try graph.dot().write(toFile: "graph.dot", atomically: true, encoding: .utf8)
    // dot -Tpng graph.dot -o graph.png
    print(graph.mermaid())
    print(try graph.json())
}

final class A {
    let b: B

    init(b: B) {
        self.b = b
    }
}

final class B {
    let a: A

    init(a: A) {
        self.a = a
    }
}

extension Container {
    var a: Factory<A> { self { A(b: self.b()) } }
    var b: Factory<B> { self { B(a: self.a()) } }
}
