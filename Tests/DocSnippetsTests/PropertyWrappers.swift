// The snippets of PropertyWrappers.md.
import FactoryKit
import Testing

enum PropertyWrappersArticle {
    final class ContentModel {
        @Injected(\.api) private var api
        @LazyInjected(\.renderer) private var renderer
        @WeakLazyInjected(\.coordinator) private var coordinator
        @DynamicInjected(\.featureFlags) private var flags
        @Injected(\NetworkContainer.session) private var session
    }
}

extension PropertyWrappersArticle.ContentModel {
    var summary: String {
        "\(api.fetch() ?? "-") \(renderer.name) \(coordinator == nil) \(flags.isEnabled) \(session.configuration)"
    }
}

@Suite(.container)
struct PropertyWrappersArticleTests {
    @Test func everyWrapperResolvesItsFactory() {
        let model = PropertyWrappersArticle.ContentModel()
        #expect(model.summary.hasPrefix("live html false true"))
    }
}

final class Renderer {
    let name = "html"
}

final class Coordinator {}

struct FeatureFlags {
    var isEnabled = true
}

extension Container {
    var renderer: Factory<Renderer> { self { Renderer() } }
    var coordinator: Factory<Coordinator> { self { Coordinator() }.cached }
    var featureFlags: Factory<FeatureFlags> { self { FeatureFlags() } }
}
