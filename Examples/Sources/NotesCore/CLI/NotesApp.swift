import FactoryKit
import Foundation

/// The `notes` program: parses the command line, configures the container, runs the command and
/// turns every failure into one line on standard error and a non-zero exit status.
public enum NotesApp {
    /// Runs `notes` with `arguments` (without the program's name) and returns the exit status.
    public static func run(
        _ arguments: [String], environment: [String: String], container: Container = .shared
    ) async -> Int32 {
        let console = container.console()
        do {
            let invocation = try Invocation.parse(arguments)
            configure(container, for: invocation, environment: environment)
            try await execute(invocation.command, in: container)
            return 0
        } catch {
            console.endStatus()
            console.error("notes: \(error)")
            return error.exitStatus
        }
    }

    /// Registers what the command line chose: the database, the log level, the trace.
    static func configure(_ container: Container, for invocation: Invocation, environment: [String: String]) {
        let path = DatabaseLocation.defaultPath(option: invocation.databasePath, environment: environment)
        let creates: Bool
        switch invocation.command {
        case .add, .importFile: creates = true
        default: creates = false
        }
        container.databaseLocation.register { DatabaseLocation(path: path, createIfMissing: creates) }
        if invocation.verbose {
            container.logLevel.register { .info }
        }
        if invocation.trace {
            let console = container.console()
            container.manager.logger = { line in console.error(line) }
            container.manager.trace = true
        }
    }

    static func execute(_ command: Command, in container: Container) async throws(NotesError) {
        let console = container.console()
        let formatter = container.noteFormatter()
        switch command {
        case .tour:
            try await Tour(container: container).run()
        case .help:
            console.output(Invocation.usage)
        case .add(let text):
            let note = try await service(container).add(text)
            console.output("added \(note.shortID)")
        case .list(let limit):
            let notes = try await service(container).list(limit: limit)
            if notes.isEmpty { console.output("no notes yet; add one with notes add TEXT") }
            for note in notes { console.output(formatter.line(for: note)) }
        case .search(let words):
            let notes = try await service(container).search(words)
            if notes.isEmpty { console.output("no notes contain \(words)") }
            for note in notes { console.output(formatter.line(for: note)) }
        case .delete(let id):
            let note = try await service(container).delete(id)
            console.output("deleted \(formatter.line(for: note))")
        case .importFile(let path):
            // The file is read and checked first: a bad one must not create a database.
            let file = try ImportFile.read(path, using: container.fileReader())
            let summary = try await resolve { try await container.importer() }.importNotes(file)
            let skipped = summary.skipped == 0 ? "" : " (\(summary.skipped) lines skipped, see the warnings)"
            console.output("imported \(summary.imported) notes from \(path)\(skipped)")
        case .graph(let format):
            console.output(try await graph(of: container, format: format))
        }
    }

    /// The program's dependency graph: the resolutions a run makes, recorded against an in-memory
    /// database so the user's file is not touched.
    public static func graph(of container: Container, format: GraphFormat) async throws(NotesError) -> String {
        let graph = try await recordGraph(of: container)
        switch format {
        case .dot: return graph.dot()
        case .mermaid: return graph.mermaid()
        case .json:
            do {
                return try graph.json()
            } catch {
                throw .wiring("cannot encode the graph: \(error)")
            }
        }
    }

    /// Records the resolutions a run of every command makes, on an in-memory database.
    public static func recordGraph(of container: Container) async throws(NotesError) -> DependencyGraph {
        container.databaseLocation.register { .inMemory }
        do {
            return try await DependencyGraph.record {
                _ = try await container.notesService()
                _ = container.fileReader()
                _ = try await container.importer()
                _ = container.noteFormatter()
                await container.withScope(.request) { _ = container.lineImporter() }
            }
        } catch {
            throw error as? NotesError ?? .wiring("\(error)")
        }
    }

    private static func service(_ container: Container) async throws(NotesError) -> NotesService {
        try await resolve { try await container.notesService() }
    }

    /// Resolves an async factory whose errors are ``NotesError``s (opening the database).
    public static func resolve<T>(_ body: () async throws -> T) async throws(NotesError) -> T {
        do {
            return try await body()
        } catch {
            throw error as? NotesError ?? .wiring("\(error)")
        }
    }
}
