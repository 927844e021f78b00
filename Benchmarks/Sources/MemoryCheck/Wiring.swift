import FactoryKit

// The objects MemoryCheck resolves, and their wiring: one factory in each scope, a graph of them,
// parameter factories, a decorated factory that tests override, and a container of its own. Every
// value is a class instance, so that a value a container failed to release would be a leak that
// valgrind sees, not a few bytes inside a buffer.

/// Counts what the program resolved, so that no resolution can be optimized away.
final class Tally: @unchecked Sendable {
    var total = 0
}

/// Decorators run on every resolution of their factory; this one counts them.
let decorations = Tally()

final class Request: @unchecked Sendable {
    let id: Int
    init(id: Int = 1) { self.id = id }
}

final class Session: @unchecked Sendable {
    let id = 2
}

final class Store: @unchecked Sendable {
    let id = 3
}

final class Clock: @unchecked Sendable {
    let id = 4
}

final class Node: @unchecked Sendable {
    let id = 5
}

final class Profile: @unchecked Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

/// Built from one value of every scope: the cycle of references a leak would most likely hide in.
final class Screen: @unchecked Sendable {
    let request: Request
    let session: Session
    let store: Store
    let clock: Clock
    let left: Node
    let right: Node
    let profile: Profile

    init(request: Request, session: Session, store: Store, clock: Clock, left: Node, right: Node, profile: Profile) {
        self.request = request
        self.session = session
        self.store = store
        self.clock = clock
        self.left = left
        self.right = right
        self.profile = profile
    }

    var checksum: Int {
        request.id + session.id + store.id + clock.id + left.id + right.id + profile.id
    }
}

protocol Greeter: AnyObject, Sendable {
    var id: Int { get }
}

final class LiveGreeter: Greeter, @unchecked Sendable {
    let id = 6
}

final class MockGreeter: Greeter, @unchecked Sendable {
    let id = 7
}

/// Holds its dependency through a property wrapper, which resolves from `Container.shared`.
final class Presenter: @unchecked Sendable {
    @Injected(\.session) var session
    @LazyInjected(\.request) var request
}

extension Scope {
    /// A cache of its own, dropped with `reset(scope: .visit)` while `.cached` values stay.
    static let visit = Cached()
}

extension Container {
    var request: Factory<Request> { self { Request() } }
    var session: Factory<Session> { self { Session() }.cached }
    var store: Factory<Store> { self { Store() }.shared }
    var clock: Factory<Clock> { self { Clock() }.singleton }
    var node: Factory<Node> { self { Node() }.graph }
    var visitor: Factory<Request> { self { Request(id: 8) }.scope(.visit) }
    /// Expires at once, so every resolution replaces (and releases) the value before it.
    var expiring: Factory<Request> { self { Request(id: 9) }.cached.timeToLive(0) }
    var profile: ParameterFactory<Int, Profile> { self { Profile(id: $0) } }
    /// One value per distinct parameter, for as long as the container lives.
    var profileByID: ParameterFactory<Int, Profile> { self { Profile(id: $0) }.cached.scopeOnParameters }
    var greeter: Factory<any Greeter> {
        self { LiveGreeter() }.decorator { _ in decorations.total &+= 1 }
    }
    var screen: Factory<Screen> {
        self {
            Screen(
                request: self.request(), session: self.session(), store: self.store(), clock: self.clock(),
                left: self.node(), right: self.node(), profile: self.profile(self.request().id))
        }
    }
}

/// A container besides `Container`, as a feature module would declare one.
final class FeatureContainer: SharedContainer, @unchecked Sendable {
    @TaskLocal static var shared = FeatureContainer()
    let manager = ContainerManager()
}

extension FeatureContainer {
    var feature: Factory<Store> { self { Store() }.cached }
    var featureClock: Factory<Clock> { self { Clock() }.singleton }
    /// Reaches into another container, as features do.
    var featureScreen: Factory<Screen> { self { Container.shared.screen() }.shared }
}
