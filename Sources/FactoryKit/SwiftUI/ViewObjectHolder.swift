/// Keeps the object a SwiftUI view wrapper created, so that it is created once per view identity:
/// SwiftUI keeps one holder per identity (in `@StateObject`, see `ViewObjectBox`) and discards
/// the ones later initializations of the view create before they are used.
///
/// The wrappers that use it are `@MainActor`, so the holder is only ever touched on the main
/// actor; it is not `Sendable`.
package class ViewObjectHolder<T> {
    /// The object, once created.
    package private(set) var object: T?

    /// An empty holder; nothing is created until ``object(orCreate:)``.
    package init() {}

    /// The object, created by `create` on the first call.
    package func object(orCreate create: () -> T) -> T {
        if let object { return object }
        let created = create()
        object = created
        didCreate(created)
        return created
    }

    /// Called once, after the object is created; subclasses observe the object here.
    package func didCreate(_ object: T) {}
}
