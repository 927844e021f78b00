import CSQLite
import Foundation

/// The notes database: one SQLite connection, opened and migrated before first use, owned by an
/// actor so every statement runs on one connection at a time.
///
/// Files use write-ahead logging and wait on each other's locks, so several `notes` processes can
/// write to one file at once without losing anything.
public actor Database {
    /// Where the database lives.
    public let location: DatabaseLocation
    private let connection: SQLiteConnection

    /// Opens the database at `location`, creating it if allowed, and applies any `migrations` it
    /// has not seen yet, all in one transaction.
    ///
    /// - Throws: ``NotesError`` naming the file when it is missing, cannot be created, is not a
    ///   notes database, or was written by a newer schema.
    public init(
        at location: DatabaseLocation, migrations: [Migration] = Migration.all, logger: any NotesLogger
    ) throws(NotesError) {
        self.location = location
        let path = location.path
        if !location.isInMemory {
            try Database.prepareFile(at: location)
        }
        do {
            connection = try SQLiteConnection(path: path, create: location.createIfMissing)
        } catch {
            throw .cannotCreateDatabase(path: path, reason: error.message)
        }
        do {
            if !location.isInMemory {
                try Database.useWriteAheadLog(connection)
                try connection.execute("PRAGMA synchronous = NORMAL")
            }
            try Database.migrate(connection, to: migrations, path: path, logger: logger)
        } catch let error as NotesError {
            throw error
        } catch let error as SQLiteError where error.code == SQLITE_NOTADB {
            throw .notADatabase(path: path)
        } catch {
            throw .storage(path: path, reason: "\(error)")
        }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`): everything it does lands, or,
    /// when it throws, nothing does.
    func write<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws(NotesError) -> Result {
        try reportingErrors { try Database.transaction(connection, body) }
    }

    /// Runs `body`, which only reads.
    func read<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws(NotesError) -> Result {
        try reportingErrors { try body(connection) }
    }

    /// Runs `work`, passing ``NotesError``s on and reporting any other failure as a storage error
    /// in this database.
    private func reportingErrors<Result>(_ work: () throws -> Result) throws(NotesError) -> Result {
        do {
            return try work()
        } catch let error as NotesError {
            throw error
        } catch {
            throw .storage(path: location.path, reason: "\(error)")
        }
    }

    /// The schema version the file is at.
    public func schemaVersion() throws(NotesError) -> Int {
        try read { try Database.version(of: $0) }
    }

    // MARK: - Opening

    /// Checks the file's folder before SQLite gets a chance to fail with a vaguer message.
    private static func prepareFile(at location: DatabaseLocation) throws(NotesError) {
        let url = URL(fileURLWithPath: location.path)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
            if isFolder.boolValue { throw .cannotCreateDatabase(path: location.path, reason: "it is a folder") }
            return
        }
        guard location.createIfMissing else { throw .noDatabase(path: location.path) }
        let folder = url.deletingLastPathComponent()
        var ancestor = folder
        while !FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isFolder) {
            ancestor.deleteLastPathComponent()
        }
        guard isFolder.boolValue else {
            throw .cannotCreateDatabase(path: location.path, reason: "\(ancestor.path) is a file, not a folder")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreateDatabase(path: location.path, reason: "cannot create its folder \(folder.path)")
        }
    }

    /// Puts the file in write-ahead-log mode, waiting for other connections' locks as long as the
    /// busy timeout would.
    ///
    /// On a file not yet in WAL mode (a new one, or one another program made) the switch is a read
    /// that upgrades to a write: it reads the header under a shared lock, then needs the write lock
    /// to rewrite it. SQLite never calls the busy handler for that upgrade (a reader waiting for a
    /// writer that waits for the reader to finish would deadlock), so while another connection
    /// holds the write lock — another `notes` switching the same new file, say — the pragma fails
    /// at once with `SQLITE_BUSY`, whatever the timeout. Failing released the read lock, so this
    /// waits for the write lock where the busy handler does apply, in `BEGIN IMMEDIATE`, gives it
    /// straight back and switches again; by then the other connection has usually switched the
    /// file, and the pragma has nothing to write. On a file already in WAL mode the pragma only
    /// reads, and succeeds the first time.
    private static func useWriteAheadLog(_ connection: SQLiteConnection) throws(SQLiteError) {
        let deadline = ContinuousClock.now + connection.busyTimeout
        while true {
            do {
                try connection.execute("PRAGMA journal_mode = WAL")
                return
            } catch let error where error.code == SQLITE_BUSY && ContinuousClock.now < deadline {
                try connection.execute("BEGIN IMMEDIATE; ROLLBACK")
            }
        }
    }

    private static func migrate(
        _ connection: SQLiteConnection, to migrations: [Migration], path: String, logger: any NotesLogger
    ) throws {
        let latest = migrations.last?.version ?? 0
        // Most runs find the schema current and need no write lock.
        if try hasVersionTable(connection), try version(of: connection) == latest { return }
        try transaction(connection) { connection in
            if try !hasVersionTable(connection) {
                let others = try connection.query(
                    "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
                ) { $0.integer(0) }
                guard others.first == 0 else { throw NotesError.notADatabase(path: path) }
                try connection.execute(
                    "CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (0);"
                )
            }
            let current = try version(of: connection)
            guard current <= latest else {
                throw NotesError.newerSchema(path: path, found: current, known: latest)
            }
            for migration in migrations where migration.version > current {
                logger.log(.info, "migrating \(path) to version \(migration.version): \(migration.summary)")
                try connection.execute(migration.sql)
                try connection.run("UPDATE schema_version SET version = ?", .integer(Int64(migration.version)))
            }
        }
    }

    private static func hasVersionTable(_ connection: SQLiteConnection) throws -> Bool {
        try connection.query(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
        ) { $0.integer(0) }.first == 1
    }

    private static func version(of connection: SQLiteConnection) throws -> Int {
        Int(try connection.query("SELECT version FROM schema_version") { $0.integer(0) }.first ?? 0)
    }

    private static func transaction<Result>(
        _ connection: SQLiteConnection, _ body: (SQLiteConnection) throws -> Result
    ) throws -> Result {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let result = try body(connection)
            try connection.execute("COMMIT")
            return result
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
