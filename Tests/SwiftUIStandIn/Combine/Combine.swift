// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (the declarations mirror Apple's, whose documentation is on the page cited above each)

// A stand-in for the few Combine declarations that FactoryKit's SwiftUI files and the SwiftUI
// article use, so that `.ci/check-swiftui` can type-check them on Linux, where Combine does not
// exist. Each declaration copies the shape of Apple's (the page it was read from is cited);
// nothing here is meant to run, so the bodies are placeholders.

// https://developer.apple.com/documentation/combine/publisher
public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error
}

// https://developer.apple.com/documentation/combine/cancellable
public protocol Cancellable {
    func cancel()
}

// https://developer.apple.com/documentation/combine/anycancellable
public final class AnyCancellable: Cancellable, Hashable {
    public init(_ cancel: @escaping () -> Void) {}
    public func cancel() {}
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

// https://developer.apple.com/documentation/combine/publisher/sink(receivevalue:)
extension Publisher where Self.Failure == Never {
    public func sink(receiveValue: @escaping ((Self.Output) -> Void)) -> AnyCancellable {
        AnyCancellable {}
    }
}

// https://developer.apple.com/documentation/combine/observableobjectpublisher
public final class ObservableObjectPublisher: Publisher {
    public typealias Output = Void
    public typealias Failure = Never
    public init() {}
    public func send() {}
}

// https://developer.apple.com/documentation/combine/observableobject
public protocol ObservableObject: AnyObject {
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where Self.ObjectWillChangePublisher.Failure == Never
    var objectWillChange: Self.ObjectWillChangePublisher { get }
}

// https://developer.apple.com/documentation/combine/observableobject/objectwillchange-2oa5v
extension ObservableObject where Self.ObjectWillChangePublisher == ObservableObjectPublisher {
    public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}

// https://developer.apple.com/documentation/combine/published
@propertyWrapper
public struct Published<Value> {
    public init(wrappedValue: Value) { storage = wrappedValue }
    private var storage: Value
    public var wrappedValue: Value {
        get { storage }
        set { storage = newValue }
    }
}
