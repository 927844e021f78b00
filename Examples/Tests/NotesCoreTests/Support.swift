import FactoryKit
import Foundation
import NotesCore

/// Notes in memory: the fake `NoteStore` for service and command tests.
actor InMemoryNoteStore: NoteStore {
    private(set) var stored: [Note] = []
    /// When set, `add` fails with it (to prove a command reports the store's errors).
    var failure: NotesError?

    init(_ notes: [Note] = []) { stored = notes }

    func failAdds(with error: NotesError) { failure = error }

    func add(_ notes: [Note]) throws(NotesError) {
        if let failure { throw failure }
        stored += notes
    }

    func notes(limit: Int?) -> [Note] { Array(stored.suffix(limit ?? stored.count)) }

    func search(_ words: [String]) -> [Note] {
        stored.filter { note in
            let noteWords = note.text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            return words.allSatisfy { word in noteWords.contains { $0.hasPrefix(word.lowercased()) } }
        }
    }

    func notes(withIDPrefix prefix: String) -> [Note] {
        stored.filter { $0.id.uuidString.lowercased().hasPrefix(prefix) }
    }

    func delete(id: UUID) -> Bool {
        let before = stored.count
        stored.removeAll { $0.id == id }
        return stored.count < before
    }

    func count() -> Int { stored.count }
}

/// Keeps every message, at every level.
final class RecordingLogger: NotesLogger {
    private let lines = Protected<[String]>([])

    func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        let line = "[\(level)] \(message())"
        lines.withLock { $0.append(line) }
    }

    var messages: [String] { lines.withLock { $0 } }
}

/// Keeps what a command writes, as a user would see it.
final class RecordingConsole: Sendable {
    private struct Lines {
        var output: [String] = []
        var error: [String] = []
        var status: [String] = []
    }
    private let lines = Protected(Lines())

    var console: Console {
        Console(
            output: { line in self.lines.withLock { $0.output.append(line) } },
            error: { line in self.lines.withLock { $0.error.append(line) } },
            status: { line in self.lines.withLock { $0.status.append(line) } }
        )
    }

    var output: [String] { lines.withLock { $0.output } }
    var error: [String] { lines.withLock { $0.error } }
    var status: [String] { lines.withLock { $0.status } }
}

/// 2026-03-01 09:30 UTC: the fixed clock's time.
let fixedDate = Date(timeIntervalSince1970: 1_772_357_400)

/// A folder of its own under the temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("notes-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ name: String, _ contents: String) -> String {
        write(name, Data(contents.utf8))
    }

    @discardableResult
    func write(_ name: String, _ data: Data) -> String {
        let path = path(name)
        precondition(FileManager.default.createFile(atPath: path, contents: data), "cannot write \(path)")
        return path
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Wires `Container.shared` (fresh under the `.container` trait) with fakes: a fixed clock in UTC,
/// sequential ids, an in-memory store and recording console and logger.
struct Fakes {
    let store: InMemoryNoteStore
    let console = RecordingConsole()
    let logger = RecordingLogger()

    @discardableResult
    init(store: InMemoryNoteStore = InMemoryNoteStore()) {
        let container = Container.shared
        let console = self.console
        let logger = self.logger
        container.clock.register { .fixed(fixedDate) }
        let ids = IDGenerator.sequential()
        container.ids.register { ids }
        container.timeZone.register { TimeZone(identifier: "UTC")! }
        container.console.register { console.console }
        container.logger.register { logger }
        container.noteStore.register { store }
        self.store = store
    }

    /// Runs `notes` with `arguments` in this process, on `Container.shared`.
    func run(_ arguments: String...) async -> Int32 {
        await NotesApp.run(arguments, environment: [:])
    }
}

/// The id `IDGenerator.sequential()` makes `n`-th.
func sequentialID(_ number: Int) -> UUID {
    let hex = String(number, radix: 16)
    return UUID(uuidString: String(repeating: "0", count: 8 - hex.count) + hex + "-0000-4000-8000-000000000000")!
}
