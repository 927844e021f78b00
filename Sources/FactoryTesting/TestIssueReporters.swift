import FactoryKit
import Testing

#if canImport(XCTest)
    import XCTest
#endif

/// Records FactoryKit's problems (an unregistered `promised()` factory, a live factory in a
/// strict test) as Swift Testing issues of the running test.
struct SwiftTestingIssueReporter: TestIssueReporting {
    func recordIssue(_ message: String, fileID: String, line: Int) {
        if line > 0, fileID.contains("/") {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(fileID: fileID, filePath: fileID, line: line, column: 1))
        } else {
            Issue.record(Comment(rawValue: message))
        }
    }
}

#if canImport(XCTest)
    /// Records FactoryKit's problems as failures of the running XCTest test.
    struct XCTestIssueReporter: TestIssueReporting {
        func recordIssue(_ message: String, fileID: String, line: Int) {
            XCTFail(message)
        }
    }
#endif

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
