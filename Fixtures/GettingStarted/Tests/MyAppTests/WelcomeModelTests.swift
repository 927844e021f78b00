import FactoryKit
import FactoryTesting
import Testing

@testable import MyApp

struct FrenchGreeter: Greeter {
    func greet(_ name: String) -> String { "Bonjour, \(name) !" }
}

@Suite(.container)
struct WelcomeModelTests {
    @Test func greetsWithTheRegisteredGreeter() {
        Container.shared.greeter.register { FrenchGreeter() }
        #expect(Container.shared.welcomeModel().message(for: "Ada") == "Bonjour, Ada !")
    }
}

@Suite(.container)
struct WelcomeTests {
    @Test func welcomesWithTheDefinition() {
        #expect(welcome() == "Hello, Ada!")
        #expect(WelcomeScreen().title() == "Hello, Ada!")
    }
}
