import Foundation

/// How important a log message is.
public enum LogLevel: Int, Sendable, Comparable, CustomStringConvertible {
    /// Step-by-step detail, shown with `--verbose`.
    case debug
    /// What the program did, shown with `--verbose`.
    case info
    /// Something went wrong but the command goes on; always shown.
    case warning

    /// Orders levels from least to most important.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The level's name, as log lines show it.
    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        }
    }
}

/// Where diagnostic messages go: a protocol seam (compare the struct witnesses ``NotesClock`` and
/// ``IDGenerator``), because loggers are objects with state and several implementations.
public protocol NotesLogger: Sendable {
    /// Records `message` at `level`. The message is only built when it will be written.
    func log(_ level: LogLevel, _ message: @autoclosure () -> String)
}

/// Writes messages at or above a level to standard error, as `notes: [level] message`.
public struct StandardErrorLogger: NotesLogger {
    /// The least important level written.
    public let minimumLevel: LogLevel
    private let console: Console

    /// Creates a logger that writes through `console`.
    public init(minimumLevel: LogLevel, console: Console) {
        self.minimumLevel = minimumLevel
        self.console = console
    }

    /// Writes the message when `level` is at least ``minimumLevel``.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level >= minimumLevel else { return }
        console.error("notes: [\(level)] \(message())")
    }
}

/// Prefixes every message with the request it belongs to, then hands it on.
///
/// The composition root gives each imported line one of these, in the `.request` scope, so every
/// message about a line carries the id of the note it became.
public struct RequestLogger: NotesLogger {
    /// The request this logger speaks for.
    public let request: ImportRequest
    private let base: any NotesLogger

    /// Creates a logger for `request` that writes to `base`.
    public init(request: ImportRequest, base: any NotesLogger) {
        self.request = request
        self.base = base
    }

    /// Hands the message, prefixed with the request's id, to the base logger.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        base.log(level, "[request \(request.shortID)] \(message())")
    }
}
