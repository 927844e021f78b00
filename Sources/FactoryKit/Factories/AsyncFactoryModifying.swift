import Foundation

/// The modifiers of ``AsyncFactory`` and ``AsyncParameterFactory``: the same as
/// ``FactoryModifying``'s, with asynchronous override closures.
///
/// Scope modifiers exist only for `Sendable` results, since a scoped value is shared by tasks.
public protocol AsyncFactoryModifying {
    /// The parameter type; `Void` for ``AsyncFactory``.
    associatedtype P
    /// The type the factory resolves to.
    associatedtype T
    /// The factory's identity and original closure.
    var registration: AsyncFactoryRegistration<P, T> { get set }
}

extension AsyncFactoryModifying {
    /// Creates a new value on every resolution.
    public var unique: Self {
        registration.setScope(.unique)
        return self
    }

    /// Expires a cached value `seconds` after it was last resolved; see
    /// ``FactoryModifying/timeToLive(_:)``.
    @discardableResult
    public func timeToLive(_ seconds: TimeInterval) -> Self {
        registration.setTimeToLive(seconds)
        return self
    }

    /// Calls `decorator` with every value the factory resolves.
    @inlinable @discardableResult
    public func decorator(_ decorator: @escaping @Sendable (_ instance: T) -> Void) -> Self {
        registration.setDecorator(words: ClosureWords(of: decorator), result: T.self) {
            DecoratorBox({ instance, _ in decorator(instance) }, words: $0, closure: decorator)
        }
        return self
    }

    /// Calls `decorator` with every value the factory resolves and whether it was just created.
    @inlinable @discardableResult
    public func decorator(_ decorator: @escaping @Sendable (_ instance: T, _ instantiated: Bool) -> Void) -> Self {
        registration.setDecorator(words: ClosureWords(of: decorator), result: T.self) {
            DecoratorBox(decorator, words: $0, closure: decorator)
        }
        return self
    }

    /// Overrides the factory in the given contexts; see ``FactoryContextType``.
    @inlinable @discardableResult
    public func context(_ contexts: FactoryContextType..., factory: @escaping AsyncParameterFactoryType<P, T>) -> Self {
        registration.setOverride(words: ClosureWords(of: factory), in: contexts) {
            (AsyncClosureBox<P, T> { _, parameter in try await factory(parameter) }, factory)
        }
        return self
    }

    /// Overrides the factory when `argument` is a launch or run-time argument.
    @inlinable @discardableResult
    public func onArg(_ argument: String, factory: @escaping AsyncParameterFactoryType<P, T>) -> Self {
        registration.setOverride(words: ClosureWords(of: factory), for: .arg(argument)) {
            (AsyncClosureBox<P, T> { _, parameter in try await factory(parameter) }, factory)
        }
        return self
    }

    /// Overrides the factory when any of `args` is a launch or run-time argument.
    @inlinable @discardableResult
    public func onArgs(_ args: [String], factory: @escaping AsyncParameterFactoryType<P, T>) -> Self {
        context(.args(args), factory: factory)
    }

    /// Overrides the factory inside SwiftUI previews (debug builds only).
    @inlinable @discardableResult
    public func onPreview(factory: @escaping AsyncParameterFactoryType<P, T>) -> Self {
        context(.preview, factory: factory)
    }

    /// Overrides the factory while tests run (debug builds only).
    @inlinable @discardableResult
    public func onTest(factory: @escaping AsyncParameterFactoryType<P, T>) -> Self {
        context(.test, factory: factory)
    }

    /// Overrides the factory in debug builds.
    @inlinable @discardableResult
    public func onDebug(factory: @escaping AsyncParameterFactoryType<P, T>) -> Self {
        context(.debug, factory: factory)
    }

    /// Overrides the factory in the simulator.
    @inlinable @discardableResult
    public func onSimulator(factory: @escaping AsyncParameterFactoryType<P, T>) -> Self {
        context(.simulator, factory: factory)
    }

    /// Overrides the factory outside the simulator.
    @inlinable @discardableResult
    public func onDevice(factory: @escaping AsyncParameterFactoryType<P, T>) -> Self {
        context(.device, factory: factory)
    }

    /// Applies the modifiers before it only the first time the definition is read; see
    /// ``FactoryModifying/once()``.
    @discardableResult
    public func once() -> Self {
        registration.markOnce()
        var copy = self
        copy.registration.once = true
        return copy
    }

    /// Lets the factory resolve its own definition in strict tests; see
    /// ``FactoryModifying/liveInTests()``.
    @discardableResult
    public func liveInTests() -> Self {
        if Diagnostics.isObserving { TestSupport.markLive(registration.key) }
        return self
    }

    /// Removes what was added to this factory from outside its definition; see
    /// ``FactoryModifying/reset(_:)``.
    @discardableResult
    public func reset(_ options: FactoryResetOptions = .all) -> Self {
        registration.reset(options)
        return self
    }
}

// The scope modifiers run on every access of a definition; inlinable, as the synchronous ones
// are, so they compile to a check of three words in the app rather than generic code in the
// library, which looked up the registration's metadata at run time. With the inlinable
// initializers, an async singleton hit (S8) went from 2,626 to 1,056 instructions.
extension AsyncFactoryModifying where T: Sendable {
    /// Sets the factory's scope. Changing it drops the values the previous scope held.
    @inlinable @discardableResult
    public func scope(_ scope: Scope) -> Self {
        registration.setScope(scope)
        return self
    }

    /// Keeps the value in the container until reset.
    @inlinable
    public var cached: Self { scope(.cached) }
    /// Shares the value within one outermost resolution, and every child task it starts: the
    /// next resolution from outside gets a new one.
    @inlinable
    public var graph: Self { scope(.graph) }
    /// Keeps the value weakly while others hold it.
    @inlinable
    public var shared: Self { scope(.shared) }
    /// Keeps one value for the whole process. Each resolution uses the `Scope.singleton` its own
    /// task is bound to.
    @inlinable
    public var singleton: Self {
        registration.setSingletonScope()
        return self
    }
}

extension AsyncFactoryModifying where P: Hashable, T: Sendable {
    /// Keeps one scoped value per distinct parameter.
    public var scopeOnParameters: Self {
        registration.setScopeOnParameters()
        return self
    }
}
