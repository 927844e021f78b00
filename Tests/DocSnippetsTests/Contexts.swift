// The snippets of Contexts.md. Whether an override applies depends on process-wide context flags
// that other tests change, so the tests check only what does not.
import FactoryKit
import Testing

func overrideInContexts() {
    Container.shared.analytics.onDebug { StubAnalytics() }
    Container.shared.api.onArg("-mock-api") { MockAPIClient() }
    Container.shared.store.onTest { InMemoryStore() }
    Container.shared.clock.context(.preview, .test) { FixedClock() }
}

// Never called: it changes the process-wide context.
func simulateAContext() {
    FactoryContext.setArg("light", forKey: "theme")  // activates .onArg("light")
    FactoryContext.current.isTest = false
}

@Suite(.container)
struct ContextsArticleTests {
    @Test func anOverrideForAnAbsentArgumentDoesNotApply() {
        overrideInContexts()
        #expect(Container.shared.api() is LiveAPIClient)
    }
}
