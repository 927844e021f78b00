extension ContainerManager {
    /// What a child manager took from its parent, per factory: the registration, context
    /// overrides and decorator as they were when it last took them, to tell later which ones the
    /// parent has changed (see ``follow(_:since:)``).
    package struct InheritedOptions: @unchecked Sendable {
        // Closures and overrides, only compared by identity here.
        fileprivate var byKey: [FactoryKey: FactoryRecord.Followed] = [:]
    }

    /// Makes this manager, a new container's, start from what `parent` holds now: its
    /// registrations and options, the values its scopes have cached, its default scope, decorator
    /// and `promiseTriggersError`, and whether its `autoRegister()` has run. Values the child
    /// caches from now on stay its own, and singletons stay one per process. Returns what it took,
    /// for ``follow(_:since:)``.
    ///
    /// SwiftUI's `withContainer(_:_:)` gives the views below it such a child, so that its
    /// registration reaches them and nothing else. Nothing of `parent` runs: the copy is read
    /// under `parent`'s lock, then written under this manager's, never both at once.
    @discardableResult
    package func inherit(from parent: ContainerManager) -> InheritedOptions {
        typealias Copied = (options: FactoryRecord.Options, cache: SlotGroup, cacheScope: ObjectIdentifier?)
        let copied = parent.withOwnState { state in
            let autoRegistrationDone: Bool
            if case .done = state.autoRegistration { autoRegistrationDone = true } else { autoRegistrationDone = false }
            return (
                records: state.records.mapValues { record -> Copied in
                    (record.options, record.cache.settled, record.cacheScope)
                },
                validators: state.records.mapValues { ($0.validator, $0.validatorSite) },
                autoRegistrationDone: autoRegistrationDone,
                defaultScope: state.defaultScope,
                decorator: state.decorator,
                promiseTriggersError: state.promiseTriggersError
            )
        }
        withOwnState { state in
            for (key, saved) in copied.records {
                let record = state.record(for: key)
                record.restore(options: saved.options)
                record.cache = saved.cache
                record.cacheScope = saved.cacheScope
                if let validator = copied.validators[key] {
                    record.validator = validator.0
                    record.validatorSite = validator.1
                }
            }
            if copied.autoRegistrationDone { state.autoRegistration = .done }
            state.defaultScope = copied.defaultScope
            state.decorator = copied.decorator
            state.promiseTriggersError = copied.promiseTriggersError
        }
        return InheritedOptions(byKey: copied.records.mapValues { FactoryRecord.Followed($0.options) })
    }

    /// Takes what `parent` has changed since `inherited` was taken, for each factory whose
    /// registration, context overrides and decorator this manager has not changed itself: a
    /// `register`, `onTest`-style override or decorator made or removed on the parent since, as a
    /// `register` on this manager would, dropping the value it had cached for that factory. A
    /// factory this manager registered keeps its own (the nearest wins). Scopes, cached values and
    /// container-wide settings are not followed: each container keeps its own.
    ///
    /// Compares by identity, under each lock in turn, never both: nothing of either container
    /// runs.
    package func follow(_ parent: ContainerManager, since inherited: inout InheritedOptions) {
        let base = inherited.byKey
        let changed = parent.withOwnState { state -> [FactoryKey: FactoryRecord.Followed] in
            var changed: [FactoryKey: FactoryRecord.Followed] = [:]
            for (key, record) in state.records {
                let now = FactoryRecord.Followed(record.options)
                if !now.isSame(as: base[key]) { changed[key] = now }
            }
            return changed
        }
        if changed.isEmpty { return }
        withOwnState { state in
            for (key, taken) in changed {
                let record = state.record(for: key)
                guard FactoryRecord.Followed(record.options).isSame(as: base[key]) else { continue }
                record.registration = taken.registration
                record.contexts = taken.contexts
                record.decorator = taken.decorator
                if taken.registration != nil || taken.contexts != nil || taken.decorator != nil {
                    record.hasOptions = true
                }
                state.release(record.cache.drain())
            }
        }
        for (key, taken) in changed { inherited.byKey[key] = taken }
    }
}

extension FactoryRecord {
    /// The options a child follows its parent in: what `register`, context overrides and
    /// `decorator` write.
    struct Followed {
        var registration: AnyObject?
        var contexts: ContextOverrides?
        var decorator: AnyObject?

        init(_ options: Options) {
            registration = options.registration
            contexts = options.contexts
            decorator = options.decorator
        }

        /// Whether `other` holds the same objects; `nil` is a factory with none of them.
        func isSame(as other: Self?) -> Bool {
            registration === other?.registration && decorator === other?.decorator
                && ContextOverrides.isSame(contexts, other?.contexts)
        }
    }
}

extension ContextOverrides {
    /// Whether two sets of overrides hold the same entries, by identity.
    static func isSame(_ lhs: Self?, _ rhs: Self?) -> Bool {
        let left = lhs?.entries ?? []
        let right = rhs?.entries ?? []
        return left.count == right.count && zip(left, right).allSatisfy { $0.box === $1.box }
    }
}
