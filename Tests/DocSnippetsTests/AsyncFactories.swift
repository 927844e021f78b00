// The snippets of AsyncFactories.md.
import FactoryKit
import Foundation
import Testing

extension Container {
    var database: AsyncFactory<Database> {
        self { try await Database.open(path: self.config().databasePath) }
            .singleton
    }
    var report: AsyncParameterFactory<ReportID, Report> {
        self { id in try await Report.load(id, from: self.database()) }
    }
}

func resolveAsyncFactories(_ id: ReportID) async throws -> (Database, Report, Database) {
    let database = try await Container.shared.database()
    let report = try await Container.shared.report(id)
    let same = try await dependency(\.database)
    return (database, report, same)
}

func openTheDatabaseReportingCycles() async throws {
    do {
        _ = try await Container.shared.database()
    } catch let cycle as DependencyCycleError {
        print(cycle)  // Dependency cycle: Container.database<Database> → Container.cache<Cache> → ...
    }
}

func registerAFake() {
    Container.shared.database.register { try await FakeDatabase() }
    Container.shared.database { try await FakeDatabase() }
}

extension Container {
    var requestLogger: Factory<RequestLogger> { self { RequestLogger(id: UUID()) }.scope(.request) }
    var transaction: AsyncFactory<Transaction> { self { try await self.database().begin() }.scope(.request) }
}

func serve(_ request: Request) async throws {
    try await Container.shared.withScope(.request) {
        try await handle(request)
    }
}

func handle(_ request: Request) async throws {
    let logger = Container.shared.requestLogger()
    let transaction = try await Container.shared.transaction()
    #expect(Container.shared.requestLogger() === logger)
    #expect(try await Container.shared.transaction() === transaction)
    #expect(transaction.database.path == "app.sqlite")
}

@Suite(.container)
struct AsyncFactoriesArticleTests {
    @Test func asyncFactoriesResolveWithTryAwait() async throws {
        let (database, report, same) = try await resolveAsyncFactories(ReportID(rawValue: 3))
        #expect(same === database)
        #expect(report.id == ReportID(rawValue: 3))
        try await openTheDatabaseReportingCycles()
    }

    @Test func aRegisteredAsyncClosureReplacesTheDefinition() async throws {
        registerAFake()
        #expect(try await Container.shared.database() is FakeDatabase)
    }

    @Test func aRequestScopeGivesOneInstancePerBlock() async throws {
        try await serve(Request(path: "/"))
        try await serve(Request(path: "/other"))
    }
}

struct AppConfig: Sendable {
    var databasePath = "app.sqlite"
}

class Database: @unchecked Sendable {
    let path: String

    init(path: String) {
        self.path = path
    }

    static func open(path: String) async throws -> Database {
        Database(path: path)
    }

    func begin() async throws -> Transaction {
        Transaction(database: self)
    }
}

final class FakeDatabase: Database, @unchecked Sendable {
    init() async throws {
        super.init(path: ":memory:")
    }
}

struct ReportID: Hashable, Sendable {
    let rawValue: Int
}

struct Report {
    let id: ReportID

    static func load(_ id: ReportID, from database: Database) async throws -> Report {
        Report(id: id)
    }
}

final class RequestLogger: Sendable {
    let id: UUID

    init(id: UUID) {
        self.id = id
    }
}

final class Transaction: Sendable {
    let database: Database

    init(database: Database) {
        self.database = database
    }
}

struct Request: Sendable {
    let path: String
}

extension Container {
    var config: Factory<AppConfig> { self { AppConfig() }.singleton }
}
