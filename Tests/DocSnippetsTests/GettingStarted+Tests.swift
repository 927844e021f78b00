import FactoryKit
import FactoryTesting
import Testing

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
struct GettingStartedArticleTests {
    @Test func resolvesTheDefinition() {
        #expect(resolveTheWelcomeModel() == "Hello, Ada!")
    }

    @Test func thePropertyWrapperResolvesTheSameFactory() {
        #expect(WelcomeScreen().title() == "Hello, Ada!")
    }
}
