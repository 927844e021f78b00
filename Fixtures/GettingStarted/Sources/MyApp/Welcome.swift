import FactoryKit

func welcome() -> String {
    let model = Container.shared.welcomeModel()
    return model.message(for: "Ada")  // "Hello, Ada!"
}

final class WelcomeScreen {
    @Injected(\.welcomeModel) private var model

    func title() -> String { model.message(for: "Ada") }
}
