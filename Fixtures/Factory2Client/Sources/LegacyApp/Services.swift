import Factory

protocol Greeting {
    func greet(_ name: String) -> String
}

struct PlainGreeting: Greeting {
    func greet(_ name: String) -> String { "Hello, \(name)" }
}

final class Counter {
    private(set) var count = 0
    init() {}
    func increment() -> Int {
        count += 1
        return count
    }
}

struct Formatter {
    let prefix: String
}

// Factory 2.x's way to define a factory: `Factory(self) { ... }` in an extension of `Container`.
extension Container {
    var greeting: Factory<Greeting> {
        Factory(self) { PlainGreeting() }
    }
    var counter: Factory<Counter> {
        Factory(self) { Counter() }.singleton
    }
    var formatter: ParameterFactory<String, Formatter> {
        ParameterFactory(self) { Formatter(prefix: $0) }
    }
}

// A container of the app's own, the 2.x way.
final class ServiceContainer: SharedContainer {
    static let shared = ServiceContainer()
    let manager = ContainerManager()
    var session: Factory<Counter> {
        Factory(self) { Counter() }.cached
    }
}

// The type, reached through the module `Factory`, as a stored factory.
let greetingFactory: Factory<Greeting> = Container.shared.greeting

final class WelcomeViewModel {
    @Injected(\.greeting) private var greeting
    @LazyInjected(\.counter) private var counter
    @Injected(\ServiceContainer.session) var session

    init() {}

    func welcome(_ name: String) -> String {
        "\(greeting.greet(name)) (\(counter.increment()))"
    }
}
