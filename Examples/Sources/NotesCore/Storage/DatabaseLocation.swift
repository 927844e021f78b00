import Foundation

/// Which database a command uses, and whether it may create it.
public struct DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    /// The file's path, or `":memory:"` for a private in-memory database.
    public var path: String
    /// Whether a missing file is created (commands that write) or an error (commands that read).
    public var createIfMissing: Bool

    /// Creates a location.
    public init(path: String, createIfMissing: Bool) {
        self.path = path
        self.createIfMissing = createIfMissing
    }

    /// A private database that lives as long as its connection: for the graph and for tests.
    public static let inMemory = DatabaseLocation(path: ":memory:", createIfMissing: true)

    /// Whether this is the in-memory database.
    public var isInMemory: Bool { path == ":memory:" }

    /// The path.
    public var description: String { path }

    /// The name of the environment variable that chooses the database file.
    public static let environmentVariable = "NOTES_DATABASE"

    /// The database file for this user: `--database`, else `$NOTES_DATABASE`, else `notes.sqlite`
    /// in the application-support folder (`~/.local/share/notes` on Linux,
    /// `~/Library/Application Support/notes` on macOS).
    public static func defaultPath(option: String?, environment: [String: String]) -> String {
        if let option { return option }
        if let path = environment[environmentVariable], !path.isEmpty { return path }
        let folder =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".local/share")
        return folder.appendingPathComponent("notes/notes.sqlite").path
    }
}
