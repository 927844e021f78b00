// The snippets of GettingStarted.md. `GettingStarted+Tests.swift` holds its test and runs the rest.
import FactoryKit

extension Container {
    var greeter: Factory<Greeter> { self { EnglishGreeter() }.singleton }
    var welcomeModel: Factory<WelcomeModel> { self { WelcomeModel(greeter: self.greeter()) } }
}

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

func resolveTheWelcomeModel() -> String {
    let model = Container.shared.welcomeModel()
    let message = model.message(for: "Ada")  // "Hello, Ada!"
    return message
}

final class WelcomeScreen {
    @Injected(\.welcomeModel) private var model
}

extension WelcomeScreen {
    func title() -> String { model.message(for: "Ada") }
}
