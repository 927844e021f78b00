#if canImport(XCTest)
    public import XCTest

    /// An XCTest base class that runs every test, with its `setUp` and `tearDown`, against a fresh
    /// `Container.shared` and a singleton cache of its own.
    ///
    /// ```swift
    /// final class ModelTests: ContainerTestCase {
    ///     override func setUp() {
    ///         super.setUp()
    ///         Container.shared.api { MockAPI() }
    ///     }
    ///
    ///     func testLoads() {
    ///         XCTAssertTrue(Container.shared.model().load())
    ///     }
    /// }
    /// ```
    ///
    /// Nothing is reset globally, so no state leaks between tests, and `Container.shared` outside the
    /// tests is never touched. To isolate a custom container too, override ``invokeTest()`` and wrap
    /// `super.invokeTest()` in `withTestContainer(MyContainer.$shared, MyContainer()) { ... }`.
    open class ContainerTestCase: XCTestCase {
        /// The singletons each test starts with; ``SingletonIsolation/cloned`` unless overridden.
        open var singletonIsolation: SingletonIsolation { .cloned }

        /// Whether each test is strict: resolving a factory whose own definition runs (the test
        /// neither registered it nor overrode it for a context) fails the test, unless the factory
        /// is marked `liveInTests()`. `false` unless overridden.
        open var isStrict: Bool { false }

        /// Runs the test inside a fresh container; see the type's documentation. An unregistered
        /// `promised()` factory fails the test (and resolves to `nil`) instead of stopping the
        /// process.
        open override func invokeTest() {
            // From the next test case on, `withTestContainer` knows whether one runs.
            _ = XCTestCases.observer
            reportingToTest(XCTestIssueReporter(testCase: self), strict: isStrict) {
                withTestContainer(singletons: singletonIsolation) {
                    super.invokeTest()
                }
            }
        }
    }
#endif
