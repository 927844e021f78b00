extension FactoryRegistration {
    /// Stores a registration and invalidates the values cached for this factory, whatever its
    /// scope, so the next resolution uses it. Inside `autoRegister()` nothing is invalidated.
    @usableFromInline
    func register(_ box: ClosureBox<P, T>) {
        write { options, state in
            options.registration = box
            guard !state.isAutoRegistering else { return }
            state.factories[key]?.cache.removeAll()
            if let singleton = (options.scope ?? state.defaultScope) as? Scope.Singleton {
                singleton.remove(singletonKey)
            }
        }
    }

    /// Sets the explicit scope; a change drops what the previous scope held for this factory.
    ///
    /// Moving between two `Singleton` instances (as when a test binds its own `Scope.$singleton`)
    /// keeps both caches: each is a separate set of singletons, not a previous scope.
    @usableFromInline
    func setScope(_ scope: Scope) {
        write { options, state in
            guard options.scope !== scope else { return }
            let previous = options.scope ?? state.defaultScope
            options.scope = scope
            state.factories[key]?.cache.removeAll()
            if let singleton = previous as? Scope.Singleton, !(scope is Scope.Singleton) {
                singleton.remove(singletonKey)
            }
        }
    }

    @usableFromInline
    func setOverride(_ factory: @escaping (P) -> T, for contexts: [ContextKey]) {
        guard !contexts.isEmpty else { return }
        let box = ClosureBox<P, T>(ignoringContainer: factory)
        write { options, _ in
            for context in contexts { options.contexts[context] = box }
        }
    }

    /// Resets what was stored for this factory; see ``FactoryModifying/reset(_:)``.
    @usableFromInline
    func reset(_ resetOptions: FactoryResetOptions) {
        let singleton = container.manager.state.withLock { state -> Scope.Singleton? in
            let options = state.factories[key]?.options
            let scope = (options?.scope ?? state.defaultScope) as? Scope.Singleton
            switch resetOptions {
            case .all:
                state.factories[key] = nil
                return scope
            case .registration:
                state.factories[key]?.options?.registration = nil
            case .context:
                state.factories[key]?.options?.contexts = [:]
            case .scope:
                state.factories[key]?.cache.removeAll()
                return scope
            case .none:
                break
            }
            return nil
        }
        singleton?.remove(singletonKey)
    }
}
