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

    @Test func everyFactoryOfEveryModuleIsWired() async throws {
        // FactoryManifest.swift is written by `swift package validate-factories`; the promise
        // Services makes is fulfilled in AppCore's autoRegister(), so it counts as fulfilled.
        let report = try await Container.shared.validateAll(FactoryManifest.all)
        #expect(report.issues.isEmpty, "\(report)")
        #expect(
            report.factories == [
                "Container.accountLoader<Optional<AccountLoading>>", "Container.accountsModel<AccountsModel>",
            ])
    }
}
