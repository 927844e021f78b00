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

protocol UploadAPI: Sendable {
    func upload(_ data: [UInt8]) -> Int
}

protocol UploadClock: Sendable {
    var now: Int { get }
}

struct LiveUploadAPI: UploadAPI {
    func upload(_ data: [UInt8]) -> Int { data.count }
}

struct FixedUploadClock: UploadClock {
    let now = 42
}

extension Container {
    var uploadAPI: Factory<any UploadAPI> { self { LiveUploadAPI() } }
    var uploadClock: Factory<any UploadClock> { self { FixedUploadClock() } }
}

final class Uploader: Sendable {
    let api = dependency(\.uploadAPI)
    let clock: any UploadClock

    init() {
        clock = Container.shared.uploadClock()
    }
}

@Suite(.container)
struct SendableClassArticleTests {
    @Test func aSendableClassResolvesIntoLetProperties() {
        let uploader = Uploader()
        #expect(uploader.api.upload([1, 2, 3]) == 3)
        #expect(uploader.clock.now == 42)
    }
}
