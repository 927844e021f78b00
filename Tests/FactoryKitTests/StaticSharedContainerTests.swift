import FactoryKit
import Testing

/// A container whose `shared` is a plain `static let`, as the Containers article suggests for one
/// that is never rebound: it is a `SharedContainer` all the same.
final class StaticSharedContainer: SharedContainer {
    static let shared = StaticSharedContainer()
    let manager = ContainerManager()
}

extension StaticSharedContainer {
    var staticGreeting: Factory<any Greeting> { self { Greeter("static") }.cached }
}

private final class StaticSharedHolder {
    @Injected(\StaticSharedContainer.staticGreeting) var greeting
}

@Suite
struct StaticSharedContainerTests {
    @Test func wrappersAndDependencyResolveFromAStaticLetShared() {
        let direct = StaticSharedContainer.shared.staticGreeting()
        #expect(direct.text == "static")
        #expect(dependency(\StaticSharedContainer.staticGreeting) === direct)
        #expect(StaticSharedHolder().greeting === direct)
    }
}
