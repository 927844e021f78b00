// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// The snippets of DefiningContainers.md; the public declarations are a module's API, as in the article.
import FactoryKit
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Container {
    var analytics: Factory<Analytics> { self { LiveAnalytics() } }
}

func resolveFromTheSharedContainer() -> Analytics {
    let analytics = Container.shared.analytics()
    return analytics
}

public final class NetworkContainer: SharedContainer {
    @TaskLocal public static var shared = NetworkContainer()
    public let manager = ContainerManager()
}

extension NetworkContainer {
    var session: Factory<URLSessionProtocol> { self { URLSession.shared } }
}

extension NetworkContainer: AutoRegistering {
    public func autoRegister() {
        manager.defaultScope = .cached
    }
}

@Suite(.container)
struct DefiningContainersArticleTests {
    @Test func theDefaultContainerResolvesItsFactories() {
        #expect(resolveFromTheSharedContainer() is LiveAnalytics)
    }

    @Test func autoRegisterSetsTheDefaultScope() {
        let container = NetworkContainer()
        #expect(container.session() === container.session())
    }
}

protocol URLSessionProtocol: AnyObject {
    var configuration: URLSessionConfiguration { get }
}

extension URLSession: URLSessionProtocol {}

final class MockSession: URLSessionProtocol {
    let configuration = URLSessionConfiguration.ephemeral
}
