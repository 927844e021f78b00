import Foundation

/// One stored note.
public struct Note: Sendable, Equatable, Identifiable {
    /// The note's identifier, from the ``IDGenerator`` seam.
    public let id: UUID
    /// What the note says: one line of text, never empty.
    public let text: String
    /// When the note was written, from the ``NotesClock`` seam.
    public let created: Date

    /// Creates a note.
    public init(id: UUID, text: String, created: Date) {
        self.id = id
        self.text = text
        self.created = created
    }

    /// The first eight characters of the identifier: what `notes list` shows and `notes delete` takes.
    public var shortID: String { id.shortForm }
}

extension UUID {
    /// The first eight characters, in lowercase: how `notes` shows an id.
    public var shortForm: String { String(uuidString.lowercased().prefix(8)) }
}
