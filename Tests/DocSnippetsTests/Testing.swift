// The Swift Testing snippets of Testing.md; `Testing+XCTest.swift` holds the XCTest ones.
import Dispatch
import FactoryKit
import FactoryTesting
import Testing

@Suite(.container)
struct ModelTests {
    @Test func loads() {
        Container.shared.api { MockAPIClient() }
        #expect(Container.shared.model().load())
    }

    @Test(.container { $0.api { FailingAPIClient() } })
    func reportsErrors() {
        #expect(Container.shared.model().errorMessage != nil)
    }
}

extension Trait where Self == ContainerTrait<NetworkContainer> {
    static var network: ContainerTrait<NetworkContainer> {
        .init(shared: NetworkContainer.$shared, container: .init())
    }
}

@Suite(.container, .network)
struct SessionTests {
    @Test func usesTheMockSession() {
        NetworkContainer.shared.session { MockSession() }
        #expect(NetworkContainer.shared.session() is MockSession)
    }
}

// Not run: the work would outlive the test.
func startBackgroundWork() {
    let container = Container.shared
    DispatchQueue.global().async {
        Container.$shared.withValue(container) { work() }
    }
}

func work() {
    _ = Container.shared.model()
}

@Suite(.container.singletons(.empty))
struct CacheTests {
    @Test func startsEmpty() {
        #expect(Container.shared.imageCache().images.isEmpty)
    }
}

final class ImageCache {
    var images: [String: [UInt8]] = [:]
}

extension Container {
    var imageCache: Factory<ImageCache> { self { ImageCache() }.singleton }
}
