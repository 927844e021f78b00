protocol Greeter {
    func greet(_ name: String) -> String
}

struct EnglishGreeter: Greeter {
    func greet(_ name: String) -> String { "Hello, \(name)!" }
}

final class WelcomeModel {
    private let greeter: Greeter

    init(greeter: Greeter) {
        self.greeter = greeter
    }

    func message(for name: String) -> String { greeter.greet(name) }
}
