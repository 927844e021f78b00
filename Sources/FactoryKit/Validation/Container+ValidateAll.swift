extension Container {
    /// Resolves every factory of a manifest, of any container type, each in a fresh container,
    /// and reports what is wrong with the wiring, without crashing.
    ///
    /// ```swift
    /// @Test func theWholeGraphIsSound() async throws {
    ///     let report = try await Container.shared.validateAll(FactoryManifest.all)
    ///     #expect(report.problems.isEmpty, "\(report)")
    /// }
    /// ```
    ///
    /// Each entry makes its own fresh container, so `autoRegister()` runs there first: a
    /// `promised()` factory that the app registers in `autoRegister()` counts as fulfilled, even
    /// when another module declares it. Each entry gets new, empty singletons as well, so
    /// validation neither sees nor leaves process-wide singletons.
    ///
    /// It reports what ``ManagedContainer/validate(_:in:fileID:line:column:)-([PartialKeyPath<Self>],_,_,_,_)``
    /// reports (cycles with their path, async factories that throw, promises never registered,
    /// singletons capturing shorter-lived values; parameter factories skipped), each cycle once
    /// however many of the manifest's factories lead into it, and
    /// returns the graph of every resolution it made, for ``DependencyGraph/dot()`` and the other
    /// exports.
    /// While an entry resolves, `Container.shared` is a fresh `Container` as well (the entry's own
    /// container when it is a `Container`), never this one: a factory that resolves through
    /// `Container.shared`, as `@Injected` does, leaves nothing in the caller's containers. As with
    /// `validate`, the entries are resolved first in a child process where one can be started, so
    /// that a synchronous cycle is reported instead of stopping this process, and a factory of a
    /// cycle never runs here; `fileID`, `line` and `column`, with the manifest's entries, name
    /// this call to the child. The child runs this executable again from its start, with the
    /// limits, the deadline and the cancellation that
    /// ``ManagedContainer/validate(_:in:fileID:line:column:)-([PartialKeyPath<Self>],_,_,_,_)``
    /// describes.
    ///
    /// `prepare` receives each fresh container before its factory is resolved, after its
    /// `autoRegister()`, to keep validation off real resources:
    ///
    /// ```swift
    /// let report = try await Container.shared.validateAll(FactoryManifest.all) { container in
    ///     (container as? Container)?.databasePath.register { ":memory:" }
    /// }
    /// ```
    public func validateAll(
        _ manifest: [FactoryManifestEntry], preparing prepare: (any ManagedContainer) -> Void = { _ in },
        fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) async throws -> ValidationReport {
        let run = ValidationRun()
        defer { run.stopRecording() }
        // The names, read in a step of the run: each fresh container runs `autoRegister()` there.
        var factories: [String] = []
        let list = "validateAll" + ValidationChild.stable(manifest.map { " " + $0.identity }.joined())
        try await run.resolving(at: "\(fileID):\(line):\(column)", validating: list) {
            factories = manifest.map { $0.target().factory.validationName }
            return (manifest.count, nil)
        } _: { index in
            let ((container, factory), isolation) = IsolationProbe.reading { manifest[index].target() }
            run.adopt(container, preparing: prepare)
            await run.validate(factory, in: container, isolation: isolation, preparing: prepare)
        }
        let (issues, graph) = run.finish(oncePerCycle: true)
        return ValidationReport(factories: factories, issues: issues, graph: graph)
    }
}
