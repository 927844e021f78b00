// The snippets of Concurrency.md.
import FactoryKit
import Testing

extension Container {
    @MainActor
    var contentModel: Factory<ContentModel> { self { ContentModel() } }
}

@Suite(.container)
struct ConcurrencyArticleTests {
    @Test @MainActor func aMainActorFactoryResolvesOnItsActor() {
        #expect(Container.shared.contentModel().load())
    }
}
