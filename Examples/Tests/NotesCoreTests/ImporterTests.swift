import FactoryKit
import FactoryTesting
import Foundation
import NotesCore
import Testing

/// `notes import`: files checked before anything is stored, lines handled concurrently, each in a
/// request scope of its own, notes stored all or none.
@Suite(.container)
struct ImporterTests {
    private func file(_ text: String, path: String = "notes.txt") throws -> ImportFile {
        try ImportFile.read(path, using: FileReader { _ in Data(text.utf8) })
    }

    @Test func eachLineBecomesANoteWhoseIDIsItsRequest() async throws {
        let fakes = Fakes()
        let summary = try await Container.shared.importer().importNotes(try file("first\n\n  second  \r\nthird"))
        #expect(summary == ImportSummary(imported: 3, skipped: 0))
        let stored = await fakes.store.stored
        #expect(stored.map(\.text) == ["first", "second", "third"])
        #expect(Set(stored.map(\.id)) == [sequentialID(1), sequentialID(2), sequentialID(3)])
        // The line importer and the request logger resolved in one line's scope share its request:
        // each note's id appears in the log line about that note's line.
        for (note, number) in zip(stored, [1, 3, 4]) {
            #expect(fakes.logger.messages.contains("[debug] [request \(note.shortID)] line \(number) imported"))
        }
    }

    @Test func requestScopedFactoriesShareOneInstancePerLineOnly() async throws {
        Fakes()
        let container = Container.shared
        let (first, again) = await container.withScope(.request) {
            (container.importRequest(), container.importRequest())
        }
        let other = await container.withScope(.request) { container.importRequest() }
        #expect(first == again)
        #expect(first != other)
    }

    @Test func linesAreHandledConcurrentlyButBounded() async throws {
        let inFlight = Protected((now: 0, most: 0))
        let importer = Importer(store: InMemoryNoteStore(), console: RecordingConsole().console) { line in
            inFlight.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            try? await Task.sleep(for: .milliseconds(5))
            inFlight.withLock { $0.now -= 1 }
            return Note(id: UUID(), text: line.text, created: fixedDate)
        }
        let text = (1...200).map { "line \($0)" }.joined(separator: "\n")
        let summary = try await importer.importNotes(try file(text))
        #expect(summary.imported == 200)
        let most = inFlight.withLock { $0.most }
        #expect(most > 1)
        #expect(most <= Importer.maximumConcurrency)
    }

    @Test func keepsTheFileOrderAndReportsProgress() async throws {
        let fakes = Fakes()
        let text = (1...500).map { "note \($0)" }.joined(separator: "\n")
        _ = try await Container.shared.importer().importNotes(try file(text))
        #expect(await fakes.store.stored.map(\.text) == (1...500).map { "note \($0)" })
        #expect(fakes.console.status.count == 101)
        #expect(
            fakes.console.status.suffix(2) == [
                "importing: 500/500 lines (100%)", "storing 500 notes in one transaction",
            ])
    }

    @Test func tooLongLinesAreSkippedWithAWarning() async throws {
        let fakes = Fakes()
        let long = String(repeating: "x", count: LineImporter.maximumLength + 1)
        let summary = try await Container.shared.importer().importNotes(try file("short\n\(long)"))
        #expect(summary == ImportSummary(imported: 1, skipped: 1))
        #expect(
            fakes.logger.messages.contains {
                $0.hasPrefix("[warning] [request ") && $0.hasSuffix("line 2 skipped: longer than 10000 characters")
            })
    }

    @Test(
        arguments: [
            (Data(), NotesError.emptyImport(path: "in.txt")),
            (Data(" \n\n\t\n".utf8), NotesError.emptyImport(path: "in.txt")),
            (Data([0x61, 0x00, 0x62]), NotesError.binaryImport(path: "in.txt")),
            (Data([0xFF, 0xFE, 0x41]), NotesError.binaryImport(path: "in.txt")),
        ])
    func badFilesAreRefusedBeforeAnythingIsStored(contents: Data, error: NotesError) async throws {
        #expect(throws: error) { try ImportFile.read("in.txt", using: FileReader { _ in contents }) }
    }

    @Test func unreadableFilesSayWhy() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(throws: NotesError.cannotReadImport(path: folder.path("nope"), reason: "no such file")) {
            try ImportFile.read(folder.path("nope"), using: .live)
        }
        #expect(throws: NotesError.cannotReadImport(path: folder.url.path, reason: "it is a folder")) {
            try ImportFile.read(folder.url.path, using: .live)
        }
    }

    @Test func aFailingStoreStoresNothing() async throws {
        let fakes = Fakes(store: InMemoryNoteStore([Note(id: UUID(), text: "kept", created: fixedDate)]))
        await fakes.store.failAdds(with: .storage(path: "x", reason: "disk full"))
        await #expect(throws: NotesError.storage(path: "x", reason: "disk full")) {
            try await Container.shared.importer().importNotes(try file("a\nb"))
        }
        #expect(await fakes.store.stored.map(\.text) == ["kept"])
    }
}
