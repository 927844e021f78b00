/// Everything that can go wrong in a `notes` command, each with the one line the user sees.
public enum NotesError: Error, Equatable, CustomStringConvertible {
    /// The command line could not be understood; the text says how to use it.
    case usage(String)
    /// A command that reads found no database file.
    case noDatabase(path: String)
    /// The database file could not be created or opened for writing.
    case cannotCreateDatabase(path: String, reason: String)
    /// The file exists but is not a notes database (another file, or a corrupt one).
    case notADatabase(path: String)
    /// The file was written by a newer version of `notes`.
    case newerSchema(path: String, found: Int, known: Int)
    /// SQLite failed in a way none of the cases above covers.
    case storage(path: String, reason: String)
    /// `notes add` was given only white space.
    case emptyNote
    /// `notes search` was given no words.
    case emptySearch
    /// No note has an identifier starting with the given text.
    case unknownID(String)
    /// More than one note has an identifier starting with the given text.
    case ambiguousID(String, matches: Int)
    /// The import file could not be read.
    case cannotReadImport(path: String, reason: String)
    /// The import file holds no notes.
    case emptyImport(path: String)
    /// The import file is not UTF-8 text.
    case binaryImport(path: String)
    /// The program's own wiring failed (a dependency cycle, say): a bug to report.
    case wiring(String)

    /// The line `notes` prints after `notes: `.
    public var description: String {
        switch self {
        case .usage(let text):
            text
        case .noDatabase(let path):
            "no database at \(path); add a note first (notes add TEXT) or choose one with --database PATH"
        case .cannotCreateDatabase(let path, let reason):
            "cannot create the database at \(path): \(reason)"
        case .notADatabase(let path):
            "\(path) is not a notes database (it is corrupt or belongs to another program); nothing was changed"
        case .newerSchema(let path, let found, let known):
            "\(path) was written by a newer notes (schema \(found); this one knows up to \(known)); nothing was changed"
        case .storage(let path, let reason):
            "database error in \(path): \(reason)"
        case .emptyNote:
            "a note needs some text: notes add TEXT"
        case .emptySearch:
            "search needs at least one word: notes search WORDS"
        case .unknownID(let id):
            "no note has the id \(id); notes list shows the ids"
        case .ambiguousID(let id, let matches):
            "\(matches) notes have ids starting with \(id); give more characters of the id"
        case .cannotReadImport(let path, let reason):
            "cannot read \(path): \(reason)"
        case .emptyImport(let path):
            "\(path) holds no notes (it is empty); nothing was imported"
        case .binaryImport(let path):
            "\(path) is not a text file (it must be UTF-8, one note per line); nothing was imported"
        case .wiring(let reason):
            "internal error, please report it: \(reason)"
        }
    }

    /// The process's exit status for this error: 64 (`EX_USAGE`) for usage, 1 for the rest.
    public var exitStatus: Int32 {
        if case .usage = self { return 64 }
        return 1
    }
}
