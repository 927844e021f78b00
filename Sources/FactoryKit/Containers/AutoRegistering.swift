/// Lets a container register or adjust factories once, before it is first used.
///
/// `autoRegister()` runs once per container instance, the first time anything resolves, registers
/// or modifies a factory on it, and again after `reset(options: .all)` or
/// `reset(options: .registration)`. It is the place for registrations a module cannot make in
/// its factory definitions, such as filling in a `promised()` factory from another module:
///
/// ```swift
/// extension Container: @retroactive AutoRegistering {
///     public func autoRegister() {
///         accountLoader.register { AccountLoader() }
///         manager.defaultScope = .cached
///     }
/// }
/// ```
///
/// It may resolve and register on the same container. Registrations it makes never clear values
/// already cached, and a registration made by the caller afterwards always wins.
public protocol AutoRegistering {
    /// Registers factories and settings; called by FactoryKit, not by you.
    func autoRegister()
}
