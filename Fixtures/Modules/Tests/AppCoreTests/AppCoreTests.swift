import AppCore
import FactoryTesting
import Services
import Testing

struct MockLoader: AccountLoading {
    func accounts() -> [String] { ["mock"] }
}

@Suite(.container)
struct AppCoreTests {
    @Test func theAppProvidesWhatServicesPromised() {
        #expect(Container.shared.accountsModel().titles == ["checking", "savings"])
    }

    @Test func aTestReplacesItAcrossModules() {
        Container.shared.accountLoader { MockLoader() }
        #expect(Container.shared.accountsModel().titles == ["mock"])
    }
}
