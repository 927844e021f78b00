import FactoryKit
import Foundation

// The composition root: every factory of the program, and the only file that names the live
// implementations. Everything below receives its dependencies through initializers; tests replace
// any of these with `Container.shared.x.register { ... }` under the `.container` trait.

extension Container {
    // MARK: Configuration

    /// The database this run uses; `NotesApp` registers the one the command line chose.
    public var databaseLocation: Factory<DatabaseLocation> {
        self {
            DatabaseLocation(path: DatabaseLocation.defaultPath(option: nil, environment: [:]), createIfMissing: true)
        }
    }

    /// The time zone `list` and `search` show times in.
    public var timeZone: Factory<TimeZone> { self { TimeZone.current } }

    /// How much the logger writes; `--verbose` registers `.info`.
    public var logLevel: Factory<LogLevel> { self { .warning } }

    // MARK: Seams

    /// Now. Struct witness: tests register `.fixed(date)`.
    public var clock: Factory<NotesClock> { self { .system } }

    /// New ids. Struct witness: tests register `.sequential()`.
    public var ids: Factory<IDGenerator> { self { .random } }

    /// Standard output and error. Struct witness: tests register one that records the lines.
    public var console: Factory<Console> { self { .standard }.singleton }

    /// Diagnostics. Protocol seam: tests register a recording logger.
    public var logger: Factory<any NotesLogger> {
        self { StandardErrorLogger(minimumLevel: self.logLevel(), console: self.console()) }.cached
    }

    /// How `import` reads files. Struct witness.
    public var fileReader: Factory<FileReader> { self { .live } }

    // MARK: Storage

    /// The database, opened and migrated once per container: an `AsyncFactory`, because opening
    /// does I/O and can fail, and `cached`, so every service of a run shares one connection.
    public var database: AsyncFactory<Database> {
        self { try Database(at: self.databaseLocation(), logger: self.logger()) }.cached
    }

    /// Where notes are kept. Protocol seam: tests register an in-memory fake.
    public var noteStore: AsyncFactory<any NoteStore> {
        self { SQLiteNoteStore(database: try await self.database()) }
    }

    // MARK: Services

    /// Adds, lists, searches and deletes notes.
    public var notesService: AsyncFactory<NotesService> {
        self {
            NotesService(store: try await self.noteStore(), clock: self.clock(), ids: self.ids(), logger: self.logger())
        }
    }

    /// Formats notes for output.
    public var noteFormatter: Factory<NoteFormatter> { self { NoteFormatter(timeZone: self.timeZone()) } }

    /// Imports files: each line handled in a request scope of its own.
    public var importer: AsyncFactory<Importer> {
        self {
            Importer(store: try await self.noteStore(), console: self.console()) { line in
                await self.withScope(.request) { self.lineImporter().note(from: line) }
            }
        }
    }

    // MARK: One imported line (the `.request` scope: one instance per line)

    /// The request a line is handled in; its id becomes the note's id.
    public var importRequest: Factory<ImportRequest> { self { ImportRequest(id: self.ids().next()) }.scope(.request) }

    /// The logger for one line, prefixing each message with the line's request.
    public var requestLogger: Factory<any NotesLogger> {
        self { RequestLogger(request: self.importRequest(), base: self.logger()) }.scope(.request)
    }

    /// Makes the note for one line.
    public var lineImporter: Factory<LineImporter> {
        self { LineImporter(request: self.importRequest(), clock: self.clock(), logger: self.requestLogger()) }
    }
}
