/// What a container stores for one factory key: the options written by modifiers and
/// `register`, and the key's cached values for the scopes the container owns.
@usableFromInline
struct KeyState {
    @usableFromInline var options: FactoryOptions?
    @usableFromInline var cache = SlotGroup()
    /// The scope instance whose values `cache` holds (for `reset(scope:)`).
    @usableFromInline var cacheScope: ObjectIdentifier?

    @inlinable
    init() {}

    /// A copy without creations in flight, for `push()`.
    var settled: KeyState {
        var copy = self
        copy.cache = cache.settled
        return copy
    }
}

/// The modifiers and registrations stored for one factory key.
@usableFromInline
struct FactoryOptions {
    @usableFromInline var registration: AnyObject?
    @usableFromInline var contexts: [ContextKey: AnyObject] = [:]
    @usableFromInline var scope: Scope?
    @usableFromInline var scopeOnParameters = false
    @usableFromInline var timeToLive: UInt64?
    @usableFromInline var decorator: AnyObject?
    @usableFromInline var once = false

    @inlinable
    init() {}
}

/// Whether a container's `autoRegister()` has run.
@usableFromInline
enum AutoRegistrationPhase {
    case pending
    case running(InFlight)
    case done
}

/// Everything a `ContainerManager` guards with its lock.
@usableFromInline
struct ManagerState {
    @usableFromInline var factories: [FactoryKey: KeyState] = [:]
    @usableFromInline var autoRegistration = AutoRegistrationPhase.pending
    @usableFromInline var defaultScope: Scope?
    @usableFromInline var decorator: ((Any) -> Void)?
    @usableFromInline var promiseTriggersError = FactoryContext.promiseTriggersErrorByDefault
    var snapshots: [Snapshot] = []

    /// What `push()` saves and `pop()` restores.
    struct Snapshot {
        let factories: [FactoryKey: KeyState]
        let autoRegistrationDone: Bool
        let defaultScope: Scope?
        let decorator: ((Any) -> Void)?
        let promiseTriggersError: Bool
    }

    @usableFromInline
    init() {}

    @usableFromInline
    var isAutoRegistering: Bool {
        if case .running = autoRegistration { return true }
        return false
    }
}
