import FactoryKit
import FactoryTesting
import Testing

protocol AccountLoading: Sendable {
    func load() -> [String]
}

struct AccountLoader: AccountLoading {
    func load() -> [String] { ["checking"] }
}

extension Container {
    var accountLoader: Factory<(any AccountLoading)?> { promised() }
    var promisedByID: ParameterFactory<Int, String?> { promised() }
}

@Suite(.container)
struct PromisedTests {
    @Test func registeredPromiseResolves() {
        Container.shared.accountLoader.register { AccountLoader() }
        #expect(Container.shared.accountLoader()?.load() == ["checking"])
        Container.shared.promisedByID.register { "account \($0)" }
        #expect(Container.shared.promisedByID(3) == "account 3")
    }

    @Test func unregisteredPromiseIsNilWhenErrorsAreOff() {
        Container.shared.manager.promiseTriggersError = false
        #expect(Container.shared.accountLoader() == nil)
        #expect(Container.shared.promisedByID(1) == nil)
    }

    @Test func unregisteredPromiseStopsWithTheFactorysName() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = Container()
            container.manager.promiseTriggersError = true
            _ = container.accountLoader()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains("Container.accountLoader<Optional<AccountLoading>> was promised but never registered"),
            "\(message)")
        #expect(message.contains("FactoryKitTests/PromisedTests.swift:14"), "\(message)")
        #expect(message.contains("FactoryTesting's .container trait makes this an issue of the test"), "\(message)")
    }
}
