import FactoryKit
import FactoryTesting
import XCTest

/// XCTest with `ContainerTestCase`: every test, with its `setUp`, runs in a fresh container.
final class ContainerTestCaseTests: ContainerTestCase {
    /// `Container.shared` as code outside the tests sees it; class-level set-up runs outside them.
    nonisolated(unsafe) private static var outside: Container?

    override class func setUp() {
        super.setUp()
        outside = Container.shared
    }

    override func setUp() {
        super.setUp()
        Container.shared.isolationService { IsolationService(owner: 42) }
    }

    func testSetUpRegistersIntoTheTestsContainer() {
        XCTAssertEqual(Container.shared.isolationService().owner, 42)
        let outside = try? XCTUnwrap(Self.outside)
        XCTAssertFalse(Container.shared === outside)
        XCTAssertEqual(outside?.isolationService().owner, -1)
    }

    func testRegistrationsOfOtherTestsAreGone() {
        Container.shared.isolationConsumer { IsolationConsumer(service: IsolationService(owner: 1)) }
        XCTAssertEqual(Container.shared.isolationConsumer().service.owner, 1)
    }

    func testTheOtherTestsRegistrationDidNotLeak() {
        XCTAssertEqual(Container.shared.isolationConsumer().service.owner, 42)
    }

    func testAsyncTestsInheritTheContainer() async {
        let owner = await Task { Container.shared.isolationService().owner }.value
        XCTAssertEqual(owner, 42)
    }

    func testWithTestContainerNestsAnotherFreshContainer() {
        withTestContainer {
            XCTAssertEqual(Container.shared.isolationService().owner, -1)
        }
        XCTAssertEqual(Container.shared.isolationService().owner, 42)
    }
}
