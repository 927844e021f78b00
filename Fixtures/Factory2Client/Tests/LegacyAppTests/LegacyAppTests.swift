import Factory
import XCTest

@testable import LegacyApp

private struct LoudGreeting: Greeting {
    func greet(_ name: String) -> String { "HELLO, \(name.uppercased())" }
}

final class LegacyAppTests: XCTestCase {
    override func setUp() {
        super.setUp()
        Container.shared.manager.reset()
        ServiceContainer.shared.manager.reset()
        Scope.singleton.reset()
    }

    func testResolvesThroughTheSharedContainer() {
        XCTAssertEqual(WelcomeViewModel().welcome("Ada"), "Hello, Ada (1)")
        XCTAssertEqual(WelcomeViewModel().welcome("Ada"), "Hello, Ada (2)", "counter is a singleton")
    }

    func testRegisterReplacesTheFactory() {
        Container.shared.greeting.register { LoudGreeting() }
        XCTAssertEqual(WelcomeViewModel().welcome("ada"), "HELLO, ADA (1)")
        XCTAssertEqual(greetingFactory().greet("x"), "HELLO, X")
    }

    func testParameterFactoryAndOwnContainer() {
        XCTAssertEqual(Container.shared.formatter("> ").prefix, "> ")
        let first = WelcomeViewModel().session
        XCTAssertTrue(first === ServiceContainer.shared.session(), "session is cached")
        ServiceContainer.shared.manager.reset(scope: .cached)
        XCTAssertFalse(first === WelcomeViewModel().session, "reset(scope: .cached) drops it")
    }
}
