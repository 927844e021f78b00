// The XCTest snippets of Testing.md.
import FactoryKit
import FactoryTesting
import XCTest

final class ModelTestCase: ContainerTestCase {
    override func setUp() {
        super.setUp()
        Container.shared.api { MockAPIClient() }
    }

    func testLoads() {
        XCTAssertTrue(Container.shared.model().load())
    }
}

// Has no tests, so it never runs: its set-up resets the process's default container, which the
// article notes is safe only when tests do not run in parallel.
final class ClassicResetTestCase: XCTestCase {
    override func setUp() {
        super.setUp()
        Container.shared.reset()
    }
}
