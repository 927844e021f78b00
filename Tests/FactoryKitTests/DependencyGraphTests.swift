import FactoryKit
import FactoryTesting
import Foundation
import Testing

final class GraphApp: @unchecked Sendable {
    init(_ model: GraphModel, _ logger: GraphLogger) {}
}
final class GraphModel: @unchecked Sendable {
    init(_ api: GraphAPI, _ logger: GraphLogger) {}
}
final class GraphAPI: @unchecked Sendable {}
final class GraphLogger: @unchecked Sendable {}

final class GraphContainer: SharedContainer {
    @TaskLocal static var shared = GraphContainer()
    let manager = ContainerManager()
    var app: Factory<GraphApp> { self { GraphApp(self.model(), self.logger()) } }
    var model: Factory<GraphModel> { self { GraphModel(self.api(), self.logger()) }.cached }
    var api: Factory<GraphAPI> { self { GraphAPI() }.singleton }
    var logger: Factory<GraphLogger> { self { GraphLogger() }.singleton }
    var store: AsyncFactory<GraphAPI> {
        self {
            _ = self.logger()
            return GraphAPI()
        }.cached
    }
}

extension Trait where Self == ContainerTrait<GraphContainer> {
    static var graphContainer: ContainerTrait<GraphContainer> {
        .init(shared: GraphContainer.$shared, container: .init())
    }
}

/// Graph recording is process-wide, so these tests filter to their own container type and run
/// one at a time.
@Suite(.serialized, .graphContainer)
struct DependencyGraphTests {
    private func own(_ graph: DependencyGraph) -> DependencyGraph {
        DependencyGraph(
            nodes: graph.nodes.filter { $0.container == "GraphContainer" },
            edges: graph.edges.filter { $0.from.hasPrefix("GraphContainer.") })
    }

    @Test func labelsScopedHitsWithTheirScope() {
        _ = GraphContainer.shared.app()  // every scoped value exists, so the recording sees hits
        let graph = own(DependencyGraph.record { _ = GraphContainer.shared.app() })
        #expect(
            graph.nodes.map(\.label) == [
                "GraphContainer.app: GraphApp [unique]",
                "GraphContainer.model: GraphModel [cached]",
                "GraphContainer.logger: GraphLogger [singleton]",
            ])
    }

    @Test func recordsNodesAndEdgesInResolutionOrder() {
        let graph = own(DependencyGraph.record { _ = GraphContainer.shared.app() })
        #expect(
            graph.nodes.map(\.label) == [
                "GraphContainer.app: GraphApp [unique]",
                "GraphContainer.model: GraphModel [cached]",
                "GraphContainer.api: GraphAPI [singleton]",
                "GraphContainer.logger: GraphLogger [singleton]",
            ])
        #expect(
            graph.edges == [
                .init(from: "GraphContainer.app<GraphApp>", to: "GraphContainer.model<GraphModel>"),
                .init(from: "GraphContainer.model<GraphModel>", to: "GraphContainer.api<GraphAPI>"),
                .init(from: "GraphContainer.model<GraphModel>", to: "GraphContainer.logger<GraphLogger>"),
                .init(from: "GraphContainer.app<GraphApp>", to: "GraphContainer.logger<GraphLogger>"),
            ])
    }

    @Test func exportsDotMermaidAndJSON() throws {
        let graph = DependencyGraph(
            nodes: [
                .init(container: "Container", factory: "app", type: "App", scope: "unique"),
                .init(container: "Container", factory: "api", type: "API", scope: "singleton"),
            ],
            edges: [.init(from: "Container.app<App>", to: "Container.api<API>")])
        #expect(
            graph.dot() == """
                digraph dependencies {
                    rankdir=LR;
                    node [shape=box];
                    "Container.app<App>" [label="Container.app: App [unique]"];
                    "Container.api<API>" [label="Container.api: API [singleton]"];
                    "Container.app<App>" -> "Container.api<API>";
                }

                """)
        #expect(
            graph.mermaid() == """
                graph LR
                    n0["Container.app: App [unique]"]
                    n1["Container.api: API [singleton]"]
                    n0 --> n1

                """)
        #expect(
            try graph.json()
                == #"{"edges":[{"from":"Container.app<App>","to":"Container.api<API>"}],"nodes":[{"container":"Container","factory":"app","scope":"unique","type":"App"},{"container":"Container","factory":"api","scope":"singleton","type":"API"}]}"#
        )
        #expect(try JSONDecoder().decode(DependencyGraph.self, from: Data(graph.json().utf8)) == graph)
    }

    @Test func recordsAsyncResolutions() async throws {
        let graph = own(try await DependencyGraph.record { _ = try await GraphContainer.shared.store() })
        #expect(
            graph.nodes.map(\.label) == [
                "GraphContainer.store: GraphAPI [cached]", "GraphContainer.logger: GraphLogger [singleton]",
            ])
        #expect(
            graph.edges == [.init(from: "GraphContainer.store<GraphAPI>", to: "GraphContainer.logger<GraphLogger>")])
    }

    @Test func nothingIsRecordedOutsideARecording() {
        _ = GraphContainer.shared.app()
        let graph = own(DependencyGraph.record {})
        #expect(graph.nodes.isEmpty)
    }
}
