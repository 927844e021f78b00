import Foundation

/// Where the program's output goes: a struct witness, so tests read exactly what a user would see.
public struct Console: Sendable {
    /// Writes one line of normal output (standard output).
    public var output: @Sendable (String) -> Void
    /// Writes one line of diagnostics (standard error).
    public var error: @Sendable (String) -> Void
    /// Rewrites the current status line (progress); does nothing when standard error is not a terminal.
    public var status: @Sendable (String) -> Void
    /// Ends the status line, if one was written.
    public var endStatus: @Sendable () -> Void

    /// Creates a console from its four closures.
    public init(
        output: @escaping @Sendable (String) -> Void,
        error: @escaping @Sendable (String) -> Void,
        status: @escaping @Sendable (String) -> Void = { _ in },
        endStatus: @escaping @Sendable () -> Void = {}
    ) {
        self.output = output
        self.error = error
        self.status = status
        self.endStatus = endStatus
    }

    /// The process's standard output and standard error; progress only when standard error is a
    /// terminal.
    public static let standard: Console = {
        let interactive = isatty(STDERR_FILENO) == 1
        return Console(
            output: { line in FileHandle.standardOutput.write(Data((line + "\n").utf8)) },
            error: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) },
            status: { line in
                guard interactive else { return }
                FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8))
            },
            endStatus: {
                guard interactive else { return }
                FileHandle.standardError.write(Data("\n".utf8))
            }
        )
    }()
}
