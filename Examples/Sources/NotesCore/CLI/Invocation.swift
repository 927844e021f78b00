/// The formats `notes graph` writes.
public enum GraphFormat: String, Sendable, CaseIterable {
    /// Graphviz's DOT language.
    case dot
    /// A Mermaid flowchart.
    case mermaid
    /// JSON, for programs.
    case json
}

/// What the user asked `notes` to do.
public enum Command: Sendable, Equatable {
    /// No command: the tour.
    case tour
    /// `notes help`.
    case help
    /// `notes add TEXT`.
    case add(String)
    /// `notes list [--limit N]`.
    case list(limit: Int?)
    /// `notes search WORDS`.
    case search(String)
    /// `notes delete ID`.
    case delete(String)
    /// `notes import FILE`.
    case importFile(String)
    /// `notes graph [--format dot|mermaid|json]`.
    case graph(GraphFormat)
}

/// A parsed command line: the command and the options that apply to every command.
public struct Invocation: Sendable, Equatable {
    /// The command.
    public var command: Command
    /// `--database PATH`.
    public var databasePath: String?
    /// `--trace`: print FactoryKit's resolution trace on standard error.
    public var trace = false
    /// `--verbose`: log what the program does on standard error.
    public var verbose = false

    /// The usage text `notes help` prints.
    public static let usage = """
        usage: notes [--database PATH] [--trace] [--verbose] COMMAND
          (no command)            a short tour on a demo database
          add TEXT                store a note
          list [--limit N]        show notes, oldest first (the newest N with --limit)
          search WORDS            show notes containing every word (full-text search)
          delete ID               delete the note whose id starts with ID
          import FILE             store each line of FILE as a note, all or none
          graph [--format F]      print the program's dependency graph (dot, mermaid or json)
          help                    show this text
        The database is --database PATH, else $NOTES_DATABASE, else notes.sqlite in your
        application-support folder.
        """

    /// Parses the arguments after the program's name.
    ///
    /// Options may come before or after the command; `--` ends them, so `notes add -- --x` adds "--x".
    public static func parse(_ arguments: [String]) throws(NotesError) -> Invocation {
        var words: [String] = []
        var options: [String: String] = [:]
        var flags: Set<String> = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                words.append(contentsOf: remaining)
                break
            }
            guard argument.hasPrefix("-"), argument.count > 1 else {
                words.append(argument)
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            switch parts[0] {
            case "--trace", "--verbose", "--help", "-h":
                guard parts.count == 1 else { throw .usage("\(parts[0]) takes no value") }
                flags.insert(parts[0])
            case "--database", "--limit", "--format":
                guard let value = parts.count == 2 ? parts[1] : remaining.popFirst() else {
                    throw .usage("\(parts[0]) needs a value")
                }
                options[parts[0]] = value
            default:
                throw .usage("unknown option \(parts[0]); run notes help")
            }
        }
        var invocation = Invocation(
            command: try command(words, options: options, help: flags.contains("--help") || flags.contains("-h")),
            databasePath: options["--database"]
        )
        invocation.trace = flags.contains("--trace")
        invocation.verbose = flags.contains("--verbose")
        return invocation
    }

    private static func command(_ words: [String], options: [String: String], help: Bool) throws(NotesError) -> Command
    {
        if help { return .help }
        let name = words.first
        let rest = words.dropFirst()
        if options["--limit"] != nil, name != "list" { throw .usage("--limit is an option of notes list") }
        if options["--format"] != nil, name != "graph" { throw .usage("--format is an option of notes graph") }
        switch name {
        case nil:
            return .tour
        case "help":
            return .help
        case "add":
            guard !rest.isEmpty else { throw .usage("notes add needs the note's text: notes add TEXT") }
            return .add(rest.joined(separator: " "))
        case "list":
            try none(rest, after: "list")
            guard let text = options["--limit"] else { return .list(limit: nil) }
            guard let limit = Int(text), limit > 0 else { throw .usage("--limit needs a positive number, not \(text)") }
            return .list(limit: limit)
        case "search":
            guard !rest.isEmpty else { throw .usage("notes search needs words: notes search WORDS") }
            return .search(rest.joined(separator: " "))
        case "delete":
            guard rest.count == 1, let id = rest.first else {
                throw .usage("notes delete needs one id: notes delete ID")
            }
            return .delete(id)
        case "import":
            guard rest.count == 1, let file = rest.first else {
                throw .usage("notes import needs one file: notes import FILE")
            }
            return .importFile(file)
        case "graph":
            try none(rest, after: "graph")
            let text = options["--format"] ?? "dot"
            guard let format = GraphFormat(rawValue: text) else {
                throw .usage("--format must be dot, mermaid or json, not \(text)")
            }
            return .graph(format)
        case let other?:
            throw .usage("unknown command \(other); run notes help")
        }
    }

    private static func none(_ rest: ArraySlice<String>, after command: String) throws(NotesError) {
        guard let extra = rest.first else { return }
        throw .usage("notes \(command) takes no argument \(extra)")
    }
}
