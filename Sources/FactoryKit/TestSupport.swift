/// What FactoryKit tells a running test through FactoryTesting: problems to record as test
/// issues instead of stopping the process, and, in a strict test, every factory that resolved
/// its live definition. FactoryTesting binds these around each test; elsewhere nothing is bound
/// and FactoryKit behaves as it always does.
package enum TestSupport {
    /// Records problems as issues of the test that is running.
    @TaskLocal package static var reporter: (any TestIssueReporting)?

    /// Set in a strict test: collects the factories that resolved their own definition.
    @TaskLocal package static var strictness: StrictResolutions?

    /// Factories marked `liveInTests()`, which strict tests let resolve their definition.
    static let liveInTests = Locked<Set<FactoryKey>>([])

    /// Lets the factory at `key` resolve its definition in strict tests; see `liveInTests()`.
    static func markLive(_ key: FactoryKey) {
        liveInTests.withLock { _ = $0.insert(key) }
    }

    /// Records a problem in the running test and returns true, or returns false outside tests.
    static func recordInTest(_ message: String, fileID: StaticString, line: UInt) -> Bool {
        guard let reporter else { return false }
        reporter.recordIssue(message, fileID: "\(fileID)", line: Int(line))
        return true
    }

    /// Notes, in a strict test, that `factory` resolved with its definition's own closure.
    static func noteLiveResolution(_ key: FactoryKey, description: @autoclosure () -> String) {
        guard let strictness else { return }
        guard !liveInTests.withLock({ $0.contains(key) }) else { return }
        strictness.resolvedLive(description())
    }
}

/// Records an issue in the test that is running (Swift Testing's `Issue.record`, XCTest's
/// `XCTFail`).
package protocol TestIssueReporting: Sendable {
    /// Records `message` as a failure of the current test, at `fileID` and `line`.
    func recordIssue(_ message: String, fileID: String, line: Int)
}

/// The factories a strict test resolved without registering or overriding them, each reported
/// once to the test.
package final class StrictResolutions: Sendable {
    private let reporter: any TestIssueReporting
    private let reported = Locked<Set<String>>([])

    /// Reports to `reporter`; while one exists, resolutions are observed, which strict checks
    /// need (see ``Diagnostics``).
    package init(reporter: any TestIssueReporting) {
        self.reporter = reporter
        Diagnostics.settings.withLock { $0.strictTests += 1 }
    }

    deinit {
        Diagnostics.settings.withLock { $0.strictTests -= 1 }
    }

    func resolvedLive(_ factory: String) {
        guard reported.withLock({ $0.insert(factory).inserted }) else { return }
        reporter.recordIssue(
            "\(factory) resolved its live definition in a strict test. Register a replacement in the test "
                + "(`.register { ... }`), or mark the factory `.liveInTests()` if it is safe to use as is.",
            fileID: "", line: 0)
    }
}
