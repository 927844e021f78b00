import FactoryKit
import XCTest

// The XCTest style of the seeds: `Container.shared.reset()` in `setUp`, one test at a time.

protocol AccountProviding: Sendable {
    var accounts: [String] { get }
}

struct LiveAccountProvider: AccountProviding {
    var accounts: [String] { ["live"] }
}

struct MockProvider: AccountProviding {
    let accounts: [String]
}

final class SomeViewModel: @unchecked Sendable {
    @Injected(\.accountProvider) private var provider
    private(set) var isLoaded = false
    private(set) var isEmpty = true

    func load() {
        isEmpty = provider.accounts.isEmpty
        isLoaded = !isEmpty
    }
}

extension Container {
    var accountProvider: Factory<any AccountProviding> { self { LiveAccountProvider() } }
    var someViewModel: Factory<SomeViewModel> { self { SomeViewModel() } }
    var xcCached: Factory<SomeViewModel> { self { SomeViewModel() }.cached }
    var xcSingleton: Factory<SomeViewModel> { self { SomeViewModel() }.singleton }
}

final class FactoryCoreTests: XCTestCase {
    override func setUp() {
        super.setUp()
        Container.shared.reset()
    }

    func testLoaded() throws {
        Container.shared.accountProvider { MockProvider(accounts: ["one", "two"]) }
        let model = Container.shared.someViewModel()
        model.load()
        XCTAssertTrue(model.isLoaded)
    }

    func testEmpty() throws {
        Container.shared.accountProvider { MockProvider(accounts: []) }
        let model = Container.shared.someViewModel()
        model.load()
        XCTAssertTrue(model.isEmpty)
    }

    func testResetInSetUpRemovedTheOtherTestsMock() {
        let model = Container.shared.someViewModel()
        model.load()
        XCTAssertTrue(model.isLoaded)
        XCTAssertEqual(Container.shared.accountProvider().accounts, ["live"])
    }

    func testCachedAndUniqueScopes() {
        XCTAssertTrue(Container.shared.xcCached() === Container.shared.xcCached())
        XCTAssertFalse(Container.shared.someViewModel() === Container.shared.someViewModel())
    }

    func testSingletonOutlivesContainerReset() {
        let singleton = Container.shared.xcSingleton()
        Container.shared.reset()
        XCTAssertTrue(Container.shared.xcSingleton() === singleton)
        Container.shared.xcSingleton.reset()
        XCTAssertFalse(Container.shared.xcSingleton() === singleton)
    }

    func testPushAndPopAroundATest() {
        Container.shared.manager.push()
        Container.shared.accountProvider { MockProvider(accounts: ["pushed"]) }
        XCTAssertEqual(Container.shared.accountProvider().accounts, ["pushed"])
        Container.shared.manager.pop()
        XCTAssertEqual(Container.shared.accountProvider().accounts, ["live"])
    }

    func testTaskLocalContainerIsolatesATest() {
        let container = Container()
        Container.$shared.withValue(container) {
            Container.shared.accountProvider { MockProvider(accounts: ["isolated"]) }
            XCTAssertEqual(dependency(\.accountProvider).accounts, ["isolated"])
        }
        XCTAssertEqual(Container.shared.accountProvider().accounts, ["live"])
    }

    func testContextOverrideByRuntimeArgument() {
        Container.shared.accountProvider.onArg("xc-mock") { MockProvider(accounts: ["arg"]) }
        FactoryContext.setArg("xc-mock", forKey: "xc-mock")
        defer { FactoryContext.removeArg(forKey: "xc-mock") }
        XCTAssertEqual(Container.shared.accountProvider().accounts, ["arg"])
    }

    func testConcurrentFirstResolutionOfACachedFactoryCreatesOnce() {
        let counter = Counter()
        let factory = Factory<Counted>(Container.shared, key: "xcConcurrent") {
            Thread.sleep(forTimeInterval: 0.1)
            return Counted(counter)
        }.cached
        DispatchQueue.concurrentPerform(iterations: 6) { _ in _ = factory() }
        XCTAssertEqual(counter.count, 1)
    }
}
