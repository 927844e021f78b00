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

/// `ContainerTestCase` turns an unregistered promise, and in a strict test a live factory or a
/// hidden registration, into a test failure. Tests derived from this class capture those failures to check them; any other
/// failure, their assertions' included, still fails the test.
class FactoryFailureCapturingTestCase: ContainerTestCase {
    var failures: [String] = []

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        guard
            description.contains("was promised") || description.contains("resolved its live definition")
                || description.contains("override applies here and wins")
        else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            return
        }
        failures.append(description)
    }
}

final class ContainerTestCaseFailureTests: FactoryFailureCapturingTestCase {
    func testAnUnregisteredPromiseIsATestFailureAndNil() {
        Container.shared.manager.promiseTriggersError = true
        XCTAssertNil(Container.shared.firstHourPromise())
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(
            failures.first?.contains("Container.firstHourPromise<Optional<FirstHourService>> was promised") == true)
    }

    func testALiveFactoryIsFineInATestThatIsNotStrict() {
        XCTAssertEqual(Container.shared.firstHourLive().name, "live")
        XCTAssertEqual(failures, [])
    }
}

final class StrictContainerTestCaseTests: FactoryFailureCapturingTestCase {
    override var isStrict: Bool { true }

    func testALiveFactoryIsATestFailureOnce() {
        _ = Container.shared.firstHourLive()
        _ = Container.shared.firstHourLive()
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(
            failures.first?.contains("Container.firstHourLive<FirstHourService> resolved its live definition") == true)
    }

    func testRegisteredAndLiveInTestsFactoriesAreFine() {
        Container.shared.firstHourLive.register { FirstHourService("mock") }
        XCTAssertEqual(Container.shared.firstHourLive().name, "mock")
        XCTAssertEqual(Container.shared.firstHourFormatter().name, "formatter")
        XCTAssertEqual(failures, [])
    }
}
