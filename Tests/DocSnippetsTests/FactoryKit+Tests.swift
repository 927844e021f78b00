import FactoryKit
import FactoryTesting
import Testing

@Suite(.container)
struct FactoryKitArticleTests {
    @Test func registeringReplacesWhatTheFactoryBuilds() {
        let (resolved, replaced) = resolveThenReplace()
        #expect(resolved.api is LiveAPIClient)
        #expect(replaced.api is MockAPIClient)
    }
}
