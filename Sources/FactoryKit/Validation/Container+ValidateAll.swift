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
    /// It reports what ``ManagedContainer/validate(_:in:)-([PartialKeyPath<Self>],()->Self)``
    /// reports (cycles with their path, async factories that throw, promises never registered,
    /// singletons capturing shorter-lived values; parameter factories skipped), each cycle once
    /// however many of the manifest's factories lead into it, and
    /// returns the graph of every resolution it made, for ``DependencyGraph/dot()`` and the other
    /// exports.
    /// While an entry resolves, `Container.shared` is a fresh `Container` as well (the entry's own
    /// container when it is a `Container`), never this one: a factory that resolves through
    /// `Container.shared`, as `@Injected` does, leaves nothing in the caller's containers.
    /// Synchronous factories run on a thread of their own that has ended before the next entry;
    /// a synchronous cycle is reported and its resolution abandoned, and a copy of its frames,
    /// with the fresh containers and singletons they had retained, is kept for the rest of the
    /// process (about 18 KB per cycle in a debug build).
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
        _ manifest: [FactoryManifestEntry], preparing prepare: (any ManagedContainer) -> Void = { _ in }
    ) async throws -> ValidationReport {
        let run = ValidationRun()
        defer { run.stopRecording() }
        var factories: [String] = []
        try await run.resolving {
            for entry in manifest {
                try Task.checkCancellation()
                let (container, factory) = entry.target()
                run.adopt(container, preparing: prepare)
                factories.append(factory.validationName)
                await run.validate(factory, in: container, preparing: prepare)
            }
        }
        let (issues, graph) = run.finish(oncePerCycle: true)
        return ValidationReport(factories: factories, issues: issues, graph: graph)
    }
}
