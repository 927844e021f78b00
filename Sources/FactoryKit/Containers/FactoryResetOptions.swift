/// What a reset removes: everything, nothing, registrations, context overrides or cached values.
///
/// ```swift
/// Container.shared.reset()                        // .all
/// Container.shared.manager.reset(options: .scope) // cached values only
/// Container.shared.service.reset(.registration)   // one factory's registration
/// ```
public enum FactoryResetOptions: Sendable {
    /// Registrations, context overrides, options and cached values.
    case all
    /// Nothing.
    case none
    /// Registrations only; cached values stay.
    case registration
    /// Context overrides only.
    case context
    /// Cached values only.
    case scope
}
