import Foundation

/// Adds, lists, searches and deletes notes: the program's rules, on top of a ``NoteStore``.
///
/// Every dependency comes through the initializer; only the composition root knows which.
public struct NotesService: Sendable {
    private let store: any NoteStore
    private let clock: NotesClock
    private let ids: IDGenerator
    private let logger: any NotesLogger

    /// The shortest id prefix `delete` accepts.
    public static let minimumIDPrefix = 4

    /// Creates the service.
    public init(store: any NoteStore, clock: NotesClock, ids: IDGenerator, logger: any NotesLogger) {
        self.store = store
        self.clock = clock
        self.ids = ids
        self.logger = logger
    }

    /// Stores `text` as a new note, with white space runs (line breaks too) made single spaces.
    @discardableResult
    public func add(_ text: String) async throws(NotesError) -> Note {
        let normalized = Self.normalize(text)
        guard !normalized.isEmpty else { throw .emptyNote }
        let note = Note(id: ids.next(), text: normalized, created: clock.now())
        try await store.add([note])
        logger.log(.info, "added \(note.shortID)")
        return note
    }

    /// The notes, oldest first; the newest `limit` when given.
    public func list(limit: Int? = nil) async throws(NotesError) -> [Note] {
        try await store.notes(limit: limit)
    }

    /// The notes that contain every word of `query` (as words or word prefixes), best match first.
    public func search(_ query: String) async throws(NotesError) -> [Note] {
        let words = query.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard !words.isEmpty else { throw .emptySearch }
        return try await store.search(words)
    }

    /// Deletes the one note whose id starts with `id` and returns it.
    ///
    /// - Throws: ``NotesError/unknownID(_:)`` when no note matches (also for text that is not
    ///   hexadecimal or is shorter than ``minimumIDPrefix``), ``NotesError/ambiguousID(_:matches:)``
    ///   when several do.
    @discardableResult
    public func delete(_ id: String) async throws(NotesError) -> Note {
        let prefix = id.lowercased()
        let allowed = Set("0123456789abcdef-")
        guard prefix.count >= Self.minimumIDPrefix, prefix.allSatisfy(allowed.contains) else {
            throw .unknownID(id)
        }
        let matches = try await store.notes(withIDPrefix: prefix)
        guard matches.count <= 1 else { throw .ambiguousID(id, matches: matches.count) }
        guard let note = matches.first, try await store.delete(id: note.id) else { throw .unknownID(id) }
        logger.log(.info, "deleted \(note.shortID)")
        return note
    }

    /// `text` with leading and trailing white space removed and each inner run made one space.
    public static func normalize(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
