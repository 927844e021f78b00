extension Factory where T: Sendable {
    /// Hops to the main actor and resolves there, for a `@MainActor` factory resolved from
    /// elsewhere: `let model = await Container.shared.model.resolveOnMainActor()`.
    @MainActor
    public func resolveOnMainActor() -> T {
        resolve()
    }

    /// Resolves on `isolation`, which must be the actor the factory's closure is isolated to:
    /// `await Container.shared.store.resolveOnGlobalActor(DatabaseActor.shared)`.
    public func resolveOnGlobalActor(_ isolation: isolated (any Actor)) -> T {
        resolve()
    }
}

extension ParameterFactory where P: Sendable, T: Sendable {
    /// Hops to the main actor and resolves there for `parameters`.
    @MainActor
    public func resolveOnMainActor(_ parameters: P) -> T {
        resolve(parameters)
    }

    /// Resolves on `isolation`, which must be the actor the factory's closure is isolated to.
    public func resolveOnGlobalActor(_ isolation: isolated (any Actor), parameters: P) -> T {
        resolve(parameters)
    }
}
