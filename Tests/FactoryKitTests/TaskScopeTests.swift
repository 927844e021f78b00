import FactoryKit
import FactoryTesting
import Foundation
import Testing

final class RequestLog: @unchecked Sendable {
    let id = UUID()
}

actor ShutdownJournal {
    private(set) var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
}

final class Connection: Shutdownable, @unchecked Sendable {
    let name: String
    let journal: ShutdownJournal
    let fails: Bool
    init(_ name: String, journal: ShutdownJournal, fails: Bool = false) {
        self.name = name
        self.journal = journal
        self.fails = fails
    }
    func shutdown() async throws {
        await journal.add(name)
        if fails { throw AsyncOpenError(attempt: 0) }
    }
}

let taskScopeJournal = ShutdownJournal()

/// Where `requestLog` is defined, as a stop names it.
private let requestLogDefinition = "\(#filePath):\(#line + 3)"

extension Container {
    var requestLog: Factory<RequestLog> { self { RequestLog() }.scope(.request) }
    var requestAsyncLog: AsyncFactory<RequestLog> { self { RequestLog() }.scope(.request) }
    var requestFirst: Factory<Connection> { self { Connection("first", journal: taskScopeJournal) }.scope(.request) }
    var requestSecond: AsyncFactory<Connection> {
        self {
            _ = self.requestFirst()
            return Connection("second", journal: taskScopeJournal, fails: true)
        }
        .scope(.request)
    }
    var requestThird: Factory<Connection> { self { Connection("third", journal: taskScopeJournal) }.scope(.request) }
}

@Suite(.container)
struct TaskScopeTests {
    @Test func oneInstancePerBlockSharedByChildTasks() async throws {
        try await Container.shared.withScope(.request) {
            let log = Container.shared.requestLog()
            #expect(Container.shared.requestLog() === log)
            let fromChild = await Task { Container.shared.requestLog() }.value
            #expect(fromChild === log)
            let fromGroup = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 { group.addTask { Container.shared.requestLog() === log } }
                return await group.allSatisfy { $0 }
            }
            #expect(fromGroup)
            let asyncFirst = try await Container.shared.requestAsyncLog()
            let asyncSecond = try await Container.shared.requestAsyncLog()
            #expect(asyncFirst === asyncSecond)
        }
    }

    @Test func blocksAreIndependentAndReleaseTheirInstances() async {
        weak var released: RequestLog?
        let first = await Container.shared.withScope(.request) { () -> UUID in
            let log = Container.shared.requestLog()
            released = log
            return log.id
        }
        #expect(released == nil)
        let second = await Container.shared.withScope(.request) { Container.shared.requestLog().id }
        #expect(first != second)
        // Blocks running at the same time each get their own instance (compared by id: released
        // instances' addresses are reused).
        await withTaskGroup(of: UUID.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await Container.shared.withScope(.request) {
                        let log = Container.shared.requestLog()
                        try? await Task.sleep(for: .milliseconds(5))
                        #expect(Container.shared.requestLog() === log)
                        return log.id
                    }
                }
            }
            var seen = Set<UUID>()
            for await id in group { seen.insert(id) }
            #expect(seen.count == 8)
        }
    }

    @Test func nestedBlocksStartFresh() async {
        await Container.shared.withScope(.request) {
            let outer = Container.shared.requestLog()
            await Container.shared.withScope(.request) {
                #expect(Container.shared.requestLog() !== outer)
            }
            #expect(Container.shared.requestLog() === outer)
        }
    }

    @Test func asyncResolutionOutsideABlockThrows() async {
        await #expect(throws: InactiveScopeError.self) { try await Container.shared.requestAsyncLog() }
        do {
            _ = try await Container.shared.requestAsyncLog()
        } catch {
            #expect("\(error)".hasPrefix("Container.requestAsyncLog<RequestLog> is scoped to a task-bound scope"))
        }
    }

    @Test func syncResolutionOutsideABlockStopsWithTheFactorysName() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container.shared.requestLog()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        // At the definition's path and line (the fatal error's own location is FactoryKit's), and
        // saying how a test gets an issue instead.
        let expected = "\(requestLogDefinition): Container.requestLog<RequestLog> is scoped to a task-bound scope"
        #expect(message.contains(expected), "\(message)")
        #expect(message.contains("FactoryTesting's .container trait makes this an issue of the test"), "\(message)")
    }

    @Test func instancesShutDownInReverseOrderOnceEachAndErrorsDoNotStopOthers() async throws {
        let mark = TestLog.mark()
        try await Container.shared.withScope(.request) {
            _ = try await Container.shared.requestSecond()  // creates first, then second
            _ = Container.shared.requestThird()
            _ = Container.shared.requestFirst()  // a hit: not shut down twice
        }
        #expect(await taskScopeJournal.entries == ["third", "second", "first"])
        #expect(
            TestLog.lines(since: mark).contains { $0.contains("shutting down Container.requestSecond<Connection>") })
    }
}

/// Waits (briefly) for background shutdowns to reach `count` entries.
private func entries(of journal: ShutdownJournal, count: Int) async throws -> [String] {
    for _ in 0..<200 {
        let entries = await journal.entries
        if entries.count >= count { return entries }
        try await Task.sleep(for: .milliseconds(5))
    }
    return await journal.entries
}

@Suite(.container)
struct ResetShutdownTests {
    @Test func containerResetShutsDownCachedInstancesNewestFirst() async throws {
        let journal = ShutdownJournal()
        let older = Factory<Connection>(Container.shared, key: "shutdownOlder") {
            Connection("older", journal: journal)
        }
        .cached
        let newer = Factory<Connection>(Container.shared, key: "shutdownNewer") {
            Connection("newer", journal: journal)
        }
        .cached
        _ = older()
        _ = newer()
        Container.shared.manager.reset(options: .scope)
        #expect(try await entries(of: journal, count: 2) == ["newer", "older"])
        // Reset again: nothing left to shut down, nothing shut down twice.
        Container.shared.reset()
        try await Task.sleep(for: .milliseconds(20))
        #expect(await journal.entries == ["newer", "older"])
    }

    @Test func scopeAndFactoryResetsShutDownTheirInstances() async throws {
        let journal = ShutdownJournal()
        let session = Factory<Connection>(Container.shared, key: "shutdownSession") {
            Connection("session", journal: journal)
        }
        .scope(.scopeTestSession)
        let single = Factory<Connection>(Container.shared, key: "shutdownSingle") {
            Connection("single", journal: journal)
        }
        .singleton
        _ = session()
        Container.shared.manager.reset(scope: .scopeTestSession)
        #expect(try await entries(of: journal, count: 1) == ["session"])
        _ = single()
        single.reset(.scope)
        #expect(try await entries(of: journal, count: 2) == ["session", "single"])
        _ = single()
        Scope.singleton.reset()
        #expect(try await entries(of: journal, count: 3) == ["session", "single", "single"])
    }
}
