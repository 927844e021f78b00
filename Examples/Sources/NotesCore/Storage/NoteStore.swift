import Foundation

/// Where notes are kept: a protocol seam (compare the struct witnesses in `Seams/`), because a store
/// has a broad API and stateful implementations — SQLite in the program, in memory in tests.
public protocol NoteStore: Sendable {
    /// Adds `notes`, all or none.
    func add(_ notes: [Note]) async throws(NotesError)
    /// Every note, oldest first; only the newest `limit` when given.
    func notes(limit: Int?) async throws(NotesError) -> [Note]
    /// The notes containing every word of `words` (prefixes match), best match first.
    func search(_ words: [String]) async throws(NotesError) -> [Note]
    /// The notes whose identifier, in lowercase, starts with `prefix`.
    func notes(withIDPrefix prefix: String) async throws(NotesError) -> [Note]
    /// Deletes the note with `id`; returns whether there was one.
    func delete(id: UUID) async throws(NotesError) -> Bool
    /// How many notes there are.
    func count() async throws(NotesError) -> Int
}

/// The notes in a SQLite ``Database``, searched through its FTS5 index.
public struct SQLiteNoteStore: NoteStore {
    private let database: Database

    /// Creates a store on `database`.
    public init(database: Database) {
        self.database = database
    }

    /// Inserts the notes in one `BEGIN IMMEDIATE` transaction.
    public func add(_ notes: [Note]) async throws(NotesError) {
        try await database.write { connection in
            for note in notes {
                try connection.run(
                    "INSERT INTO notes (id, text, created) VALUES (?, ?, ?)",
                    .text(note.id.uuidString.lowercased()), .text(note.text),
                    .real(note.created.timeIntervalSince1970)
                )
            }
        }
    }

    /// Reads the newest `limit` rows by insertion order, returned oldest first.
    public func notes(limit: Int?) async throws(NotesError) -> [Note] {
        try await database.read { connection in
            try connection.query(
                "SELECT id, text, created FROM (SELECT * FROM notes ORDER BY seq DESC LIMIT ?) ORDER BY seq",
                [.integer(Int64(limit ?? -1))], row: Self.note
            )
        }
    }

    /// Matches each word as a quoted FTS5 prefix, best rank first.
    public func search(_ words: [String]) async throws(NotesError) -> [Note] {
        // Each word is quoted, so FTS5's own syntax in the user's words is just text.
        let query = words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"*" }
            .joined(separator: " ")
        return try await database.read { connection in
            try connection.query(
                """
                SELECT notes.id, notes.text, notes.created FROM notes_search
                JOIN notes ON notes.seq = notes_search.rowid
                WHERE notes_search MATCH ? ORDER BY rank, notes.seq
                """,
                [.text(query)], row: Self.note
            )
        }
    }

    /// Compares the prefix with the start of the stored lowercase id.
    public func notes(withIDPrefix prefix: String) async throws(NotesError) -> [Note] {
        try await database.read { connection in
            try connection.query(
                "SELECT id, text, created FROM notes WHERE substr(id, 1, length(?1)) = ?1 ORDER BY seq",
                [.text(prefix.lowercased())], row: Self.note
            )
        }
    }

    /// Deletes the row, and through a trigger its search entry.
    public func delete(id: UUID) async throws(NotesError) -> Bool {
        try await database.write { connection in
            try connection.run("DELETE FROM notes WHERE id = ?", .text(id.uuidString.lowercased()))
            return connection.changes > 0
        }
    }

    /// Counts the rows.
    public func count() async throws(NotesError) -> Int {
        try await database.read { connection in
            Int(try connection.query("SELECT count(*) FROM notes") { $0.integer(0) }.first ?? 0)
        }
    }

    private static func note(_ row: Cursor) throws(SQLiteError) -> Note {
        let id = row.text(0)
        guard let uuid = UUID(uuidString: id) else {
            throw SQLiteError(code: 11, message: "a stored note has a malformed id (\(id))")
        }
        return Note(id: uuid, text: row.text(1), created: Date(timeIntervalSince1970: row.real(2)))
    }
}
