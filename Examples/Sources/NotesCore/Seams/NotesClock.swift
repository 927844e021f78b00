import Foundation

/// Where "now" comes from: a struct witness, so a test swaps it for a fixed date without a protocol.
///
/// Production code never calls `Date()` itself; it asks the clock the composition root gave it.
public struct NotesClock: Sendable {
    /// The current date.
    public var now: @Sendable () -> Date

    /// Creates a clock from a closure.
    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system's clock.
    public static let system = NotesClock { Date() }

    /// A clock that is always at `date`.
    public static func fixed(_ date: Date) -> NotesClock {
        NotesClock { date }
    }
}
