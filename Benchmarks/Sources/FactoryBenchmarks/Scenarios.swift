import FactoryKit

// The object graph, wired twice: by hand and through FactoryKit.

final class SmallService: @unchecked Sendable {
    let value: Int
    init(value: Int = 1) { self.value = value }
}

final class SharedService: @unchecked Sendable {
    let value = 2
}

enum HandWired {
    static let shared = SharedService()
}

/// Reads the hand-written singleton the way a use site does. Not inlined, so the loop cannot hoist
/// the read out and measure nothing.
@inline(never)
func handWiredShared() -> SharedService {
    HandWired.shared
}

extension Container {
    var smallService: Factory<SmallService> { self { SmallService() } }
    var sharedService: Factory<SharedService> { self { SharedService() }.singleton }
}

/// One scenario: a baseline written by hand and the same work through FactoryKit.
struct Scenario: Sendable {
    let name: String
    let handWritten: @Sendable (Int) -> Int
    let factoryKit: @Sendable (Int) -> Int
}

@inline(never)
func consume(_ object: AnyObject) -> Int {
    Int(bitPattern: ObjectIdentifier(object)) & 1
}

let scenarios: [Scenario] = [
    Scenario(
        name: "S1 unique resolve",
        handWritten: { count in
            var sum = 0
            for _ in 0..<count { sum &+= consume(SmallService()) }
            return sum
        },
        factoryKit: { count in
            var sum = 0
            for _ in 0..<count { sum &+= consume(Container.shared.smallService()) }
            return sum
        }
    ),
    Scenario(
        name: "S2 singleton resolve",
        handWritten: { count in
            var sum = 0
            for _ in 0..<count { sum &+= consume(handWiredShared()) }
            return sum
        },
        factoryKit: { count in
            var sum = 0
            for _ in 0..<count { sum &+= consume(Container.shared.sharedService()) }
            return sum
        }
    ),
]
