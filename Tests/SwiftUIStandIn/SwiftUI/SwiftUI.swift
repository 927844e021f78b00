// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (the declarations mirror Apple's, whose documentation is on the page cited above each)

// A stand-in for the SwiftUI declarations that FactoryKit's `#if canImport(SwiftUI)` files and
// the SwiftUI article's samples use, so that `.ci/check-swiftui` can build them on Linux and run
// them in a small host (Host.swift) that evaluates a view tree as SwiftUI documents it. Each
// declaration copies the shape of Apple's: its generic signature, isolation and parameter
// attributes, from the page cited above it. Storage and behaviour are the host's, never Apple's
// code. Keep it to what the checked code uses: every extra declaration is one more signature that
// could be wrong.
//
// Built with `-D STANDIN_MAIN_ACTOR_EMPTYVIEW`, `EmptyView.init()` is main-actor isolated, as in
// some SwiftUI implementations, so FactoryKit is checked against both isolations.

@_exported import Combine
@_exported import Observation

// MARK: Views

// https://developer.apple.com/documentation/swiftui/view
@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/emptyview (in the main-actor variant, the
// whole type is isolated, its initializer included)
#if STANDIN_MAIN_ACTOR_EMPTYVIEW
    @frozen @MainActor
    public struct EmptyView {
        public init() {}
        // The stand-in's own builders make one wherever they run.
        nonisolated init(standIn: Void) {}
    }
#else
    @frozen
    public struct EmptyView {
        nonisolated public init() {}
        // The stand-in's own builders make one wherever they run.
        nonisolated init(standIn: Void) {}
    }
#endif

extension EmptyView: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/tupleview
@frozen
public struct TupleView<T> {
    public var value: T
    nonisolated public init(_ value: T) { self.value = value }
}

extension TupleView: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/viewbuilder (the Xcode 15-26 form: every
// expression goes through `buildExpression`, and one that is not a view hits the unavailable
// overload, as with SwiftUI; Xcode 27 lifts that restriction)
@resultBuilder
public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    @available(*, unavailable, message: "this expression does not conform to 'View'")
    @_disfavoredOverload
    public static func buildExpression(_ invalid: Any) -> some View { EmptyView(standIn: ()) }
    public static func buildBlock() -> EmptyView { EmptyView(standIn: ()) }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(
        _ content: repeat each Content
    ) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildif(_:)
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(first:)
    public static func buildEither<TrueContent: View, FalseContent: View>(
        first: TrueContent
    ) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .trueContent(first))
    }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(second:)
    public static func buildEither<TrueContent: View, FalseContent: View>(
        second: FalseContent
    ) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .falseContent(second))
    }
}

// https://developer.apple.com/documentation/swiftui/optional ("Optional: View when Wrapped: View")
extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/_conditionalcontent
public struct _ConditionalContent<TrueContent, FalseContent> {
    enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }
    let storage: Storage
}

extension _ConditionalContent: View where TrueContent: View, FalseContent: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/text
@frozen
public struct Text: Equatable, Sendable {
    let content: String
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ content: S) { self.content = String(content) }
    public static func == (lhs: Text, rhs: Text) -> Bool { lhs.content == rhs.content }
}

extension Text: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/vstack (Apple's init also takes `alignment:`
// and `spacing:` with defaults; the samples use neither)
@frozen
public struct VStack<Content: View>: View {
    nonisolated(unsafe) let content: Content
    nonisolated public init(@ViewBuilder content: () -> Content) { self.content = content() }
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/button
@MainActor @preconcurrency
public struct Button<Label: View>: View {
    nonisolated let title: String
    nonisolated let action: @MainActor () -> Void
    @preconcurrency nonisolated public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void)
    where Label == Text {
        self.title = String(title)
        self.action = action
    }
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/textfield
@MainActor @preconcurrency
public struct TextField<Label: View>: View {
    nonisolated public init<S: StringProtocol>(_ title: S, text: Binding<String>) where Label == Text {}
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// MARK: Modifiers

// https://developer.apple.com/documentation/swiftui/viewmodifier
@MainActor @preconcurrency
public protocol ViewModifier {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
    typealias Content = _ViewModifier_Content<Self>
}

// The type of `content` in `ViewModifier.body(content:)`: the host puts the modified view there.
public struct _ViewModifier_Content<Modifier: ViewModifier> {}

extension _ViewModifier_Content: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/modifiedcontent
@frozen
public struct ModifiedContent<Content, Modifier> {
    public var content: Content
    public var modifier: Modifier
    nonisolated public init(content: Content, modifier: Modifier) {
        self.content = content
        self.modifier = modifier
    }
}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

extension View {
    // https://developer.apple.com/documentation/swiftui/view/modifier(_:)
    nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> {
        ModifiedContent(content: self, modifier: modifier)
    }

    // https://developer.apple.com/documentation/swiftui/view/environment(_:_:)
    nonisolated public func environment<V>(
        _ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V
    ) -> some View {
        modifier(_EnvironmentKeyWritingModifier(writing: value, at: keyPath))
    }
}

// What `environment(_:_:)` returns; the host writes the value for the content.
public struct _EnvironmentKeyWritingModifier<Value>: ViewModifier {
    nonisolated(unsafe) let keyPath: WritableKeyPath<EnvironmentValues, Value>
    nonisolated(unsafe) let value: Value
    // Not the synthesized initializer, which would be main-actor isolated.
    nonisolated init(writing value: Value, at keyPath: WritableKeyPath<EnvironmentValues, Value>) {
        self.keyPath = keyPath
        self.value = value
    }
    public func body(content: Content) -> Content { content }
}

// MARK: Dynamic properties

// https://developer.apple.com/documentation/swiftui/dynamicproperty
public protocol DynamicProperty {
    mutating func update()
}

extension DynamicProperty {
    public mutating func update() {}
}

// https://developer.apple.com/documentation/swiftui/environmentkey
public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Self.Value { get }
}

// https://developer.apple.com/documentation/swiftui/environmentvalues
public struct EnvironmentValues {
    private var values: [ObjectIdentifier: Any] = [:]
    public init() {}
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { values[ObjectIdentifier(key)].map { $0 as! K.Value } ?? K.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}

// https://developer.apple.com/documentation/swiftui/environment (the host sets the value before
// `update()` and `body`; read elsewhere, it is the key's default, as SwiftUI warns)
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
    let keyPath: KeyPath<EnvironmentValues, Value>
    let location = HostLocation<Value>()
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }
    public var wrappedValue: Value { location.value ?? EnvironmentValues()[keyPath: keyPath] }
}

// https://developer.apple.com/documentation/swiftui/state (storage per view identity, kept by
// the host; read before the view is installed, it is the initial value)
@propertyWrapper
public struct State<Value>: DynamicProperty {
    let initialValue: Value
    let location = HostLocation<HostSlot<Value>>()
    public init(wrappedValue value: Value) { initialValue = value }
    public var wrappedValue: Value {
        get { location.value?.value ?? initialValue }
        nonmutating set { location.value?.set(newValue) }
    }
    public var projectedValue: Binding<Value> {
        Binding(get: { wrappedValue }, set: { wrappedValue = $0 })
    }
}

// https://developer.apple.com/documentation/swiftui/binding
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    private let get: () -> Value
    private let set: (Value) -> Void
    // https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-6g3d5
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }
    public init(projectedValue: Binding<Value>) { self = projectedValue }
    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }
    public var projectedValue: Binding<Value> { self }
    public static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        Binding<Subject>(
            get: { self.wrappedValue[keyPath: keyPath] },
            set: { self.wrappedValue[keyPath: keyPath] = $0 })
    }
}

// https://developer.apple.com/documentation/swiftui/stateobject (the thunk runs once per view
// identity, when the host installs the view; read before that, each read makes a new object, as
// SwiftUI warns)
@MainActor @propertyWrapper @preconcurrency
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
    nonisolated(unsafe) let thunk: () -> ObjectType
    nonisolated(unsafe) let location = HostLocation<HostSlot<ObjectType>>()
    nonisolated public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) { self.thunk = thunk }
    public var wrappedValue: ObjectType { location.value?.value ?? thunk() }
    public var projectedValue: ObservedObject<ObjectType>.Wrapper { .init(object: wrappedValue) }
}

// https://developer.apple.com/documentation/swiftui/observedobject
@propertyWrapper @preconcurrency @MainActor
public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty {
    // https://developer.apple.com/documentation/swiftui/observedobject/wrapper
    @dynamicMemberLookup @preconcurrency @MainActor
    public struct Wrapper {
        let object: ObjectType
        public subscript<Subject>(
            dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>
        ) -> Binding<Subject> {
            let object = object
            return Binding(get: { object[keyPath: keyPath] }, set: { object[keyPath: keyPath] = $0 })
        }
    }

    @MainActor @preconcurrency public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }
    public let wrappedValue: ObjectType
    public var projectedValue: ObservedObject<ObjectType>.Wrapper { .init(object: wrappedValue) }
}

// MARK: Apps and scenes

// https://developer.apple.com/documentation/swiftui/app
@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    @MainActor @preconcurrency init()
}

extension App {
    // https://developer.apple.com/documentation/swiftui/app/main()
    @MainActor @preconcurrency public static func main() {}
}

// https://developer.apple.com/documentation/swiftui/scene
@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: Scene {}

// https://developer.apple.com/documentation/swiftui/scenebuilder
@resultBuilder
public struct SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

// https://developer.apple.com/documentation/swiftui/windowgroup ("every window created from the
// group maintains independent state": the host opens each window as a root of its own)
@MainActor @preconcurrency
public struct WindowGroup<Content: View>: Scene {
    nonisolated(unsafe) let content: Content
    nonisolated public init(@ViewBuilder content: () -> Content) { self.content = content() }
    public typealias Body = Never
    public var body: Never { fatalError() }
}
