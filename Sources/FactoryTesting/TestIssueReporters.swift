import FactoryKit
import Testing

#if canImport(XCTest)
    import XCTest
#endif

/// Records FactoryKit's problems (an unregistered `promised()` factory, a task-bound factory
/// outside its block, a live factory in a strict test) as Swift Testing issues of the running
/// test, and a registration a context override hides as a warning, at the definition of the
/// factory concerned.
///
/// With no test current (in an exit test's child process, or on a thread or in a detached task
/// a test started), Swift Testing still receives the issue: an exit test forwards it to the test
/// that started the process, and a run records it as the run's own.
struct SwiftTestingIssueReporter: TestIssueReporting {
    func recordIssue(_ message: String, at location: IssueLocation?) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation(location))
    }

    func recordWarning(_ message: String, at location: IssueLocation?) {
        #if compiler(>=6.3)
            Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: sourceLocation(location))
        #endif
        // Before Swift 6.3, Swift Testing has no warnings: FactoryKit's log line is the warning.
    }

    /// Where an issue points: the factory's definition, else the running test, else this file.
    private func sourceLocation(_ location: IssueLocation?) -> SourceLocation {
        if let location {
            return SourceLocation(
                fileID: location.fileID, filePath: location.filePath, line: max(location.line, 1), column: 1)
        }
        // No factory to point at: the test itself.
        return Test.current?.sourceLocation ?? #_sourceLocation
    }

    var testDescription: String {
        guard let test = Test.current else { return "a Swift Testing test" }
        let location = test.sourceLocation
        return "test \(test.name) (\(location.filePath):\(location.line))"
    }
}

#if canImport(XCTest)
    /// Records FactoryKit's problems as failures of a running XCTest test case, at the definition
    /// of the factory concerned, as `XCTFail` would at its own line.
    struct XCTestIssueReporter: TestIssueReporting, @unchecked Sendable {
        // Read only to record a failure, which XCTest expects on the test's own thread or task.
        let testCase: XCTestCase

        func recordIssue(_ message: String, at location: IssueLocation?) {
            guard let location else {
                XCTFail(message)
                return
            }
            #if canImport(Darwin)
                let context = XCTSourceCodeContext(
                    location: XCTSourceCodeLocation(filePath: location.filePath, lineNumber: location.line))
                testCase.record(
                    XCTIssue(type: .assertionFailure, compactDescription: message, sourceCodeContext: context))
            #else
                testCase.recordFailure(
                    withDescription: message, inFile: location.filePath, atLine: location.line, expected: true)
            #endif
        }

        /// XCTest has no warnings: FactoryKit's log line is the warning.
        func recordWarning(_ message: String, at location: IssueLocation?) {}

        var testDescription: String { "test \(testCase.name)" }
    }
#endif

/// The reporter of `withTestContainer`, which may run in either framework: in a Swift Testing
/// test, issues go to it; elsewhere (XCTest) a failure is recorded at the `withTestContainer`
/// call, naming the factory's definition in its message (XCTest gives no way to reach the
/// running test case from here).
struct CallSiteIssueReporter: TestIssueReporting {
    let file: StaticString
    let line: UInt

    func recordIssue(_ message: String, at location: IssueLocation?) {
        if Test.current != nil {
            SwiftTestingIssueReporter().recordIssue(message, at: location)
            return
        }
        #if canImport(XCTest)
            let defined = location.map { " (\($0.filePath):\($0.line))" } ?? ""
            XCTFail(message + defined, file: file, line: line)
        #else
            SwiftTestingIssueReporter().recordIssue(message, at: location)
        #endif
    }

    /// A warning goes to Swift Testing only: XCTest has none.
    func recordWarning(_ message: String, at location: IssueLocation?) {
        if Test.current != nil { SwiftTestingIssueReporter().recordWarning(message, at: location) }
    }

    var testDescription: String {
        if Test.current != nil { return SwiftTestingIssueReporter().testDescription }
        return "the test calling withTestContainer at \(file):\(line)"
    }
}

/// Runs `body` with FactoryKit reporting to `reporter`, and checking every resolution when
/// `strict`.
func reportingToTest<Result>(
    _ reporter: any TestIssueReporting, strict: Bool, _ body: () async throws -> Result
) async rethrows -> Result {
    try await TestSupport.$reporter.withValue(reporter) {
        try await TestSupport.$strictness.withValue(strict ? StrictResolutions(reporter: reporter) : nil) {
            try await body()
        }
    }
}

/// The synchronous form of ``reportingToTest(_:strict:_:)``.
func reportingToTest<Result>(_ reporter: any TestIssueReporting, strict: Bool, _ body: () throws -> Result) rethrows
    -> Result
{
    try TestSupport.$reporter.withValue(reporter) {
        try TestSupport.$strictness.withValue(strict ? StrictResolutions(reporter: reporter) : nil) {
            try body()
        }
    }
}

/// Runs `body` reporting to `reporter` unless a reporter is bound already (a `withTestContainer`
/// inside a test under the `.container` trait keeps the trait's).
func reportingIfUnreported<Result>(_ reporter: @autoclosure () -> any TestIssueReporting, _ body: () throws -> Result)
    rethrows -> Result
{
    guard TestSupport.reporter == nil else { return try body() }
    return try TestSupport.$reporter.withValue(reporter(), operation: body)
}

/// The asynchronous form of ``reportingIfUnreported(_:_:)``.
func reportingIfUnreported<Result>(
    _ reporter: @autoclosure () -> any TestIssueReporting, _ body: () async throws -> Result
) async rethrows -> Result {
    guard TestSupport.reporter == nil else { return try await body() }
    return try await TestSupport.$reporter.withValue(reporter(), operation: body)
}
