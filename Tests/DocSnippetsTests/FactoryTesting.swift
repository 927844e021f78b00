// The snippets of FactoryTesting.md.
import FactoryKit
import FactoryTesting
import Testing

@Suite(.container)
struct ContentModelTests {
    @Test func loads() {
        Container.shared.api { MockAPIClient() }
        #expect(Container.shared.model().load())
    }
}
