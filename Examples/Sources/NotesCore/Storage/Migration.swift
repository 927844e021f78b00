/// One step of the database schema's history, applied once, in order, in a transaction.
public struct Migration: Sendable {
    /// The schema version this migration produces.
    public let version: Int
    /// What it changes, for the log.
    public let summary: String
    /// The statements that make the change.
    public let sql: String

    /// Creates a migration.
    public init(version: Int, summary: String, sql: String) {
        self.version = version
        self.summary = summary
        self.sql = sql
    }

    /// Every migration of the notes schema, oldest first. Append; never edit a released one.
    public static let all: [Migration] = [
        Migration(
            version: 1,
            summary: "notes table",
            sql: """
                CREATE TABLE notes (
                    seq INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    text TEXT NOT NULL CHECK (length(text) > 0),
                    created REAL NOT NULL
                );
                """
        ),
        Migration(
            version: 2,
            summary: "full-text search",
            sql: """
                CREATE VIRTUAL TABLE notes_search USING fts5(text, content='notes', content_rowid='seq');
                INSERT INTO notes_search(notes_search) VALUES ('rebuild');
                CREATE TRIGGER notes_search_insert AFTER INSERT ON notes BEGIN
                    INSERT INTO notes_search(rowid, text) VALUES (new.seq, new.text);
                END;
                CREATE TRIGGER notes_search_delete AFTER DELETE ON notes BEGIN
                    INSERT INTO notes_search(notes_search, rowid, text) VALUES ('delete', old.seq, old.text);
                END;
                """
        ),
    ]
}
