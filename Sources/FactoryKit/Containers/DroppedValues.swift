/// What a locked section of a container's manager takes out of the container, held until the
/// thread that took the lock has given it up.
///
/// Releasing a value may run user code: the value's `deinit`, or that of a closure's captures
/// (a replaced registration, a cleared decorator), or of a custom scope. That code may resolve,
/// register or take a lock of its own, so it must never run under the manager's lock, nor on a
/// thread that merely resolved something afterwards. Every write that replaces or removes such a
/// value puts it here, under the lock; `ContainerManager.withState` empties it before unlocking
/// and lets go of what it held once unlocked, on the same thread.
@usableFromInline
final class DroppedValues {
    /// Guarded by the manager's lock.
    @usableFromInline @exclusivity(unchecked) var values: [Any] = []

    @usableFromInline
    init() {}

    /// Keeps `value`, if there is one, until the lock is given up.
    func keep<Value>(_ value: Value?) {
        if let value { values.append(value) }
    }

    /// Keeps the values a cache handed over.
    func keep(_ stored: [StoredValue]) {
        if !stored.isEmpty { values.append(stored) }
    }

    /// Whether nothing waits to be released.
    var isEmpty: Bool { values.isEmpty }

    /// Hands over everything kept, leaving nothing.
    @usableFromInline
    func take() -> [Any] {
        var taken: [Any] = []
        swap(&taken, &values)
        return taken
    }
}
