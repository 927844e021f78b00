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

        /// Runs the test inside a fresh container; see the type's documentation.
        open override func invokeTest() {
            withTestContainer(singletons: singletonIsolation) {
                super.invokeTest()
            }
        }
    }
#endif
