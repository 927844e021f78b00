/// Reports dependency cycles: the whole path, and how to break it.
enum DependencyCycle {
    static let advice =
        "Break the cycle by resolving one side later (@LazyInjected, or a closure that resolves on first use), "
        + "by passing the value in as a parameter (ParameterFactory), "
        + "or by registering it after both exist through a promised() factory."

    /// The message for a cycle whose path starts and ends with the same factory, with where each
    /// of its factories is defined: from `sites` (the frames'), or where a graph is recorded.
    static func message(path: [String], acrossThreads: Bool = false, sites known: [String: String] = [:]) -> String {
        let threads = acrossThreads ? " (across threads: each waits for an instance another is creating)" : ""
        let sites = path.dropLast(path.count > 1 ? 1 : 0).compactMap { id in
            (known[id] ?? Diagnostics.site(of: id)).map { "\(id) at \($0)" }
        }
        let defined = sites.isEmpty ? "" : " Defined: " + sites.joined(separator: "; ") + "."
        return "Dependency cycle: \(path.joined(separator: " → "))\(threads). \(advice)\(defined)"
    }

    /// Stops the process with the cycle's path; a synchronous factory has no way to return an error.
    /// In a child process of `validate`, reports the cycle to the parent and ends the child
    /// instead (see ``ValidationChild``). `sites` gives the definitions of the path's factories,
    /// `path:line` by description; the stop's message begins with the first one's, since the fatal
    /// error's own location must be a literal, FactoryKit's.
    static func report(
        path: [String], chain: ResolutionChain?, acrossThreads: Bool = false, sites: [String: String] = [:]
    ) -> Never {
        chain?.flushTrace()
        let text = message(path: path, acrossThreads: acrossThreads, sites: sites)
        ValidationChild.exitAtCycle(
            ValidationFinding(
                issue: ValidationIssue(kind: .cycle, factory: path.first ?? "", message: text), cycle: path))
        Diagnostics.stop(path.first.flatMap { sites[$0] }.map { "\($0): \(text)" } ?? text)
    }

    static func reportTooDeep(recent: [String], limit: Int, chain: ResolutionChain) -> Never {
        chain.flushTrace()
        let text =
            "Dependency cycle suspected: resolution nested deeper than \(limit) levels; the innermost are "
            + "\(recent.joined(separator: " → ")). A factory with a parameter that is not Hashable may be "
            + "resolving itself. \(advice)"
        ValidationChild.exitAtCycle(
            ValidationFinding(issue: ValidationIssue(kind: .cycle, factory: recent.first ?? "", message: text)))
        Diagnostics.stop(text)
    }
}
