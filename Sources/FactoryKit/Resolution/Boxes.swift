/// A cached value, boxed once when it is created so a cache hit is a retain and a cast that costs
/// nothing (the cache key carries the result type, so the box's type is known).
@usableFromInline
final class ValueBox<T>: @unchecked Sendable {
    @usableFromInline let value: T
    /// When the value was created, for shutting scoped instances down newest first.
    @usableFromInline var order: UInt64 = 0

    init(_ value: T) { self.value = value }
}

/// Reaches the value in a `ValueBox` without knowing its type.
@usableFromInline
protocol AnyValueBox: AnyObject {
    var anyValue: Any { get }
}

extension ValueBox: AnyValueBox {
    @usableFromInline var anyValue: Any { value }
}

/// A value held weakly, for the `shared` scope.
@usableFromInline
final class WeakBox: @unchecked Sendable {
    @usableFromInline weak var object: AnyObject?
    @usableFromInline var order: UInt64 = 0

    init(_ object: AnyObject) { self.object = object }
}

/// A factory closure stored in a container: a registration or a context override.
///
/// It is handed the container it resolves from, so a registration never needs to capture (and so
/// keep alive) its own container.
@usableFromInline
final class ClosureBox<P, T>: @unchecked Sendable {
    @usableFromInline let make: (any ManagedContainer, P) -> T

    @usableFromInline
    init(_ make: @escaping (any ManagedContainer, P) -> T) { self.make = make }

    @usableFromInline
    convenience init(ignoringContainer make: @escaping (P) -> T) {
        self.init { _, parameter in make(parameter) }
    }
}

/// A per-factory decorator.
@usableFromInline
final class DecoratorBox<T>: @unchecked Sendable {
    @usableFromInline let decorate: @Sendable (T, Bool) -> Void
    /// The words of the closure the modifier was given, so that re-applying it changes nothing.
    @usableFromInline let words: ClosureWords?
    /// That closure, which keeps `words` naming it (see `ClosureWords`).
    @usableFromInline let closure: Any

    @usableFromInline
    init(_ decorate: @escaping @Sendable (T, Bool) -> Void, words: ClosureWords?, closure: Any) {
        self.decorate = decorate
        self.words = words
        self.closure = closure
    }
}

/// Lets generic code reach the value inside an optional, at any depth (`nil` for `none`).
@usableFromInline
protocol OptionalProtocol {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalProtocol {
    @usableFromInline var wrappedAny: Any? {
        switch self {
        case .some(let wrapped): return (wrapped as? OptionalProtocol)?.wrappedAny ?? wrapped
        case .none: return nil
        }
    }
}

@usableFromInline
enum ValueInspection {
    /// Whether a value is `Optional.none`, at any depth of optionality.
    ///
    /// Only an `Optional` can be `nil`, and whether a type is one is in its metadata: the first
    /// word of an `Optional`'s metadata is its kind, 0x202 (`MetadataKind::Optional`, part of the
    /// Swift ABI on every platform; a class's first word is a kind below 0x800 or, with
    /// Objective-C interop, an isa pointer, never 0x202). So a non-optional value is answered
    /// without the dynamic cast, whose first use with each type scans every protocol conformance
    /// in the process.
    @usableFromInline
    static func isNil<T>(_ value: T) -> Bool {
        guard mayBeNil(T.self) else { return false }
        guard let optional = value as? OptionalProtocol else { return false }
        return optional.wrappedAny == nil
    }

    /// Whether a value of `type` can be `nil`: an `Optional`, or `Any`, which can hold one (see
    /// `isNil`). Other existentials hold an `Optional` only if `Optional` conforms to their
    /// protocols.
    static func mayBeNil(_ type: Any.Type) -> Bool {
        isOptional(type) || type == Any.self
    }

    /// Whether `type` is an `Optional` (see `isNil`).
    static func isOptional(_ type: Any.Type) -> Bool {
        unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee == optionalMetadataKind
    }

    /// `MetadataKind::Optional`: `2 | MetadataKindIsNonHeap`.
    static var optionalMetadataKind: UInt { 0x202 }

    /// The class instance a value holds (unwrapping optionals), or nil for value types.
    @usableFromInline
    static func object<T>(in value: T) -> AnyObject? {
        let unwrapped: Any
        if mayBeNil(T.self), let optional = value as? OptionalProtocol {
            guard let wrapped = optional.wrappedAny else { return nil }
            unwrapped = wrapped
        } else {
            unwrapped = value
        }
        guard type(of: unwrapped) is AnyClass else { return nil }
        return unwrapped as AnyObject
    }
}
