/// The trace lines of one outermost asynchronous resolution and of everything it resolves, in any
/// of its tasks, synchronous factories included.
///
/// Lines are reserved parent first, completed as values arrive, and logged together when the
/// outermost resolution ends, so a traced async graph reads like a synchronous one.
@usableFromInline
final class AsyncTrace: Sendable {
    private let lines = Locked<[String]>([])

    init() {}

    /// Reserves the line of a resolution `depth` levels deep.
    func begin(depth: Int, _ description: String) -> Int {
        let line = Diagnostics.traceLine(depth: depth, description)
        return lines.withLock { lines in
            lines.append(line)
            return lines.count - 1
        }
    }

    /// Completes a reserved line with what its resolution produced: the value
    /// (`Diagnostics.traceSuffix`) or ` threw` and the error.
    func complete(_ index: Int, _ suffix: String) {
        lines.withLock { $0[index] += suffix }
    }

    /// Adds finished lines: a synchronous resolution made inside an async factory's closure.
    func append(_ finished: [String]) {
        lines.withLock { $0.append(contentsOf: finished) }
    }

    /// Sends the lines to the logger; called when the outermost resolution ends.
    func flush() {
        let finished = lines.withLock { lines in
            defer { lines.removeAll() }
            return lines
        }
        for line in finished { Diagnostics.log(line) }
    }
}
