import FactoryKit
import FactoryTesting
import Foundation
import Testing

// Issue 38: `validate` abandoned a synchronous cycle with `longjmp`, skipping the cleanups of the
// frames it discarded. In each case below the app's own wiring has no cycle (it registers a
// replacement), only validation's fresh container does; after `validate` returns, what the
// resolution went through must work as before. The factories of a cycle now run only in a child
// process, so nothing of theirs is left here.

/// A value the reproductions build.
final class ChildValue: Sendable {
    init(_ dependencies: ChildValue...) {}
}

/// How long the tests below wait before they call something stuck. A child process of `validate`
/// starts in about 80 ms on a quiet machine, and far slower at load 25: long enough for that, and
/// a hang still fails the test instead of the run.
let promptly: TimeInterval = 180

/// Runs `body` on a thread of its own and says whether it returned within `promptly`: something
/// that waits for ever fails the test instead of hanging the run.
func returnsPromptly(_ body: @escaping @Sendable () -> Void) async throws -> Bool {
    let done = ValidationFlag(false)
    Thread {
        body()
        done.isOn = true
    }.start()
    let deadline = Date(timeIntervalSinceNow: promptly)
    while !done.isOn && Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
    return done.isOn
}

/// What `validate` returned, or nil after `promptly` (it never returns if the resolution waits
/// for itself).
func validatesPromptly(_ validate: @escaping @Sendable () async throws -> [ValidationIssue]) async throws
    -> [ValidationIssue]?
{
    let result = ChildBox<[ValidationIssue]?>(nil)
    let validation = Task { result.set(try await validate()) }
    let deadline = Date(timeIntervalSinceNow: promptly)
    while result.value == nil && Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
    if result.value == nil { validation.cancel() }
    return result.value
}

/// A value behind a lock, for the tests' own bookkeeping.
final class ChildBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    func set(_ value: Value) {
        lock.lock()
        defer { lock.unlock() }
        stored = value
    }
}

final class ReproContainer: SharedContainer {
    @TaskLocal static var shared = ReproContainer()
    let manager = ContainerManager()
}

extension ReproContainer {
    var reproCached: Factory<ChildValue> { self { ChildValue(Container.shared.reproBack()) }.cached }
}

let reproQueue = DispatchQueue(label: "ValidationChildTests", attributes: .concurrent)
let reproLock = NSLock()

enum ReproStatics {
    static let value = Container.shared.reproStaticBack()
}

@globalActor actor ReproActor {
    static let shared = ReproActor()
}

extension Container {
    var reproEntry: Factory<ChildValue> { self { ChildValue(ReproContainer.shared.reproCached()) } }
    var reproBack: Factory<ChildValue> { self { ChildValue(self.reproEntry()) } }

    var reproQueued: Factory<ChildValue> { self { reproQueue.sync { ChildValue(self.reproQueuedBack()) } } }
    var reproQueuedBack: Factory<ChildValue> { self { ChildValue(self.reproQueued()) } }

    var reproStatic: Factory<ChildValue> { self { ReproStatics.value } }
    var reproStaticBack: Factory<ChildValue> { self { ChildValue(self.reproStatic()) } }

    var reproLocked: Factory<ChildValue> {
        self {
            reproLock.lock()
            defer { reproLock.unlock() }
            return ChildValue(self.reproLockedBack())
        }
    }
    var reproLockedBack: Factory<ChildValue> { self { ChildValue(self.reproLocked()) } }

    @MainActor var reproOnMainActor: Factory<ChildValue> {
        self {
            MainActor.assertIsolated("validate resolved a main-actor factory elsewhere")
            return ChildValue()
        }
    }
    @ReproActor var reproOnGlobalActor: Factory<ChildValue> {
        self {
            ReproActor.shared.assertIsolated("validate resolved a global-actor factory elsewhere")
            return ChildValue()
        }
    }

    /// Where `reproCycleA` is defined (`reproCycleB` on the next line).
    static let reproCycleLine = #line + 1
    var reproCycleA: Factory<ChildValue> { self { ChildValue(self.reproCycleB()) } }
    var reproCycleB: Factory<ChildValue> { self { ChildValue(self.reproCycleA()) } }
    var reproAsyncIntoCycle: AsyncFactory<ChildValue> { self { ChildValue(self.reproCycleA()) } }
    @MainActor var reproMainActorCycle: Factory<ChildValue> {
        self {
            MainActor.assertIsolated("validate resolved a main-actor factory elsewhere")
            return ChildValue(self.reproMainActorCycleBack())
        }
    }
    @MainActor var reproMainActorCycleBack: Factory<ChildValue> { self { ChildValue(self.reproMainActorCycle()) } }
}

/// A key path to an isolated factory can be formed only in its isolation.
@MainActor func validateOnTheMainActor() async throws -> [ValidationIssue] {
    try await Container.shared.validate(\.reproOnMainActor, \.reproMainActorCycle)
}

@ReproActor func validateOnReproActor() async throws -> [ValidationIssue] {
    try await Container.shared.validate(\.reproOnGlobalActor)
}

@Suite(.container)
struct ValidationChildTests {
    /// The cached factory of a custom container that the cycle went through resolves again (it
    /// never did: the abandoned creation kept its reservation). The process's own
    /// `ReproContainer.shared`, which validation does not replace.
    @Test func aCustomContainersScopedFactoryResolvesAfterACycleThroughIt() async throws {
        let issues = try await Container.shared.validate(\.reproEntry)
        #expect(issues.map(\.kind) == [.cycle])
        let app = Container()
        app.reproBack.register { ChildValue() }
        #expect(
            try await returnsPromptly { Container.$shared.withValue(app) { _ = ReproContainer.shared.reproCached() } })
    }

    /// A cycle inside `DispatchQueue.sync` leaves the process running (it died with SIGILL when
    /// the thread whose frames were abandoned inside libdispatch ended). Not in an exit test: its
    /// child process has no test for `validate` to start again.
    @Test func aCycleInsideDispatchQueueSyncLeavesTheProcessRunning() async throws {
        let issues = try await Container.shared.validate(\.reproQueued)
        #expect(issues.map(\.kind) == [.cycle])
        #expect(try await returnsPromptly { reproQueue.sync {} })
    }

    /// A `static let` whose initializer reached the cycle can be read afterwards (every read
    /// waited for the abandoned initialization).
    @Test func aStaticLetWhoseInitializerReachedTheCycleCanBeRead() async throws {
        let issues = try await validatesPromptly { try await Container.shared.validate(\.reproStatic) }
        #expect(issues?.map(\.kind) == [.cycle], "validate did not return within \(Int(promptly)) s")
        let app = Container()
        app.reproStaticBack.register { ChildValue() }
        #expect(try await returnsPromptly { Container.$shared.withValue(app) { _ = ReproStatics.value } })
    }

    /// A factory that takes a non-recursive lock around its resolution: validation reports the
    /// cycle (it waited for itself at depth 2), and the lock is free afterwards.
    @Test func aLockTakenAroundAResolutionOfTheCycleIsFreeAfterwards() async throws {
        let issues = try await validatesPromptly { try await Container.shared.validate(\.reproLocked) }
        #expect(issues?.map(\.kind) == [.cycle], "validate did not return within \(Int(promptly)) s")
        #expect(try await returnsPromptly { reproLock.withLock {} })
    }

    /// Item 2: a `@MainActor` factory is resolved on the main actor, also when it meets a cycle,
    /// and a global-actor factory on its actor (both trapped in `assertIsolated`, resolved on a
    /// thread of validation's own).
    @Test func eachFactoryIsResolvedInItsIsolation() async throws {
        #expect(try await validateOnTheMainActor().map(\.factory) == ["Container.reproMainActorCycle<ChildValue>"])
        #expect(try await validateOnReproActor().isEmpty)
    }

    /// A synchronous cycle reached inside an async factory is reported too (it stopped the
    /// process: an async resolution unwinds only its own cycles, with an error).
    @Test func aSynchronousCycleInsideAnAsyncFactoryIsReported() async throws {
        let issues = try await Container.shared.validate(\.reproAsyncIntoCycle)
        #expect(issues.map(\.kind) == [.cycle])
        #expect(issues.first?.factory == "Container.reproCycleA<ChildValue>")
    }

    /// The same call site reached again in the same test is answered for that time, not the first.
    @Test func eachTimeACallIsReachedIsAnsweredForThatTime() async throws {
        for round in 0..<4 {
            validationSharedCycle.isOn = round.isMultiple(of: 2)
            defer { validationSharedCycle.isOn = false }
            let issues = try await Container.shared.validate(\.validationSharedQ)
            #expect(issues.map(\.kind) == (round.isMultiple(of: 2) ? [.cycle] : []), "round \(round)")
        }
    }

    /// Where no child process can be started, a cycle stops the process, naming each factory of
    /// the cycle where it is defined.
    @Test func inProcessACycleStopsNamingEachFactorysDefinition() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv("FACTORYKIT_VALIDATE_IN_PROCESS", "1", 1)
            _ = try await Container.shared.validate(\.reproCycleA)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let file = #filePath
        let line = Container.reproCycleLine
        #expect(output.contains("Container.reproCycleA<ChildValue> at \(file):\(line)"), "\(output)")
        #expect(output.contains("Container.reproCycleB<ChildValue> at \(file):\(line + 1)"), "\(output)")
    }
}

/// Validation's resolutions are not the test's: in a strict test they resolve live definitions,
/// and what they find goes to the report, not to the test (they ran on a thread of their own,
/// outside the test's task, before).
@Suite(.container(.strict))
struct StrictTestValidationTests {
    @Test func validateInAStrictTestRecordsNothingInTheTest() async throws {
        #expect(try await Container.shared.validate(\.validationGood).isEmpty)
    }
}
