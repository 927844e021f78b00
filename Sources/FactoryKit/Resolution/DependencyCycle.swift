/// Reports dependency cycles: the whole path, and how to break it.
enum DependencyCycle {
    static let advice =
        "Break the cycle by resolving one side later (@LazyInjected, or a closure that resolves on first use), "
        + "by passing the value in as a parameter (ParameterFactory), "
        + "or by registering it after both exist through a promised() factory."

    /// The message for a cycle whose path starts and ends with the same factory.
    static func message(path: [String], acrossThreads: Bool = false) -> String {
        let threads = acrossThreads ? " (across threads: each waits for an instance another is creating)" : ""
        return "Dependency cycle: \(path.joined(separator: " → "))\(threads). \(advice)"
    }

    /// Stops the process with the cycle's path; a synchronous factory has no way to return an error.
    /// Under `validate`, on its validation thread, reports the cycle and abandons the resolution
    /// instead (see ``ValidationThread``).
    static func report(path: [String], chain: ResolutionChain?, acrossThreads: Bool = false) -> Never {
        chain?.flushTrace()
        let text = message(path: path, acrossThreads: acrossThreads)
        if let validation = ValidationThread.abandonable {
            validation.reportAndAbandon(
                ValidationFinding(
                    issue: ValidationIssue(kind: .cycle, factory: path.first ?? "", message: text), cycle: path))
        }
        Diagnostics.stop(text)
    }

    static func reportTooDeep(recent: [String], limit: Int, chain: ResolutionChain) -> Never {
        chain.flushTrace()
        let text =
            "Dependency cycle suspected: resolution nested deeper than \(limit) levels; the innermost are "
            + "\(recent.joined(separator: " → ")). A factory with a parameter that is not Hashable may be "
            + "resolving itself. \(advice)"
        if let validation = ValidationThread.abandonable {
            validation.reportAndAbandon(
                ValidationFinding(issue: ValidationIssue(kind: .cycle, factory: recent.first ?? "", message: text)))
        }
        Diagnostics.stop(text)
    }
}
