import Foundation

/// A text file to import, read and checked: its non-blank lines, numbered from 1.
public struct ImportFile: Sendable, Equatable {
    /// Where the file was read from.
    public let path: String
    /// Its non-blank lines.
    public let lines: [ImportLine]

    /// Reads the file at `path` with `reader`.
    ///
    /// - Throws: ``NotesError`` when the file cannot be read, is empty or blank, or is not UTF-8 text.
    public static func read(_ path: String, using reader: FileReader) throws(NotesError) -> ImportFile {
        let data: Data
        do {
            data = try reader.read(path)
        } catch {
            throw .cannotReadImport(path: path, reason: reason(error))
        }
        guard !data.isEmpty else { throw .emptyImport(path: path) }
        guard !data.contains(0), let text = String(validating: data, as: UTF8.self) else {
            throw .binaryImport(path: path)
        }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .enumerated()
            .map { ImportLine(number: $0.offset + 1, text: String($0.element)) }
            .filter { !$0.text.allSatisfy(\.isWhitespace) }
        guard !lines.isEmpty else { throw .emptyImport(path: path) }
        return ImportFile(path: path, lines: lines)
    }

    /// A short reason for a read failure, without Foundation's long sentences.
    private static func reason(_ error: any Error) -> String {
        if let failure = error as? FileReader.Failure { return failure.reason }
        switch (error as? CocoaError)?.code {
        case .fileReadNoSuchFile?, .fileNoSuchFile?: return "no such file"
        case .fileReadNoPermission?: return "permission denied"
        default: return (error as NSError).localizedDescription
        }
    }
}

/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    /// Notes stored.
    public let imported: Int
    /// Non-blank lines that made no note (too long).
    public let skipped: Int

    /// Creates a summary.
    public init(imported: Int, skipped: Int) {
        self.imported = imported
        self.skipped = skipped
    }
}

/// Imports a file's lines as notes: the lines are handled concurrently, each in its own request
/// (see ``ImportRequest``), and the notes are stored in one transaction — all of them or none.
public struct Importer: Sendable {
    private let store: any NoteStore
    private let console: Console
    private let handle: @Sendable (ImportLine) async -> Note?

    /// How many lines are handled at once.
    public static let maximumConcurrency = 32

    /// Creates an importer. `handle` makes the note for one line; the composition root runs each
    /// call in a fresh request scope.
    public init(store: any NoteStore, console: Console, handle: @escaping @Sendable (ImportLine) async -> Note?) {
        self.store = store
        self.console = console
        self.handle = handle
    }

    /// Imports `file`'s lines, showing progress on a terminal.
    ///
    /// - Throws: ``NotesError/emptyImport(path:)`` when no line makes a note, or the store's error;
    ///   then nothing is stored.
    public func importNotes(_ file: ImportFile) async throws(NotesError) -> ImportSummary {
        let lines = file.lines
        var notes = [Note?](repeating: nil, count: lines.count)
        await withTaskGroup(of: (Int, Note?).self) { group in
            var next = 0
            func start() {
                let index = next
                let line = lines[index]
                group.addTask { (index, await handle(line)) }
                next += 1
            }
            while next < min(lines.count, Self.maximumConcurrency) { start() }
            var done = 0
            let step = max(1, lines.count / 100)
            for await (index, note) in group {
                notes[index] = note
                done += 1
                if done % step == 0 || done == lines.count {
                    console.status("importing: \(done)/\(lines.count) lines (\(done * 100 / lines.count)%)")
                }
                if next < lines.count { start() }
            }
        }
        let made = notes.compactMap { $0 }
        guard !made.isEmpty else {
            console.endStatus()
            throw .emptyImport(path: file.path)
        }
        console.status("storing \(made.count) notes in one transaction")
        try await store.add(made)
        console.endStatus()
        return ImportSummary(imported: made.count, skipped: lines.count - made.count)
    }
}
