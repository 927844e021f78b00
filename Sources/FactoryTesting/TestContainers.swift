public import FactoryKit

/// Runs `body` with a fresh `Container.shared` and a singleton cache of its own, for code that
/// cannot use the `.container` trait (XCTest, a helper, a playground).
///
/// ```swift
/// func testLoads() {
///     withTestContainer {
///         Container.shared.api { MockAPI() }
///         XCTAssertTrue(Container.shared.model().load())
///     }
/// }
/// ```
///
/// A mistake FactoryKit can go on from (an unregistered `promised()`, a task-bound factory
/// outside its block) fails the running test instead of stopping the process: in a Swift Testing
/// test, at the factory's definition; under XCTest, at this call (`file` and `line`, which you
/// leave to their defaults), naming the definition; where neither runs (an exit test's child
/// process), through Swift Testing, which forwards it to the test that started the process. A
/// registration a context override hides is a warning.
///
/// The container is bound to the current task (and the tasks it starts), never globally, so tests
/// running at the same time stay apart. Code on a `Thread`, a `DispatchQueue` or in
/// `Task.detached` does not inherit it: pass the container there, or rebind it with
/// `Container.$shared.withValue(container) { ... }`.
@discardableResult
public func withTestContainer<Result>(
    singletons: SingletonIsolation = .cloned, file: StaticString = #filePath, line: UInt = #line,
    _ body: () throws -> Result
) rethrows -> Result {
    try withTestContainer(Container.$shared, Container(), singletons: singletons, file: file, line: line, body)
}

/// Runs an asynchronous `body` with a fresh `Container.shared` and a singleton cache of its own.
@discardableResult
public func withTestContainer<Result>(
    singletons: SingletonIsolation = .cloned, file: StaticString = #filePath, line: UInt = #line,
    _ body: () async throws -> Result
) async rethrows -> Result {
    try await withTestContainer(Container.$shared, Container(), singletons: singletons, file: file, line: line, body)
}

/// Runs `body` with `shared` bound to `container` and a singleton cache of its own: the same for a
/// custom shared container declared with `@TaskLocal static var shared`.
///
/// ```swift
/// withTestContainer(NetworkContainer.$shared, NetworkContainer()) { ... }
/// ```
@discardableResult
public func withTestContainer<C: SharedContainer, Result>(
    _ shared: TaskLocal<C>, _ container: @autoclosure () -> C, singletons: SingletonIsolation = .cloned,
    file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Result
) rethrows -> Result {
    // Inside a test under the `.container` trait, the trait's reporter stays.
    try TestSupport.$reporter.withValue(TestSupport.reporter ?? CallSiteIssueReporter(file: file, line: line)) {
        try Scope.$singleton.withValue(singletons.makeSingletons()) {
            try shared.withValue(container(), operation: body)
        }
    }
}

/// Runs an asynchronous `body` with `shared` bound to `container` and a singleton cache of its own.
@discardableResult
public func withTestContainer<C: SharedContainer, Result>(
    _ shared: TaskLocal<C>, _ container: @autoclosure () -> C, singletons: SingletonIsolation = .cloned,
    file: StaticString = #filePath, line: UInt = #line, _ body: () async throws -> Result
) async rethrows -> Result {
    try await TestSupport.$reporter.withValue(TestSupport.reporter ?? CallSiteIssueReporter(file: file, line: line)) {
        try await Scope.$singleton.withValue(singletons.makeSingletons()) {
            try await shared.withValue(container(), operation: body)
        }
    }
}
