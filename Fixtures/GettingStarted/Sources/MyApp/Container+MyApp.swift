import FactoryKit

extension Container {
    var greeter: Factory<Greeter> { self { EnglishGreeter() }.singleton }
    var welcomeModel: Factory<WelcomeModel> { self { WelcomeModel(greeter: self.greeter()) } }
}
