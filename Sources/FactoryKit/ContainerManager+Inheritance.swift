extension ContainerManager {
    /// Makes this manager, a new container's, start from what `parent` holds now: its
    /// registrations and options, the values its scopes have cached, its default scope, decorator
    /// and `promiseTriggersError`, and whether its `autoRegister()` has run. It is a copy, as
    /// ``push()`` takes one: later changes to either container do not reach the other, values the
    /// child caches from now on stay its own, and singletons stay one per process.
    ///
    /// SwiftUI's `withContainer(_:_:)` gives the views below it such a child, so that its
    /// registration reaches them and nothing else. Nothing of `parent` runs: the copy is read
    /// under `parent`'s lock, then written under this manager's, never both at once.
    package func inherit(from parent: ContainerManager) {
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
    }
}
