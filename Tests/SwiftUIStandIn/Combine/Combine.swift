// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (the declarations mirror Apple's, whose documentation is on the page cited above each)

// A stand-in for the few Combine declarations that FactoryKit's SwiftUI files and the SwiftUI
// article use, so that `.ci/check-swiftui` can build them on Linux, where Combine does not exist.
// Each declaration copies the shape of Apple's (the page it was read from is cited), and does the
// little the behavioural host (SwiftUI/Host.swift) needs: `objectWillChange` publishes before a
// `@Published` property changes, and `sink` delivers to its subscriber until cancelled.

import Foundation

// https://developer.apple.com/documentation/combine/publisher
public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error
    // Not Apple's: the stand-in's one way to subscribe (Apple's is `receive(subscriber:)`).
    func _subscribe(_ receive: @escaping (Output) -> Void) -> AnyCancellable
}

// https://developer.apple.com/documentation/combine/cancellable
public protocol Cancellable {
    func cancel()
}

// https://developer.apple.com/documentation/combine/anycancellable ("An AnyCancellable instance
// automatically calls cancel() when deinitialized.")
public final class AnyCancellable: Cancellable, Hashable {
    private var onCancel: (() -> Void)?
    public init(_ cancel: @escaping () -> Void) { onCancel = cancel }
    deinit { onCancel?() }
    public func cancel() {
        let cancel = onCancel
        onCancel = nil
        cancel?()
    }
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

// https://developer.apple.com/documentation/combine/publisher/sink(receivevalue:)
extension Publisher where Self.Failure == Never {
    public func sink(receiveValue: @escaping ((Self.Output) -> Void)) -> AnyCancellable {
        _subscribe(receiveValue)
    }
}

// https://developer.apple.com/documentation/combine/observableobjectpublisher ("A publisher that
// publishes changes from observable objects.")
public final class ObservableObjectPublisher: Publisher {
    public typealias Output = Void
    public typealias Failure = Never
    private var subscribers: [Int: (Output) -> Void] = [:]
    private var nextSubscriber = 0
    public init() {}
    public func send() {
        for receive in subscribers.values { receive(()) }
    }
    public func _subscribe(_ receive: @escaping (Output) -> Void) -> AnyCancellable {
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = receive
        return AnyCancellable { [weak self] in self?.subscribers[id] = nil }
    }
}

// https://developer.apple.com/documentation/combine/observableobject
public protocol ObservableObject: AnyObject {
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where Self.ObjectWillChangePublisher.Failure == Never
    var objectWillChange: Self.ObjectWillChangePublisher { get }
}

// https://developer.apple.com/documentation/combine/observableobject/objectwillchange-2oa5v ("By
// default an ObservableObject synthesizes an objectWillChange publisher that emits the changed
// value before any of its @Published properties changes."): one publisher per object, kept in a
// table while the object lives.
extension ObservableObject where Self.ObjectWillChangePublisher == ObservableObjectPublisher {
    public var objectWillChange: ObservableObjectPublisher { SynthesizedPublishers.publisher(for: self) }
}

private enum SynthesizedPublishers {
    private struct Entry {
        weak var object: AnyObject?
        let publisher: ObservableObjectPublisher
    }
    private static let lock = NSLock()
    nonisolated(unsafe) private static var table: [ObjectIdentifier: Entry] = [:]

    static func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        lock.lock()
        defer { lock.unlock() }
        if let entry = table[ObjectIdentifier(object)], entry.object === object { return entry.publisher }
        let publisher = ObservableObjectPublisher()
        table[ObjectIdentifier(object)] = Entry(object: object, publisher: publisher)
        return publisher
    }
}

// https://developer.apple.com/documentation/combine/published ("When the property changes,
// publishing occurs in the property's willSet block"): the enclosing object's synthesized
// `objectWillChange` publishes before the new value is stored.
@propertyWrapper
public struct Published<Value> {
    private var storage: Value
    public init(wrappedValue: Value) { storage = wrappedValue }
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }
    }
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].storage }
        set {
            if let observable = object as? any ObservableObject,
                let publisher = observable.objectWillChange as? ObservableObjectPublisher
            {
                publisher.send()
            }
            object[keyPath: storageKeyPath].storage = newValue
        }
    }
}
