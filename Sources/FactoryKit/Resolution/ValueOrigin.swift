/// Where a resolved value came from, as the trace tags it. A one-byte enum, not a `Character`:
/// comparing characters is a string comparison, which every resolution would pay for.
@usableFromInline
enum ValueOrigin: UInt8 {
    /// The factory's own closure.
    case factory
    /// A registration.
    case registration
    /// A context override.
    case override
    /// A scope's cache (or the value another resolution was creating).
    case cache

    /// Whether the value was made by this resolution rather than found.
    var isNew: Bool { self != .cache }

    /// The trace's letter: F, R, O or C.
    var letter: Character {
        switch self {
        case .factory: "F"
        case .registration: "R"
        case .override: "O"
        case .cache: "C"
        }
    }
}
