import FactoryKit
import FactoryTesting
import Foundation
import NotesCore
import Testing

/// The service's rules, on in-memory fakes wired through the container.
@Suite(.container)
struct NotesServiceTests {
    @Test func addStoresNormalizedTextWithTheSeamsIdAndDate() async throws {
        let fakes = Fakes()
        let note = try await Container.shared.notesService().add("  Buy\n milk \t today ")
        #expect(note == Note(id: sequentialID(1), text: "Buy milk today", created: fixedDate))
        #expect(await fakes.store.stored == [note])
        #expect(fakes.logger.messages == ["[info] added 00000001"])
    }

    @Test func addRejectsBlankText() async throws {
        let fakes = Fakes()
        await #expect(throws: NotesError.emptyNote) { try await Container.shared.notesService().add(" \n\t ") }
        #expect(await fakes.store.stored.isEmpty)
    }

    @Test func searchNeedsWords() async throws {
        Fakes()
        await #expect(throws: NotesError.emptySearch) { try await Container.shared.notesService().search("   ") }
    }

    @Test func searchPassesEachWordToTheStore() async throws {
        Fakes()
        let service = try await Container.shared.notesService()
        try await service.add("Coffee beans")
        try await service.add("Green tea")
        let found = try await service.search("cof  bean")
        #expect(found.map(\.text) == ["Coffee beans"])
    }

    @Test func deleteTakesAUniquePrefix() async throws {
        let fakes = Fakes()
        let service = try await Container.shared.notesService()
        try await service.add("one")
        let second = try await service.add("two")
        #expect(try await service.delete("00000002") == second)
        #expect(await fakes.store.stored.map(\.text) == ["one"])
    }

    @Test func deleteRefusesAnAmbiguousPrefix() async throws {
        let fakes = Fakes()
        let service = try await Container.shared.notesService()
        try await service.add("one")
        try await service.add("two")
        await #expect(throws: NotesError.ambiguousID("0000", matches: 2)) { try await service.delete("0000") }
        #expect(await fakes.store.count() == 2)
    }

    @Test(arguments: ["0000000f", "abc", "zzzz-zzzz", ""])
    func deleteReportsUnknownIDs(id: String) async throws {
        let fakes = Fakes()
        let service = try await Container.shared.notesService()
        try await service.add("kept")
        await #expect(throws: NotesError.unknownID(id)) { try await service.delete(id) }
        #expect(await fakes.store.count() == 1)
    }

    @Test func listReturnsTheNewestWhenLimited() async throws {
        Fakes()
        let service = try await Container.shared.notesService()
        for text in ["a", "b", "c"] { try await service.add(text) }
        #expect(try await service.list().map(\.text) == ["a", "b", "c"])
        #expect(try await service.list(limit: 2).map(\.text) == ["b", "c"])
    }
}
