import FactoryKit
import Foundation
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

    /// Swift Testing's filter (a regular expression) for the running test's identifier.
    var relaunchArguments: [String]? {
        guard let test = Test.current else { return nil }
        let id = NSRegularExpression.escapedPattern(for: test.id.description)
        return ["--testing-library", "swift-testing", "--filter", "^\(id)$"]
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

        /// On Linux, where a test bundle is an executable, `Module.Class/testMethod`.
        var relaunchArguments: [String]? {
            #if os(Linux)
                guard let method = testCase.name.split(separator: ".").last else { return nil }
                return ["\(String(reflecting: type(of: testCase)))/\(method)"]
            #else
                return nil
            #endif
        }
    }

    /// Which XCTest cases are running, as XCTest tells its observers, so that an issue reaches
    /// XCTest only when a case can receive it: `XCTFail` outside a running case is dropped on
    /// Linux, and an exit test's child process runs no case at all.
    ///
    /// The observer is added the first time FactoryTesting reports outside a test of its own
    /// (``CallSiteIssueReporter``), which may be inside a case that started before: until XCTest
    /// has told it of a case starting or finishing, what runs is unknown.
    final class XCTestCases: NSObject, XCTestObservation, @unchecked Sendable {
        /// Whether an XCTest case runs now, as far as XCTest has said.
        enum State {
            case running
            case none
            /// No case has started or finished since the observer was added.
            case unknown
        }

        static let observer: XCTestCases = {
            let observer = XCTestCases()
            XCTestObservationCenter.shared.addTestObserver(observer)
            return observer
        }()

        /// The cases running; `nil` until XCTest has told of one starting or finishing.
        private let running = Locked<Set<ObjectIdentifier>?>(nil)

        var state: State {
            running.withLock { running in
                guard let running else { return .unknown }
                return running.isEmpty ? .none : .running
            }
        }

        func testCaseWillStart(_ testCase: XCTestCase) {
            running.withLock { $0 = ($0 ?? []).union([ObjectIdentifier(testCase)]) }
        }

        func testCaseDidFinish(_ testCase: XCTestCase) {
            running.withLock { $0 = ($0 ?? []).subtracting([ObjectIdentifier(testCase)]) }
        }
    }
#endif

/// The reporter of `withTestContainer`, which may run in either framework. No issue is lost:
/// - in a Swift Testing test, issues go to it, at the factory's definition;
/// - in an exit test's child process, and wherever no XCTest case runs, they go to Swift Testing,
///   which forwards an exit test's issues to the test that started it;
/// - while an XCTest case runs, a failure is recorded at the `withTestContainer` call, naming the
///   factory's definition in its message (XCTest gives no way to reach the running test case
///   from here);
/// - when FactoryTesting cannot tell whether an XCTest case runs (it starts observing XCTest on
///   first use, which may be inside a case), both.
struct CallSiteIssueReporter: TestIssueReporting {
    let file: StaticString
    let line: UInt

    init(file: StaticString, line: UInt) {
        self.file = file
        self.line = line
        #if canImport(XCTest)
            // Observe XCTest from now on, before any issue.
            _ = XCTestCases.observer
        #endif
    }

    /// The frameworks an issue is recorded through.
    private var frameworks: (swiftTesting: Bool, xcTest: Bool) {
        if Test.current != nil || isExitTestChild { return (swiftTesting: true, xcTest: false) }
        #if canImport(XCTest)
            switch XCTestCases.observer.state {
            case .running: return (swiftTesting: false, xcTest: true)
            case .none: return (swiftTesting: true, xcTest: false)
            case .unknown: return (swiftTesting: true, xcTest: true)
            }
        #else
            return (swiftTesting: true, xcTest: false)
        #endif
    }

    func recordIssue(_ message: String, at location: IssueLocation?) {
        let frameworks = frameworks
        if frameworks.swiftTesting { SwiftTestingIssueReporter().recordIssue(message, at: location) }
        #if canImport(XCTest)
            if frameworks.xcTest {
                let defined = location.map { " (\($0.filePath):\($0.line))" } ?? ""
                XCTFail(message + defined, file: file, line: line)
            }
        #endif
    }

    /// A warning goes to Swift Testing only: XCTest has none.
    func recordWarning(_ message: String, at location: IssueLocation?) {
        if frameworks.swiftTesting { SwiftTestingIssueReporter().recordWarning(message, at: location) }
    }

    var relaunchArguments: [String]? { SwiftTestingIssueReporter().relaunchArguments }

    var testDescription: String {
        if Test.current != nil { return SwiftTestingIssueReporter().testDescription }
        return "the test calling withTestContainer at \(file):\(line)"
    }
}

/// Whether this process is an exit test's child, which runs no XCTest case and whose Swift
/// Testing issues go to the test that started it.
private var isExitTestChild: Bool {
    #if os(macOS) || os(Linux) || os(Windows) || os(FreeBSD) || os(OpenBSD)
        return ExitTest.current != nil
    #else
        return false  // No exit tests on this platform.
    #endif
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
