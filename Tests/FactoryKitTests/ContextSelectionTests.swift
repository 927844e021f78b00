import FactoryKit
import FactoryTesting
import Testing

extension Container {
    var contextAll: Factory<String> {
        self { "original" }
            .onArg("context-selection-arg") { "arg" }
            .onPreview { "preview" }
            .onTest { "test" }
            .onSimulator { "simulator" }
            .onDevice { "device" }
            .onDebug { "debug" }
    }
    var contextDebugOnly: Factory<String> { self { "original" }.onDebug { "debug" } }
    var contextArguments: Factory<String> {
        self { "original" }.onArg("context-b") { "b" }.onArg("context-a") { "a" }
    }
    var contextPlain: Factory<String> { self { "original" } }
}

/// These tests change `FactoryContext.current`, which is process-wide, so they run one at a time
/// and every test that depends on the test, preview or simulator flags lives here.
@Suite(.serialized, .container)
struct ContextSelectionTests {
    /// Runs `body` with the context's flags or launch arguments changed, restoring them
    /// afterwards. Run-time arguments are left alone: other suites set their own in parallel.
    private func with(
        arguments: [String]? = nil, preview: Bool? = nil, test: Bool? = nil, simulator: Bool? = nil,
        _ body: () -> Void
    ) {
        let saved = FactoryContext.current
        var changed = saved
        if let arguments { changed.arguments = arguments }
        if let preview { changed.isPreview = preview }
        if let test { changed.isTest = test }
        if let simulator { changed.isSimulator = simulator }
        apply(from: changed)
        body()
        apply(from: saved)
    }

    private func apply(from source: FactoryContext) {
        FactoryContext.current.arguments = source.arguments
        FactoryContext.current.isPreview = source.isPreview
        FactoryContext.current.isTest = source.isTest
        FactoryContext.current.isSimulator = source.isSimulator
    }

    #if DEBUG
        @Test func contextsApplyInTheDocumentedOrder() {
            Container.shared.contextAll.register { "registered" }
            FactoryContext.setArg("context-selection-arg", forKey: "context-selection")
            #expect(resolvingShadowedRegistration { Container.shared.contextAll() } == "arg")
            FactoryContext.removeArg(forKey: "context-selection")
            with(preview: true) {
                #expect(Container.shared.contextAll() == "preview")
            }
            #expect(Container.shared.contextAll() == "test")
            with(test: false, simulator: true) {
                #expect(Container.shared.contextAll() == "simulator")
            }
            with(test: false) {
                #expect(Container.shared.contextAll() == "device")
            }
            with(test: false) {
                #expect(Container.shared.contextDebugOnly() == "debug")
                Container.shared.contextDebugOnly.register { "registered" }
                #expect(resolvingShadowedRegistration { Container.shared.contextDebugOnly() } == "debug")
            }
        }

        @Test func testContextIsActiveInDebugTestRuns() {
            #expect(FactoryContext.current.isTest)
            Container.shared.contextPlain.onTest { "test" }
            #expect(Container.shared.contextPlain() == "test")
        }
    #else
        @Test func previewTestAndDebugOverridesVanishInReleaseBuilds() {
            with(preview: true) {
                Container.shared.contextPlain.onPreview { "preview" }.onTest { "test" }.onDebug { "debug" }
                #expect(Container.shared.contextPlain() == "original")
            }
        }
    #endif

    @Test func simulatorAndDeviceOverrides() {
        Container.shared.contextPlain.onSimulator { "simulator" }.onDevice { "device" }
        with(simulator: false) {
            #expect(Container.shared.contextPlain() == "device")
        }
        with(simulator: true) {
            #expect(Container.shared.contextPlain() == "simulator")
        }
    }

    @Test func launchArgumentsWinInCommandLineOrder() {
        with(arguments: ["tool", "context-b", "context-a"]) {
            #expect(Container.shared.contextArguments() == "b")
        }
        with(arguments: ["tool", "context-a", "context-b"]) {
            #expect(Container.shared.contextArguments() == "a")
        }
    }

    @Test func runtimeArgumentsApplyInKeyOrder() {
        FactoryContext.setArg("context-a", forKey: "2-second")
        FactoryContext.setArg("context-b", forKey: "1-first")
        defer {
            FactoryContext.removeArg(forKey: "1-first")
            FactoryContext.removeArg(forKey: "2-second")
        }
        #expect(Container.shared.contextArguments() == "b")
        FactoryContext.removeArg(forKey: "1-first")
        #expect(Container.shared.contextArguments() == "a")
    }

    @Test func contextOverridesOfAParameterFactory() {
        let factory = ParameterFactory<Int, String>(Container.shared, key: "contextParameter") { "original \($0)" }
            .context(.arg("context-parameter"), .device) { "override \($0)" }
        with(simulator: false) {
            #expect(factory(4) == "override 4")
        }
        with(simulator: true) {
            #expect(factory(5) == "original 5")
        }
    }

    // Tests that read the flags the tests above change live here, so they never run meanwhile.

    @Test func factoryContextDescribesTheProcess() {
        let context = FactoryContext.current
        #expect(!context.arguments.isEmpty)
        #expect(!context.isPreview)
        #if DEBUG
            #expect(context.isDebug)
        #else
            #expect(!context.isDebug)
        #endif
    }

    @Test func promiseErrorsDefaultToDebugBuilds() {
        #if DEBUG
            #expect(Container().manager.promiseTriggersError)
        #else
            #expect(!Container().manager.promiseTriggersError)
        #endif
    }
}
