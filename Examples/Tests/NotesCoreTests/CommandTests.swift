import FactoryKit
import FactoryTesting
import Foundation
import NotesCore
import Testing

/// Whole commands in this process, with fakes: exact output, one line per error, exit statuses.
@Suite(.container)
struct CommandTests {
    @Test func addThenListShowsExactLines() async throws {
        let fakes = Fakes()
        #expect(await fakes.run("add", "Buy", "milk") == 0)
        #expect(await fakes.run("add", "Call", "Ada") == 0)
        #expect(await fakes.run("list") == 0)
        #expect(
            fakes.console.output == [
                "added 00000001",
                "added 00000002",
                "00000001  2026-03-01 09:30  Buy milk",
                "00000002  2026-03-01 09:30  Call Ada",
            ])
        #expect(fakes.console.error.isEmpty)
    }

    @Test func timesAreShownInTheInjectedTimeZone() async throws {
        let fakes = Fakes()
        Container.shared.timeZone.register { TimeZone(secondsFromGMT: -5 * 3600)! }
        _ = await fakes.run("add", "late")
        _ = await fakes.run("list")
        #expect(fakes.console.output.last == "00000001  2026-03-01 04:30  late")
    }

    @Test func searchAndDelete() async throws {
        let fakes = Fakes()
        _ = await fakes.run("add", "coffee beans")
        _ = await fakes.run("add", "tea")
        #expect(await fakes.run("search", "coffee") == 0)
        #expect(await fakes.run("delete", "00000001") == 0)
        #expect(await fakes.run("search", "coffee") == 0)
        #expect(
            fakes.console.output.suffix(3) == [
                "00000001  2026-03-01 09:30  coffee beans",
                "deleted 00000001  2026-03-01 09:30  coffee beans",
                "no notes contain coffee",
            ])
    }

    @Test func anEmptyListSaysHowToStart() async throws {
        let fakes = Fakes()
        #expect(await fakes.run("list") == 0)
        #expect(fakes.console.output == ["no notes yet; add one with notes add TEXT"])
    }

    @Test(
        arguments: [
            (["frob"], "notes: unknown command frob; run notes help"),
            (["add"], "notes: notes add needs the note's text: notes add TEXT"),
            (["list", "--limit", "0"], "notes: --limit needs a positive number, not 0"),
            (["list", "extra"], "notes: notes list takes no argument extra"),
            (["graph", "--format", "png"], "notes: --format must be dot, mermaid or json, not png"),
            (["add", "x", "--format", "dot"], "notes: --format is an option of notes graph"),
            (["--database"], "notes: --database needs a value"),
            (["--colour", "list"], "notes: unknown option --colour; run notes help"),
            (["delete", "a", "b"], "notes: notes delete needs one id: notes delete ID"),
        ])
    func usageErrorsAreOneLineAndExit64(arguments: [String], message: String) async throws {
        let fakes = Fakes()
        #expect(await NotesApp.run(arguments, environment: [:]) == 64)
        #expect(fakes.console.error == [message])
        #expect(fakes.console.output.isEmpty)
    }

    @Test func anUnknownIDIsOneLineAndChangesNothing() async throws {
        let fakes = Fakes()
        _ = await fakes.run("add", "kept")
        #expect(await fakes.run("delete", "deadbeef") == 1)
        #expect(fakes.console.error == ["notes: no note has the id deadbeef; notes list shows the ids"])
        #expect(await fakes.store.count() == 1)
    }

    @Test func aStoreFailureIsReportedNotSwallowed() async throws {
        let fakes = Fakes()
        await fakes.store.failAdds(with: .storage(path: "x", reason: "disk full"))
        #expect(await fakes.run("add", "lost?") == 1)
        #expect(fakes.console.error == ["notes: database error in x: disk full"])
    }

    @Test func aWiringFailureIsReportedAsABug() async throws {
        struct Broken: Error, CustomStringConvertible {
            var description: String { "no store today" }
        }
        let fakes = Fakes()
        Container.shared.noteStore.register { throw Broken() }
        #expect(await fakes.run("list") == 1)
        #expect(fakes.console.error == ["notes: internal error, please report it: no store today"])
    }

    @Test func optionsMayFollowTheCommandAndDoubleDashEndsThem() throws {
        #expect(try Invocation.parse(["list", "--limit=3", "--verbose"]).command == .list(limit: 3))
        #expect(try Invocation.parse(["add", "--", "--not-an-option"]).command == .add("--not-an-option"))
        let invocation = try Invocation.parse(["--database", "/x/db", "--trace", "graph", "--format", "json"])
        #expect(invocation.databasePath == "/x/db")
        #expect(invocation.trace)
        #expect(invocation.command == .graph(.json))
        #expect(try Invocation.parse([]).command == .tour)
        #expect(try Invocation.parse(["search", "--help"]).command == .help)
    }

    @Test func theDatabaseComesFromTheOptionThenTheEnvironment() {
        #expect(DatabaseLocation.defaultPath(option: "/a", environment: ["NOTES_DATABASE": "/b"]) == "/a")
        #expect(DatabaseLocation.defaultPath(option: nil, environment: ["NOTES_DATABASE": "/b"]) == "/b")
        #expect(DatabaseLocation.defaultPath(option: nil, environment: [:]).hasSuffix("notes/notes.sqlite"))
    }

    @Test func readingCommandsDoNotCreateTheDatabase() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let console = RecordingConsole()
        Container.shared.console.register { console.console }
        let path = folder.path("never.sqlite")
        #expect(await NotesApp.run(["list"], environment: ["NOTES_DATABASE": path]) == 1)
        #expect(
            console.error == [
                "notes: no database at \(path); add a note first (notes add TEXT) or choose one with --database PATH"
            ])
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
