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

    /// Whether a stop inside a test has been announced; the process ends after the first.
    private static let stopAnnounced = Locked(false)

    /// Lets the factory at `key` resolve its definition in strict tests; see `liveInTests()`.
    static func markLive(_ key: FactoryKey) {
        liveInTests.withLock { _ = $0.insert(key) }
    }

    /// Records a problem in the running test, at `file` and `line` (a path, as `#filePath` gives
    /// it), and returns true; returns false outside tests.
    static func recordInTest(_ message: String, file: StaticString, line: UInt) -> Bool {
        guard let reporter else { return false }
        reporter.recordIssue(message, at: IssueLocation(filePath: "\(file)", line: Int(line)))
        return true
    }

    /// Records a problem in the running test at the definition of the factory it concerns.
    static func recordInTest(_ message: String, site: DefinitionSite) -> Bool {
        guard let reporter else { return false }
        reporter.recordIssue(message, at: IssueLocation(site))
        return true
    }

    /// Records a warning in the running test at the definition of the factory it concerns, or an
    /// error in a strict test, and returns true; returns false outside tests. A warning does not
    /// fail the test; where the test framework has no warnings (XCTest, Swift Testing before 6.3)
    /// the caller's log line is all there is.
    static func warnInTest(_ message: String, site: DefinitionSite) -> Bool {
        guard let reporter else { return false }
        if strictness != nil {
            reporter.recordIssue(message, at: IssueLocation(site))
        } else {
            reporter.recordWarning(message, at: IssueLocation(site))
        }
        return true
    }

    /// Before FactoryKit stops the process inside a test (a dependency cycle has no value to go
    /// on with): prints the test's name and the message, once, so the run's log says which test
    /// stopped it and why even where the crash report is lost.
    static func announceStop(_ message: String) {
        guard let reporter else { return }
        let isFirst = stopAnnounced.withLock { announced in
            defer { announced = true }
            return !announced
        }
        guard isFirst else { return }
        Diagnostics.writeToStandardError(
            "FactoryKit stops the test run in \(reporter.testDescription): \(message)")
    }

    /// Notes, in a strict test, that `factory` resolved with its definition's own closure.
    static func noteLiveResolution(_ key: FactoryKey, site: DefinitionSite, description: @autoclosure () -> String) {
        guard let strictness else { return }
        guard !liveInTests.withLock({ $0.contains(key) }) else { return }
        strictness.resolvedLive(description(), at: IssueLocation(site))
    }
}

/// Where a test issue points: a file by its path and a line.
package struct IssueLocation: Sendable, Equatable {
    /// The file's path, absolute when it came from `#filePath` (every definition's default).
    package let filePath: String
    package let line: Int

    package init(filePath: String, line: Int) {
        self.filePath = filePath
        self.line = line
    }

    init(_ site: DefinitionSite) {
        self.init(filePath: site.file.string, line: Int(site.line))
    }

    /// `Module/File.swift`, as `#fileID` would give it: the file and the folder holding it,
    /// which for a package's sources is its target.
    package var fileID: String {
        let components = filePath.split(separator: "/", omittingEmptySubsequences: true)
        return components.suffix(2).joined(separator: "/")
    }
}

/// Records an issue in the test that is running (Swift Testing's `Issue.record`, XCTest's
/// failure).
package protocol TestIssueReporting: Sendable {
    /// Records `message` as a failure of the current test, at `location` if there is one.
    func recordIssue(_ message: String, at location: IssueLocation?)
    /// Records `message` as a warning of the current test, which does not fail it, at `location`
    /// if there is one; does nothing where the framework has no warnings (FactoryKit logs the
    /// message anyway).
    func recordWarning(_ message: String, at location: IssueLocation?)
    /// The running test, as a log names it.
    var testDescription: String { get }
    /// The arguments that start this executable again to run only the running test (for
    /// `validate`'s child process), or nil if there are none.
    var relaunchArguments: [String]? { get }
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

    func resolvedLive(_ factory: String, at location: IssueLocation) {
        guard reported.withLock({ $0.insert(factory).inserted }) else { return }
        reporter.recordIssue(
            "\(factory) resolved its live definition in a strict test. Register a replacement in the test "
                + "(`.register { ... }`), or mark the factory `.liveInTests()` if it is safe to use as is.",
            at: location)
    }
}

extension TestSupport {
    /// Where the factory of each of `entries` is defined, by the name validation reports give it
    /// (`Container.name<Type>`): FactoryTesting reports a manifest's problems there. Reads each
    /// entry's factory from a fresh container of its type, as validation does.
    @MainActor
    package static func definitionSites(of entries: [FactoryManifestEntry]) -> [String: IssueLocation] {
        var sites: [String: IssueLocation] = [:]
        for entry in entries {
            switch entry.target().factory {
            case let factory as any FactoryModifying: note(factory, in: &sites)
            case let factory as any AsyncFactoryModifying: note(factory, in: &sites)
            default: continue
            }
        }
        return sites
    }

    private static func note(_ factory: some FactoryModifying, in sites: inout [String: IssueLocation]) {
        sites[factory.registration.description] = IssueLocation(factory.registration.site)
    }

    private static func note(_ factory: some AsyncFactoryModifying, in sites: inout [String: IssueLocation]) {
        sites[factory.registration.description] = IssueLocation(factory.registration.site)
    }
}
