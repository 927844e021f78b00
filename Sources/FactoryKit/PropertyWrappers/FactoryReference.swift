/// How a property wrapper finds its factory: a key path on a shared container, read from the
/// container's current `shared` instance each time, so task-local containers are honoured.
@usableFromInline
struct FactoryReference<T>: @unchecked Sendable {
    @usableFromInline let make: () -> Factory<T>

    @inlinable
    init<C: SharedContainer>(_ keyPath: KeyPath<C, Factory<T>>) {
        make = { C.shared[keyPath: keyPath] }
    }

    @inlinable
    var factory: Factory<T> { make() }
}
