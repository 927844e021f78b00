// The snippets of Contexts.md. Whether an override applies depends on process-wide context flags
// that other tests change, so the tests check only what does not.
import FactoryKit
import Foundation
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

// "The definition wins".
struct FastClock: Clocking {
    var now: Date { Date() }
}

extension Container {
    var ticker: Factory<Clocking> {
        self { SystemClock() }
            .onDebug { FastClock() }
            .once()
    }
}

func replaceTheDebugOverride() {
    Container.shared.ticker.onDebug { FixedClock() }  // sticks, thanks to once()
}

@Test(.container) func aContextOverrideRegisteredAfterOnceSticks() {
    replaceTheDebugOverride()
    #if DEBUG
        if FactoryContext.current.isDebug {
            #expect(Container.shared.ticker() is FixedClock)
        }
    #endif
}
