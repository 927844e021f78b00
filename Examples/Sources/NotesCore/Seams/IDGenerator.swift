import Foundation

/// Where new identifiers come from: a struct witness, like ``NotesClock``.
public struct IDGenerator: Sendable {
    /// A new identifier.
    public var next: @Sendable () -> UUID

    /// Creates a generator from a closure.
    public init(next: @escaping @Sendable () -> UUID) {
        self.next = next
    }

    /// Random identifiers (UUID version 4).
    public static let random = IDGenerator { UUID() }

    /// Identifiers 1, 2, 3, … in the first group (`00000001-0000-4000-8000-000000000000`), so
    /// outputs are exact in tests and every short id differs. Safe to call from many tasks.
    public static func sequential(startingAt first: UInt32 = 1) -> IDGenerator {
        let counter = Counter(first)
        return IDGenerator {
            let value = counter.takeNext()
            let text = String(value, radix: 16)
            let group = String(repeating: "0", count: max(0, 8 - text.count)) + text
            return UUID(uuidString: "\(group)-0000-4000-8000-000000000000")!
        }
    }
}

/// A thread-safe counter for ``IDGenerator/sequential(startingAt:)``.
private final class Counter: Sendable {
    private let value: Protected<UInt32>

    init(_ first: UInt32) { value = Protected(first) }

    func takeNext() -> UInt32 {
        value.withLock { value in
            defer { value &+= 1 }
            return value
        }
    }
}
