// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (a test host: its few public members are documented where they are declared)

// A small host that evaluates a view tree the way SwiftUI documents it, so that FactoryKit's
// SwiftUI files run on Linux against the stand-in. It models only rules Apple documents; each is
// cited where the host applies it. It is not SwiftUI: there is no layout, no diffing of values,
// and every `render()` evaluates every view's `body` again (SwiftUI skips views it knows are
// unchanged; evaluating more often is allowed, so no rule below depends on skipping).
//
// - Identity is structural: a view is the same view across updates while its type and its
//   position in its parent's builder (including the branch of an `if`/`else`) stay the same.
//   https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(first:)
//   https://developer.apple.com/videos/play/wwdc2021/10022/ ("Demystify SwiftUI": structural
//   identity, and "once a view's identity ends, its state is deallocated")
// - `@State` and `@StateObject` storage is kept per identity, created when the view first
//   appears and dropped when it leaves, after the update that removed it.
//   https://developer.apple.com/documentation/swiftui/state ("SwiftUI manages the property's
//   storage"), https://developer.apple.com/documentation/swiftui/stateobject ("SwiftUI creates a
//   new instance of the model object only once during the lifetime of the container")
// - Dynamic properties get their values, then `update()`, before `body` is evaluated.
//   https://developer.apple.com/documentation/swiftui/dynamicproperty/update() ("SwiftUI calls
//   this function before rendering a view's body"). The host calls `update()` on a copy of the
//   property, so it models properties whose `update()` works through their storage.
// - Environment values flow down to the views below the modifier that sets them.
//   https://developer.apple.com/documentation/swiftui/environmentvalues
// - A modifier's state lives with the view it modifies.
//   https://developer.apple.com/documentation/swiftui/viewmodifier
// - A view is invalidated when a `@State` it owns is set, when an observed object's
//   `objectWillChange` publishes, or when an Observable property its `body` read changes; reads
//   outside `body` are not tracked.
//   https://developer.apple.com/documentation/swiftui/managing-model-data-in-your-app
//   https://developer.apple.com/documentation/swiftui/migrating-from-the-observable-object-protocol-to-the-observable-macro
//   ("SwiftUI updates a view only when an observable property changes and the view's body reads
//   the property directly")
// - Each window of a `WindowGroup` has its own state.
//   https://developer.apple.com/documentation/swiftui/windowgroup

import Synchronization

/// Where a property wrapper finds the storage the host gave it; copies of the wrapper share it.
final class HostLocation<Value> {
    var value: Value?
}

/// One property's storage for one view identity.
final class HostSlot<Value> {
    private(set) var value: Value
    private let didSet: () -> Void
    init(_ value: Value, didSet: @escaping () -> Void) {
        self.value = value
        self.didSet = didSet
    }
    func set(_ newValue: Value) {
        value = newValue
        didSet()
    }
}

/// The paths of the views invalidated since the last render; Observation reports from any thread.
final class InvalidationLog: Sendable {
    private let paths = Mutex<[String]>([])
    func record(_ path: String) { paths.withLock { $0.append(path) } }
    func take() -> [String] {
        paths.withLock { paths in
            defer { paths = [] }
            return paths
        }
    }
    var current: [String] { paths.withLock { $0 } }
}

/// The storage of one view identity.
@MainActor
final class HostNode {
    let path: String
    var slots: [String: AnyObject] = [:]
    var subscriptions: [String: AnyCancellable] = [:]
    init(path: String) { self.path = path }
}

/// Evaluates view trees as SwiftUI documents it; see the rules at the top of this file.
@MainActor
public final class StandInHost {
    private var roots: [Int: any View] = [:]
    private var nextRoot = 0
    private var nodes: [String: HostNode] = [:]
    private var visited: Set<String> = []
    private var pendingContent: [(EnvironmentValues) -> Void] = []
    private var actions: [String: @MainActor () -> Void] = [:]
    let log = InvalidationLog()

    /// The strings of the `Text` views of the last render, in order.
    public private(set) var texts: [String] = []

    /// A host with nothing mounted.
    public init() {}

    /// Mounts `view` as a root of its own (a window, a preview) and returns its number.
    @discardableResult
    public func mount<V: View>(_ view: V) -> Int {
        defer { nextRoot += 1 }
        roots[nextRoot] = view
        return nextRoot
    }

    /// Opens a window of `group`: every window gets the group's content with state of its own.
    @discardableResult
    public func open<Content: View>(_ group: WindowGroup<Content>) -> Int {
        mount(group.content)
    }

    /// Removes a root; its views leave at the next render.
    public func unmount(_ root: Int) {
        roots[root] = nil
    }

    /// The paths of the views invalidated since the last render.
    public var invalidated: [String] { log.current }

    /// How many view identities have storage.
    public var identities: Int { nodes.count }

    /// Evaluates every root, then drops the storage of the identities that were not part of it.
    public func render() {
        _ = log.take()
        visited = []
        texts = []
        actions = [:]
        for root in roots.keys.sorted() {
            render(roots[root]!, at: "root\(root)", environment: EnvironmentValues())
        }
        for path in nodes.keys where !visited.contains(path) {
            nodes[path] = nil
        }
    }

    /// Runs the action of the button titled `title` in the last render.
    public func tap(_ title: String) {
        actions[title]?()
    }

    func render(_ view: any View, at path: String, environment: EnvironmentValues) {
        renderOpened(view, at: path, environment: environment)
    }

    private func renderOpened<V: View>(_ view: V, at parent: String, environment: EnvironmentValues) {
        let path = parent + "/" + String(describing: V.self)
        if let primitive = view as? any HostPrimitive {
            primitive.render(in: self, at: path, environment: environment)
            return
        }
        let node = visit(path)
        bind(view, in: node, prefix: "", environment: environment)
        let body = tracked(path) { view.body }
        render(body, at: path, environment: environment)
    }

    private func visit(_ path: String) -> HostNode {
        visited.insert(path)
        if let node = nodes[path] { return node }
        let node = HostNode(path: path)
        nodes[path] = node
        return node
    }

    /// Gives every dynamic property of `value` its storage and environment, innermost first, and
    /// calls `update()` on each compound property once its own properties have theirs.
    private func bind(_ value: Any, in node: HostNode, prefix: String, environment: EnvironmentValues) {
        for (index, child) in Mirror(reflecting: value).children.enumerated() {
            let key = prefix + "." + (child.label ?? "\(index)")
            if let bindable = child.value as? any HostBindable {
                bindable.bind(in: self, node: node, key: key, environment: environment)
            } else if var property = child.value as? any DynamicProperty {
                bind(property, in: node, prefix: key, environment: environment)
                property.update()
            }
        }
    }

    private func tracked<T>(_ path: String, _ body: () -> T) -> T {
        let log = self.log
        return withObservationTracking(body, onChange: { @Sendable in log.record(path) })
    }

    func invalidator(for path: String) -> () -> Void {
        let log = self.log
        return { log.record(path) }
    }

    func renderModified<Content: View, Modifier: ViewModifier>(
        _ view: ModifiedContent<Content, Modifier>, at path: String, environment: EnvironmentValues
    ) {
        if let writer = view.modifier as? any EnvironmentWriting {
            var environment = environment
            writer.write(into: &environment)
            render(view.content, at: path + "/content", environment: environment)
            return
        }
        let node = visit(path + "/modifier")
        bind(view.modifier, in: node, prefix: "", environment: environment)
        pendingContent.append { [unowned self] environment in
            self.render(view.content, at: path + "/content", environment: environment)
        }
        defer { pendingContent.removeLast() }
        let body = tracked(node.path) { view.modifier.body(content: _ViewModifier_Content<Modifier>()) }
        render(body, at: node.path, environment: environment)
    }

    func renderPendingContent(environment: EnvironmentValues) {
        pendingContent.last?(environment)
    }

    func show(_ text: String) { texts.append(text) }

    func register(_ title: String, action: @escaping @MainActor () -> Void) { actions[title] = action }
}

// MARK: Primitive views

/// A view the host evaluates itself instead of through `body`.
@MainActor
protocol HostPrimitive {
    func render(in host: StandInHost, at path: String, environment: EnvironmentValues)
}

extension EmptyView: HostPrimitive {
    func render(in host: StandInHost, at path: String, environment: EnvironmentValues) {}
}

extension Text: HostPrimitive {
    func render(in host: StandInHost, at path: String, environment: EnvironmentValues) { host.show(content) }
}

extension TextField: HostPrimitive {
    func render(in host: StandInHost, at path: String, environment: EnvironmentValues) {}
}

extension Button: HostPrimitive {
    func render(in host: StandInHost, at path: String, environment: EnvironmentValues) {
        host.show(title)
        host.register(title, action: action)
    }
}

extension TupleView: HostPrimitive {
    func render(in host: StandInHost, at path: String, environment: EnvironmentValues) {
        for (index, child) in Mirror(reflecting: value).children.enumerated() {
            host.render(child.value as! any View, at: path + "/\(index)", environment: environment)
        }
    }
}

extension VStack: HostPrimitive {
    func render(in host: StandInHost, at path: String, environment: EnvironmentValues) {
        host.render(content, at: path, environment: environment)
    }
}

extension Optional: HostPrimitive where Wrapped: View {
    func render(in host: StandInHost, at path: String, environment: EnvironmentValues) {
        if let view = self { host.render(view, at: path + "/some", environment: environment) }
    }
}

extension _ConditionalContent: HostPrimitive where TrueContent: View, FalseContent: View {
    func render(in host: StandInHost, at path: String, environment: EnvironmentValues) {
        switch storage {
        case .trueContent(let view): host.render(view, at: path + "/true", environment: environment)
        case .falseContent(let view): host.render(view, at: path + "/false", environment: environment)
        }
    }
}

extension ModifiedContent: HostPrimitive where Content: View, Modifier: ViewModifier {
    func render(in host: StandInHost, at path: String, environment: EnvironmentValues) {
        host.renderModified(self, at: path, environment: environment)
    }
}

extension _ViewModifier_Content: HostPrimitive {
    func render(in host: StandInHost, at path: String, environment: EnvironmentValues) {
        host.renderPendingContent(environment: environment)
    }
}

/// A modifier that only writes the environment of its content.
@MainActor
protocol EnvironmentWriting {
    func write(into environment: inout EnvironmentValues)
}

extension _EnvironmentKeyWritingModifier: EnvironmentWriting {
    func write(into environment: inout EnvironmentValues) { environment[keyPath: keyPath] = value }
}

// MARK: Dynamic properties

/// A property wrapper whose storage or value the host provides.
@MainActor
protocol HostBindable {
    func bind(in host: StandInHost, node: HostNode, key: String, environment: EnvironmentValues)
}

extension Environment: HostBindable {
    func bind(in host: StandInHost, node: HostNode, key: String, environment: EnvironmentValues) {
        location.value = environment[keyPath: keyPath]
    }
}

extension State: HostBindable {
    func bind(in host: StandInHost, node: HostNode, key: String, environment: EnvironmentValues) {
        if let slot = node.slots[key] as? HostSlot<Value> {
            location.value = slot
            return
        }
        let slot = HostSlot(initialValue, didSet: host.invalidator(for: node.path))
        node.slots[key] = slot
        location.value = slot
    }
}

extension StateObject: HostBindable {
    func bind(in host: StandInHost, node: HostNode, key: String, environment: EnvironmentValues) {
        if let slot = node.slots[key] as? HostSlot<ObjectType> {
            location.value = slot
            return
        }
        let object = thunk()
        let slot = HostSlot(object, didSet: {})
        node.slots[key] = slot
        node.subscriptions[key] = object.objectWillChange.sink(receiveValue: {
            [invalidate = host.invalidator(for: node.path)] _ in invalidate()
        })
        location.value = slot
    }
}

extension ObservedObject: HostBindable {
    func bind(in host: StandInHost, node: HostNode, key: String, environment: EnvironmentValues) {
        let invalidate = host.invalidator(for: node.path)
        node.subscriptions[key] = wrappedValue.objectWillChange.sink(receiveValue: { _ in invalidate() })
    }
}
