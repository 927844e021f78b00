import CSQLite
import Foundation
import NotesCore
import Testing

/// The built `notes` program, run as separate processes: what a user's shell sees.
@Suite
struct ProcessTests {
    struct Result {
        let status: Int32
        let output: String
        let error: String

        var errorLines: [String] { error.split(separator: "\n").map(String.init) }
        var outputLines: [String] { output.split(separator: "\n").map(String.init) }
    }

    /// `notes`, next to this test program in the build folder.
    static let executable: URL = {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("notes")
            }
        #endif
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("notes")
    }()

    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    /// Starts `notes` with `arguments`; its output goes to files in the test's folder.
    private func start(_ arguments: [String], database: String? = nil) throws -> (Process, URL, URL) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NOTES_DATABASE"] = database ?? folder.path("notes.sqlite")
        environment["TMPDIR"] = folder.url.path
        process.environment = environment
        let name = UUID().uuidString
        let output = folder.url.appendingPathComponent("\(name).out")
        let error = folder.url.appendingPathComponent("\(name).err")
        for file in [output, error] {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
            }
        }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: error)
        try process.run()
        return (process, output, error)
    }

    private func finish(_ started: (Process, URL, URL)) throws -> Result {
        started.0.waitUntilExit()
        return Result(
            status: started.0.terminationStatus,
            output: try String(contentsOf: started.1, encoding: .utf8),
            error: try String(contentsOf: started.2, encoding: .utf8)
        )
    }

    private func notes(_ arguments: String..., database: String? = nil) throws -> Result {
        try notes(arguments, database: database)
    }

    private func notes(_ arguments: [String], database: String?) throws -> Result {
        try finish(try start(arguments, database: database))
    }

    @Test func theTourRunsOnItsOwnDatabase() throws {
        defer { folder.remove() }
        let result = try notes()
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("$ notes search coffee"))
        #expect(result.output.contains("imported 200 notes"))
        #expect(result.error.isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.path("notes-tour.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("notes.sqlite")))  // the user's is untouched
    }

    /// Several processes add at the same moment to a new file while another connection holds its
    /// write lock, as the first `notes` on a new file does while it sets the file up: each waits
    /// for the lock, and nothing is lost.
    ///
    /// Holding the lock makes the race certain instead of lucky: the processes reach their first
    /// statements while the file is still new and locked, so a statement that fails rather than
    /// wait for the lock ("database is locked") fails on every run, not only on a loaded machine.
    /// Switching a new file to WAL mode was such a statement. The lock is held for a second at
    /// most, a tenth of the busy timeout.
    @Test func concurrentAddsFromManyProcessesLoseNothing() throws {
        defer { folder.remove() }
        let count = 12
        var lock: OpaquePointer?
        defer { sqlite3_close(lock) }
        // Creates the file, empty and in rollback mode, like a first run of `notes`.
        try #require(sqlite3_open(folder.path("notes.sqlite"), &lock) == SQLITE_OK)
        // The commit below waits, like the processes, for the readers of the moment: a process
        // holds a shared lock for as long as it reads the schema, and without a busy timeout a
        // commit that meets one fails at once ("database is locked"), which a loaded machine made
        // happen once.
        sqlite3_busy_timeout(lock, 10_000)
        try #require(sqlite3_exec(lock, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
        let started = try (1...count).map { try start(["add", "note from process \($0)"]) }
        // Long enough for every process to reach the lock; sooner if they have all given up.
        let release = Date.now.addingTimeInterval(1)
        while Date.now < release, started.contains(where: { $0.0.isRunning }) {
            Thread.sleep(forTimeInterval: 0.01)
        }
        try #require(sqlite3_exec(lock, "COMMIT", nil, nil, nil) == SQLITE_OK)
        let results = try started.map(finish)
        for result in results { #expect(result.status == 0, "\(result.error)") }
        let listed = try notes("list")
        #expect(
            Set(listed.outputLines.map { String($0.split(separator: " ", maxSplits: 4).last ?? "") }).count == count)
        #expect(listed.outputLines.count == count)
    }

    @Test func concurrentImportsFromManyProcessesLoseNothing() throws {
        defer { folder.remove() }
        _ = try notes("add", "first")
        let files = (1...4).map { batch in
            folder.write("batch\(batch).txt", (1...300).map { "batch \(batch) line \($0)" }.joined(separator: "\n"))
        }
        let results = try files.map { try start(["import", $0]) }.map(finish)
        for result in results { #expect(result.status == 0, "\(result.error)") }
        #expect(try notes("list").outputLines.count == 1 + 4 * 300)
        #expect(try notes("search", "batch", "line", "299").outputLines.count == 4)
    }

    @Test func badInputIsOneLineOnStandardErrorAndLosesNothing() throws {
        defer { folder.remove() }
        #expect(try notes("add", "precious").status == 0)
        let plainFile = folder.write("plain", "x")
        let corrupt = folder.write("corrupt.sqlite", Data(repeating: 0x5A, count: 8192))
        let cases: [(arguments: [String], database: String?, message: String)] = [
            (["delete", "deadbeef"], nil, "no note has the id deadbeef"),
            (["import", folder.write("empty.txt", "")], nil, "holds no notes (it is empty)"),
            (
                ["import", folder.write("binary.bin", Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x01]))], nil,
                "is not a text file"
            ),
            (["import", folder.path("missing.txt")], nil, "no such file"),
            (["list"], folder.path("missing.sqlite"), "no database at"),
            (["list"], corrupt, "is not a notes database"),
            (["add", "x"], corrupt, "is not a notes database"),
            (["add", "x"], plainFile + "/notes.sqlite", "is a file, not a folder"),
            (["frobnicate"], nil, "unknown command frobnicate"),
        ]
        for (arguments, database, message) in cases {
            let result = try notes(arguments, database: database)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.errorLines.count == 1, "\(arguments): \(result.error)")
            #expect(result.errorLines.first?.hasPrefix("notes: ") == true)
            #expect(result.error.contains(message), "\(arguments): \(result.error)")
            #expect(result.output.isEmpty, "\(arguments)")
        }
        let listed = try notes("list")
        #expect(listed.outputLines.count == 1)
        #expect(listed.output.hasSuffix("precious\n"))
        #expect(FileManager.default.contents(atPath: corrupt) == Data(repeating: 0x5A, count: 8192))
    }

    @Test func graphIsWrittenInEachFormat() throws {
        defer { folder.remove() }
        let dot = try notes("graph")
        #expect(dot.status == 0)
        #expect(dot.output.hasPrefix("digraph dependencies {"))
        #expect(dot.output.contains("\"Container.importer<Importer>\" -> \"Container.noteStore<NoteStore>\""))
        let mermaid = try notes("graph", "--format", "mermaid")
        #expect(mermaid.output.hasPrefix("graph LR"))
        let json = try notes("graph", "--format=json")
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        let nodes = object?["nodes"] as? [[String: Any]] ?? []
        #expect(nodes.contains { $0["factory"] as? String == "database" && $0["scope"] as? String == "cached" })
        #expect(!FileManager.default.fileExists(atPath: folder.path("notes.sqlite")))
    }

    @Test func traceShowsEveryResolutionOnStandardError() throws {
        defer { folder.remove() }
        _ = try notes("add", "traced")
        let result = try notes("--trace", "list")
        #expect(result.status == 0)
        #expect(result.outputLines.count == 1)
        #expect(result.error.contains("notesService"))
        #expect(result.error.contains("database"))
    }
}
