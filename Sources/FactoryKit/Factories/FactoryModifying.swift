import Foundation

/// The modifiers shared by ``Factory`` and ``ParameterFactory``.
///
/// Each modifier writes to the factory's container at once and returns the factory, so they
/// chain: `self { Service() }.singleton.onTest { MockService() }`. Written in a definition they
/// are re-applied on every access (the definition wins); written on an access from outside
/// (`Container.shared.service.onDebug { Stub() }`) they change that container until reset.
public protocol FactoryModifying {
    /// The parameter type; `Void` for ``Factory``.
    associatedtype P
    /// The type the factory resolves to.
    associatedtype T
    /// The factory's identity and original closure.
    var registration: FactoryRegistration<P, T> { get set }
}

extension FactoryModifying {
    /// Sets the factory's scope. Changing it drops the values the previous scope held.
    @inlinable @discardableResult
    public func scope(_ scope: Scope) -> Self {
        registration.setScope(scope)
        return self
    }

    /// Keeps the value in the container until reset: `scope(.cached)`.
    @inlinable
    public var cached: Self { scope(.cached) }
    /// Shares the value within one outermost resolution: `scope(.graph)`.
    @inlinable
    public var graph: Self { scope(.graph) }
    /// Keeps the value weakly while others hold it: `scope(.shared)`.
    @inlinable
    public var shared: Self { scope(.shared) }
    /// Keeps one value for the whole process: `scope(Scope.singleton)`. Each resolution uses the
    /// `Scope.singleton` its own task is bound to.
    @inlinable
    public var singleton: Self {
        registration.setSingletonScope()
        return self
    }
    /// Creates a new value on every resolution, even when the container has a `defaultScope`.
    @inlinable
    public var unique: Self { scope(.unique) }

    /// Expires a cached value `seconds` after it was last resolved (sliding expiration, measured
    /// on a monotonic clock). Has no effect on unique factories.
    @discardableResult
    public func timeToLive(_ seconds: TimeInterval) -> Self {
        registration.setTimeToLive(seconds)
        return self
    }

    /// Calls `decorator` with every value the factory resolves, cached or new.
    ///
    /// Replaces any earlier decorator of this factory and, for this factory, the container's
    /// decorator. Runs after the value is created or found, with no lock held.
    @inlinable @discardableResult
    public func decorator(_ decorator: @escaping @Sendable (_ instance: T) -> Void) -> Self {
        registration.setDecorator(words: ClosureWords(of: decorator), result: T.self) {
            DecoratorBox({ instance, _ in decorator(instance) }, words: $0, closure: decorator)
        }
        return self
    }

    /// Calls `decorator` with every value the factory resolves and whether it was just created
    /// (`true`) or came from the scope's cache (`false`).
    @inlinable @discardableResult
    public func decorator(_ decorator: @escaping @Sendable (_ instance: T, _ instantiated: Bool) -> Void) -> Self {
        registration.setDecorator(words: ClosureWords(of: decorator), result: T.self) {
            DecoratorBox(decorator, words: $0, closure: decorator)
        }
        return self
    }

    /// Overrides the factory in the given contexts; see ``FactoryContextType``.
    ///
    /// `.preview`, `.test` and `.debug` overrides are ignored in release builds. Overrides never
    /// clear a cached value.
    @inlinable @discardableResult
    public func context(_ contexts: FactoryContextType..., factory: @escaping ParameterFactoryType<P, T>) -> Self {
        registration.setOverride(words: ClosureWords(of: factory), in: contexts) {
            (ClosureBox<P, T>(ignoringContainer: factory), factory)
        }
        return self
    }

    /// Overrides the factory when `argument` is a launch argument or a run-time argument.
    @inlinable @discardableResult
    public func onArg(_ argument: String, factory: @escaping ParameterFactoryType<P, T>) -> Self {
        registration.setOverride(words: ClosureWords(of: factory), for: .arg(argument)) {
            (ClosureBox<P, T>(ignoringContainer: factory), factory)
        }
        return self
    }

    /// Overrides the factory when any of `args` is a launch argument or a run-time argument.
    @inlinable @discardableResult
    public func onArgs(_ args: [String], factory: @escaping ParameterFactoryType<P, T>) -> Self {
        context(.args(args), factory: factory)
    }

    /// Overrides the factory inside SwiftUI previews (debug builds only).
    @inlinable @discardableResult
    public func onPreview(factory: @escaping ParameterFactoryType<P, T>) -> Self {
        context(.preview, factory: factory)
    }

    /// Overrides the factory while tests run (debug builds only).
    @inlinable @discardableResult
    public func onTest(factory: @escaping ParameterFactoryType<P, T>) -> Self {
        context(.test, factory: factory)
    }

    /// Overrides the factory in debug builds.
    @inlinable @discardableResult
    public func onDebug(factory: @escaping ParameterFactoryType<P, T>) -> Self {
        context(.debug, factory: factory)
    }

    /// Overrides the factory in the simulator.
    @inlinable @discardableResult
    public func onSimulator(factory: @escaping ParameterFactoryType<P, T>) -> Self {
        context(.simulator, factory: factory)
    }

    /// Overrides the factory outside the simulator: on devices, Macs and Linux.
    @inlinable @discardableResult
    public func onDevice(factory: @escaping ParameterFactoryType<P, T>) -> Self {
        context(.device, factory: factory)
    }

    /// Applies the modifiers before it only the first time the definition is read.
    ///
    /// In `self { Service() }.cached.onTest { Mock() }.once()`, `.cached` and `.onTest` are written
    /// on the first access only, so changes made from outside afterwards (such as
    /// `Container.shared.service.unique`) stick. Modifiers chained after `.once()` and registrations
    /// still apply every time. Cleared by a factory or container reset of `.all`.
    @discardableResult
    public func once() -> Self {
        registration.markOnce()
        var copy = self
        copy.registration.once = true
        return copy
    }

    /// Lets the factory resolve its own definition in strict tests (`.container(.strict)`,
    /// `ContainerTestCase.isStrict`): for pure logic that needs no replacement, such as a
    /// formatter. Elsewhere it does nothing.
    ///
    /// ```swift
    /// var priceFormatter: Factory<PriceFormatter> { self { PriceFormatter() }.liveInTests() }
    /// ```
    @discardableResult
    public func liveInTests() -> Self {
        if Diagnostics.isObserving { TestSupport.markLive(registration.key) }
        return self
    }

    /// Removes what was added to this factory from outside its definition.
    ///
    /// `.all` removes its registration, context overrides, options and cached value (a singleton
    /// too); `.registration`, `.context` and `.scope` remove one of those. Not blocked by
    /// ``once()``, and does not run `autoRegister()`.
    @discardableResult
    public func reset(_ options: FactoryResetOptions = .all) -> Self {
        registration.reset(options)
        return self
    }
}

extension FactoryModifying where P: Hashable {
    /// Keeps one scoped value per distinct parameter (compared with `==`), instead of one value
    /// for every parameter.
    public var scopeOnParameters: Self {
        registration.setScopeOnParameters()
        return self
    }
}
