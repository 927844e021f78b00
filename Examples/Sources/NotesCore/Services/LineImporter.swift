import Foundation

/// The request an imported line is handled in: one per line, from the `.request` scope.
///
/// Every factory resolved while the line is handled sees the same request, so the note's id and
/// the log's prefix agree.
public struct ImportRequest: Sendable, Equatable {
    /// The request's id, which becomes the id of the note it makes.
    public let id: UUID

    /// Creates a request.
    public init(id: UUID) {
        self.id = id
    }

    /// The first eight characters of the id, as logs show it.
    public var shortID: String { id.shortForm }
}

/// One line of an import file.
public struct ImportLine: Sendable, Equatable {
    /// The line's number in the file, from 1.
    public let number: Int
    /// The line's text.
    public let text: String

    /// Creates a line.
    public init(number: Int, text: String) {
        self.number = number
        self.text = text
    }
}

/// Makes the note for one imported line, within that line's request.
public struct LineImporter: Sendable {
    private let request: ImportRequest
    private let clock: NotesClock
    private let logger: any NotesLogger

    /// The longest line imported; longer ones are skipped with a warning.
    public static let maximumLength = 10_000

    /// Creates the importer for one request.
    public init(request: ImportRequest, clock: NotesClock, logger: any NotesLogger) {
        self.request = request
        self.clock = clock
        self.logger = logger
    }

    /// The note for `line`, or nil for a blank line or one that is too long.
    public func note(from line: ImportLine) -> Note? {
        let text = NotesService.normalize(line.text)
        guard !text.isEmpty else { return nil }
        guard text.count <= Self.maximumLength else {
            logger.log(.warning, "line \(line.number) skipped: longer than \(Self.maximumLength) characters")
            return nil
        }
        logger.log(.debug, "line \(line.number) imported")
        return Note(id: request.id, text: text, created: clock.now())
    }
}
