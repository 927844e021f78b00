import CSQLite
import Foundation

/// A failure reported by SQLite: its result code and message.
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
    /// SQLite's primary result code, such as `SQLITE_BUSY` (5) or `SQLITE_NOTADB` (26).
    public let code: Int32
    /// SQLite's explanation.
    public let message: String

    /// SQLite's message.
    public var description: String { message }
}

/// A value bound to a statement's `?` placeholder.
enum SQLiteValue {
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// One open SQLite connection: a thin, typed layer over the C API.
///
/// Not thread-safe on its own; ``Database`` (an actor) owns each connection and is the only caller.
final class SQLiteConnection {
    private let handle: OpaquePointer
    /// How long a statement waits for other connections' locks before failing with `SQLITE_BUSY`.
    let busyTimeout: Duration

    /// Opens the database at `path` (`":memory:"` for a private in-memory one). Waits up to
    /// `busyTimeout` for other processes' locks instead of failing at once.
    init(path: String, create: Bool, busyTimeout: Duration = .seconds(10)) throws(SQLiteError) {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let result = sqlite3_open_v2(path, &opened, flags, nil)
        guard result == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(opened)
            throw SQLiteError(code: result & 0xFF, message: message)
        }
        handle = opened
        self.busyTimeout = busyTimeout
        // Before the first statement, the journal-mode switch included, so every statement that can wait does.
        sqlite3_busy_timeout(handle, Int32(busyTimeout.components.seconds * 1000))
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no parameters and return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    /// Runs one statement with `values` bound to its placeholders, ignoring any rows.
    func run(_ sql: String, _ values: SQLiteValue...) throws(SQLiteError) {
        _ = try query(sql, values) { _ in () }
    }

    /// Runs one statement and maps each result row with `row`.
    func query<Row>(
        _ sql: String, _ values: [SQLiteValue] = [], row: (Cursor) throws(SQLiteError) -> Row
    ) throws(SQLiteError) -> [Row] {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil))
        defer { sqlite3_finalize(statement) }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .integer(let number): try check(sqlite3_bind_int64(statement, index, number))
            case .real(let number): try check(sqlite3_bind_double(statement, index, number))
            case .text(let text): try check(sqlite3_bind_text(statement, index, text, -1, transient))
            }
        }
        var rows: [Row] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return rows }
            guard step == SQLITE_ROW else { throw error(step) }
            rows.append(try row(Cursor(statement: statement)))
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    private func check(_ result: Int32) throws(SQLiteError) {
        guard result == SQLITE_OK else { throw error(result) }
    }

    private func error(_ result: Int32) -> SQLiteError {
        SQLiteError(code: result & 0xFF, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Tells SQLite to copy bound text, which Swift frees after the call.
    private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// The current row of a query, read by column index.
struct Cursor {
    fileprivate let statement: OpaquePointer?

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        return String(cString: bytes)
    }
}
