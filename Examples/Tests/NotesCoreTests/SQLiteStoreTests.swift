import CSQLite
import FactoryKit
import FactoryTesting
import Foundation
import NotesCore
import Testing

/// The SQLite store and database, on real files in a temporary folder.
@Suite(.container)
struct SQLiteStoreTests {
    let folder: TemporaryFolder
    let logger = RecordingLogger()

    init() throws { folder = try TemporaryFolder() }

    private func open(_ name: String = "notes.sqlite", create: Bool = true, migrations: [Migration] = Migration.all)
        throws(NotesError) -> Database
    {
        try Database(
            at: DatabaseLocation(path: folder.path(name), createIfMissing: create), migrations: migrations,
            logger: logger)
    }

    private func note(_ number: Int, _ text: String) -> Note {
        Note(id: sequentialID(number), text: text, created: fixedDate.addingTimeInterval(Double(number)))
    }

    @Test func aNewFileIsMigratedToTheLatestSchema() async throws {
        defer { folder.remove() }
        let database = try open()
        #expect(try await database.schemaVersion() == Migration.all.last?.version)
        #expect(logger.messages.count == Migration.all.count)
        _ = try open()  // a second open finds it current and migrates nothing
        #expect(logger.messages.count == Migration.all.count)
    }

    @Test func storesListsAndSearches() async throws {
        defer { folder.remove() }
        let store = SQLiteNoteStore(database: try open())
        try await store.add([
            note(1, "Buy coffee beans"), note(2, "Coffee with Ada"), note(3, "Read \"quoted\" AND (odd) text"),
        ])
        #expect(
            try await store.notes(limit: nil).map(\.text) == [
                "Buy coffee beans", "Coffee with Ada", "Read \"quoted\" AND (odd) text",
            ])
        #expect(try await store.notes(limit: 1) == [note(3, "Read \"quoted\" AND (odd) text")])
        #expect(Set(try await store.search(["coffee"]).map(\.id)) == [sequentialID(1), sequentialID(2)])
        #expect(try await store.search(["cof", "ada"]).map(\.id) == [sequentialID(2)])
        // FTS5 syntax in the user's words is just text.
        #expect(try await store.search(["\"quoted\"", "AND", "(odd"]).map(\.id) == [sequentialID(3)])
        #expect(try await store.search(["tea"]).isEmpty)
        #expect(try await store.count() == 3)
    }

    @Test func deleteRemovesFromTheSearchIndexToo() async throws {
        defer { folder.remove() }
        let store = SQLiteNoteStore(database: try open())
        try await store.add([note(1, "coffee"), note(2, "more coffee")])
        #expect(try await store.notes(withIDPrefix: "00000001").map(\.id) == [sequentialID(1)])
        #expect(try await store.delete(id: sequentialID(1)))
        #expect(try await !store.delete(id: sequentialID(1)))
        #expect(try await store.search(["coffee"]).map(\.id) == [sequentialID(2)])
    }

    @Test func aFailedBatchStoresNothing() async throws {
        defer { folder.remove() }
        let store = SQLiteNoteStore(database: try open())
        try await store.add([note(1, "kept")])
        // The second note of the batch reuses an id: the whole batch is rolled back.
        await #expect(throws: NotesError.self) { try await store.add([note(2, "new"), note(1, "duplicate")]) }
        #expect(try await store.notes(limit: nil).map(\.text) == ["kept"])
    }

    @Test func anOlderFileIsUpgradedAndKeepsItsNotes() async throws {
        defer { folder.remove() }
        let old = SQLiteNoteStore(database: try open(migrations: Array(Migration.all.prefix(1))))
        try await old.add([note(1, "written before search existed")])
        let upgraded = try open()
        #expect(try await upgraded.schemaVersion() == 2)
        #expect(try await SQLiteNoteStore(database: upgraded).search(["search"]).map(\.id) == [sequentialID(1)])
    }

    @Test func aFailingMigrationLeavesTheFileAsItWas() async throws {
        defer { folder.remove() }
        _ = try open(migrations: Array(Migration.all.prefix(1)))
        let broken =
            Migration.all + [Migration(version: 3, summary: "broken", sql: "CREATE TABLE x (a); SELECT nonsense(")]
        #expect(throws: NotesError.self) { try open(migrations: broken) }
        // Neither migration 2 nor the first half of migration 3 landed.
        #expect(try await open(migrations: Array(Migration.all.prefix(1))).schemaVersion() == 1)
    }

    @Test func aNewerFileIsRefused() async throws {
        defer { folder.remove() }
        _ = try open()
        let path = folder.path("notes.sqlite")
        let newer = Migration.all + [Migration(version: 9, summary: "future", sql: "CREATE TABLE future (a)")]
        _ = try open(migrations: newer)
        #expect(throws: NotesError.newerSchema(path: path, found: 9, known: 2)) { try open() }
    }

    @Test func aCorruptFileIsRefusedAndLeftUntouched() throws {
        defer { folder.remove() }
        var bytes = Data("this is not a database at all".utf8)
        bytes.append(Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        let path = folder.write("notes.sqlite", bytes)
        #expect(throws: NotesError.notADatabase(path: path)) { try open() }
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }

    @Test func anotherProgramsDatabaseIsRefused() throws {
        defer { folder.remove() }
        let path = folder.path("notes.sqlite")
        var handle: OpaquePointer?
        sqlite3_open(path, &handle)
        sqlite3_exec(handle, "CREATE TABLE invoices (total REAL)", nil, nil, nil)
        sqlite3_close(handle)
        #expect(throws: NotesError.notADatabase(path: path)) { try open() }
    }

    @Test func aMissingFileIsCreatedOnlyWhenAllowed() throws {
        defer { folder.remove() }
        #expect(throws: NotesError.noDatabase(path: folder.path("missing.sqlite"))) {
            try open("missing.sqlite", create: false)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("missing.sqlite")))
        _ = try open("sub/folder/new.sqlite")
        #expect(FileManager.default.fileExists(atPath: folder.path("sub/folder/new.sqlite")))
    }

    /// Root can write anywhere, so the unwritable place is one nobody can create: a path whose
    /// parent is a regular file.
    @Test func anUnwritablePlaceIsReported() throws {
        defer { folder.remove() }
        let file = folder.write("plain-file", "x")
        #expect(
            throws: NotesError.cannotCreateDatabase(
                path: file + "/notes.sqlite", reason: "\(file) is a file, not a folder")
        ) {
            try open("plain-file/notes.sqlite")
        }
        #expect(throws: NotesError.cannotCreateDatabase(path: folder.url.path, reason: "it is a folder")) {
            try Database(at: DatabaseLocation(path: folder.url.path, createIfMissing: true), logger: logger)
        }
    }

    @Test func theContainerOpensOneDatabasePerContainer() async throws {
        defer { folder.remove() }
        let path = folder.path("notes.sqlite")
        Container.shared.databaseLocation.register { DatabaseLocation(path: path, createIfMissing: true) }
        Container.shared.logger.register { logger }
        async let first = Container.shared.database()
        async let second = Container.shared.database()
        let (a, b) = try await (first, second)
        #expect(a === b)
        #expect(logger.messages.count == Migration.all.count)  // opened and migrated once
    }
}
