import Foundation

/// Which factory resolved which, recorded while code runs, for drawing and checking the wiring.
///
/// ```swift
/// let graph = DependencyGraph.record {
///     _ = Container.shared.contentModel()
/// }
/// print(graph.dot())       // Graphviz
/// print(graph.mermaid())   // Mermaid
/// let json = try graph.json()
/// ```
///
/// Recording is process-wide while `record` runs, like the trace: resolutions on other threads
/// are recorded too. When nothing records, resolutions pay one relaxed atomic load for it.
public struct DependencyGraph: Sendable, Codable, Equatable {
    /// A factory, labelled `container.factory: Type [scope]`.
    public struct Node: Sendable, Codable, Hashable {
        /// The container type, such as `Container`.
        public let container: String
        /// The factory's name (its key).
        public let factory: String
        /// The type it resolves to.
        public let type: String
        /// Its scope: `unique`, `cached`, `shared`, `singleton`, `graph` or `task-bound`.
        public let scope: String

        /// The node's identifier, `Container.factory<Type>`, as traces and cycle messages name it.
        public var id: String { "\(container).\(factory)<\(type)>" }

        /// The node's label, `Container.factory: Type [scope]`.
        public var label: String { "\(container).\(factory): \(type) [\(scope)]" }

        /// Creates a node.
        public init(container: String, factory: String, type: String, scope: String) {
            self.container = container
            self.factory = factory
            self.type = type
            self.scope = scope
        }
    }

    /// A dependency: the factory `from` resolved the factory `to` while building its value.
    public struct Edge: Sendable, Codable, Hashable {
        /// The identifier of the dependent factory's node.
        public let from: String
        /// The identifier of the dependency's node.
        public let to: String

        /// Creates an edge.
        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    /// The factories resolved, in the order they were first resolved.
    public var nodes: [Node]
    /// The dependencies between them, each once, in the order they were first seen.
    public var edges: [Edge]

    /// Creates a graph.
    public init(nodes: [Node] = [], edges: [Edge] = []) {
        self.nodes = nodes
        self.edges = edges
    }

    /// Runs `body` and returns the graph of the resolutions it made.
    public static func record(_ body: () throws -> Void) rethrows -> DependencyGraph {
        let recorder = GraphRecorder()
        Diagnostics.settings.withLock { $0.recorders.append(recorder) }
        defer { Diagnostics.settings.withLock { $0.recorders.removeAll { $0 === recorder } } }
        try body()
        return recorder.graph
    }

    /// Runs an asynchronous `body` and returns the graph of the resolutions it made.
    public static func record(_ body: () async throws -> Void) async rethrows -> DependencyGraph {
        let recorder = GraphRecorder()
        Diagnostics.settings.withLock { $0.recorders.append(recorder) }
        defer { Diagnostics.settings.withLock { $0.recorders.removeAll { $0 === recorder } } }
        try await body()
        return recorder.graph
    }

    /// The graph in Graphviz's DOT language: `dot -Tpng graph.dot -o graph.png`.
    public func dot() -> String {
        var lines = ["digraph dependencies {", "    rankdir=LR;", "    node [shape=box];"]
        for node in nodes {
            lines.append("    \(quoted(node.id)) [label=\(quoted(node.label))];")
        }
        for edge in edges {
            lines.append("    \(quoted(edge.from)) -> \(quoted(edge.to));")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as a Mermaid flowchart.
    public func mermaid() -> String {
        var identifiers: [String: String] = [:]
        var lines = ["graph LR"]
        for (index, node) in nodes.enumerated() {
            identifiers[node.id] = "n\(index)"
            lines.append("    n\(index)[\"\(node.label.replacingOccurrences(of: "\"", with: "#quot;"))\"]")
        }
        for edge in edges {
            guard let from = identifiers[edge.from], let to = identifiers[edge.to] else { continue }
            lines.append("    \(from) --> \(to)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as JSON, keys sorted: `{"edges":[{"from":…,"to":…}],"nodes":[{"container":…,…}]}`.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// Collects one recording's nodes and edges; shared by every thread that resolves meanwhile.
final class GraphRecorder: @unchecked Sendable {
    /// The containers whose resolutions this recorder keeps, or nil for all.
    private let only: Locked<Set<ObjectIdentifier>>?

    /// A recorder of every container's resolutions, or, with `containers`, of only theirs
    /// (``keep(_:)`` adds more). The caller keeps those containers alive while recording, so an
    /// identifier is never reused meanwhile.
    init(only containers: [any ManagedContainer]? = nil) {
        only = containers.map { Locked(Set($0.map { ObjectIdentifier($0) })) }
    }

    /// Records `container`'s resolutions as well.
    func keep(_ container: any ManagedContainer) {
        only?.withLock { _ = $0.insert(ObjectIdentifier(container)) }
    }

    func records(_ container: any ManagedContainer) -> Bool {
        guard let only else { return true }
        return only.withLock { $0.contains(ObjectIdentifier(container)) }
    }

    private struct State {
        var graph = DependencyGraph()
        /// Each node's definition (if known), by identifier.
        var sites: [String: DefinitionSite?] = [:]
        var edges: Set<DependencyGraph.Edge> = []
    }

    private let state = Locked(State())

    func note(_ node: DependencyGraph.Node, id: String, parent: String?, site: DefinitionSite? = nil) {
        state.withLock { state in
            if state.sites.updateValue(site, forKey: id) == nil { state.graph.nodes.append(node) }
            if let parent {
                let edge = DependencyGraph.Edge(from: parent, to: id)
                if state.edges.insert(edge).inserted { state.graph.edges.append(edge) }
            }
        }
    }

    /// Adds what a child process of validation recorded.
    func merge(_ graph: DependencyGraph) {
        for node in graph.nodes { note(node, id: node.id, parent: nil) }
        state.withLock { state in
            for edge in graph.edges where state.edges.insert(edge).inserted { state.graph.edges.append(edge) }
        }
    }

    /// Where the factory `id` is defined, `path:line`, if it was recorded.
    func site(of id: String) -> String? {
        state.withLock { $0.sites[id] ?? nil }?.location
    }

    var graph: DependencyGraph { state.withLock { $0.graph } }
}
