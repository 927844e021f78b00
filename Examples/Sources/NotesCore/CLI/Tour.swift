import FactoryKit
import Foundation

/// What `notes` with no arguments shows: a few commands run on a fresh demo database.
struct Tour {
    let container: Container

    /// The demo database: in the temporary folder, made afresh by every tour.
    static var demoPath: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("notes-tour.sqlite").path
    }

    func run() async throws(NotesError) {
        let console = container.console()
        let path = Self.demoPath
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        container.databaseLocation.register { DatabaseLocation(path: path, createIfMissing: true) }

        console.output("notes: a small notes tool on SQLite, wired with FactoryKit. A short tour")
        console.output("on a demo database (\(path)):\n")
        let service = try await NotesApp.resolve { try await container.notesService() }
        var added: [Note] = []
        for text in [
            "Buy oat milk and coffee beans", "Call the dentist about Tuesday", "Swift: read about task-local values",
        ] {
            console.output("$ notes add \"\(text)\"")
            let note = try await service.add(text)
            added.append(note)
            console.output("added \(note.shortID)")
        }
        try await show("notes list", try await service.list())
        try await show("notes search coffee", try await service.search("coffee"))

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("notes-tour-import.txt").path
        let lines = (1...200).map { "Imported idea number \($0)" }.joined(separator: "\n")
        guard FileManager.default.createFile(atPath: file, contents: Data(lines.utf8)) else {
            throw .cannotReadImport(path: file, reason: "the tour could not write it")
        }
        defer { try? FileManager.default.removeItem(atPath: file) }
        console.output("\n$ notes import \(file)   # 200 lines, each in its own request scope")
        let importFile = try ImportFile.read(file, using: container.fileReader())
        let summary = try await NotesApp.resolve { try await container.importer() }.importNotes(importFile)
        console.output("imported \(summary.imported) notes")
        try await show("notes list --limit 2", try await service.list(limit: 2))

        let first = added[0]
        console.output("\n$ notes delete \(first.shortID.prefix(4))")
        console.output(
            "deleted \(container.noteFormatter().line(for: try await service.delete(String(first.shortID.prefix(4)))))")

        let graph = try await NotesApp.recordGraph(of: Container())
        console.output(
            "\n$ notes graph   # the program's own wiring: \(graph.nodes.count) factories, \(graph.edges.count) edges")
        console.output("(notes graph --format dot | dot -Tpng -o graph.png draws it)\n")
        console.output("Your notes live in \(DatabaseLocation.defaultPath(option: nil, environment: [:]))")
        console.output(
            "(or --database PATH, or $\(DatabaseLocation.environmentVariable)). notes help lists the commands;")
        console.output("notes --trace list shows every resolution FactoryKit makes.")
    }

    private func show(_ command: String, _ notes: [Note]) async throws(NotesError) {
        let formatter = container.noteFormatter()
        console.output("\n$ \(command)")
        for note in notes { console.output(formatter.line(for: note)) }
    }

    private var console: Console { container.console() }
}
