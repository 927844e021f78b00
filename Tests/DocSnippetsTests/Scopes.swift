// The snippets of Scopes.md.
import FactoryKit
import Testing

extension Container {
    var network: Factory<Networking> { self { Network() }.singleton }
    var session: Factory<Session> { self { Session() }.cached }
    var router: Factory<Router> { self { Router() }.graph }
}

extension Scope {
    static let session = Cached()
}

func signOut() {
    Container.shared.manager.reset(scope: .session)  // sign-out
}

// "One per request".
final class RequestContext: Sendable {}

extension Container {
    var requestContext: Factory<RequestContext> { self { RequestContext() }.scope(.request) }
}

/// What handles the request; here, nothing.
func handle(_ context: RequestContext) {}

func serveOneRequest() async {
    await Container.shared.withScope(.request) {
        handle(Container.shared.requestContext())
    }
}

@Suite(.container)
struct ScopesArticleTests {
    @Test func singletonAndCachedFactoriesKeepTheirInstance() {
        #expect(Container.shared.network() === Container.shared.network())
        #expect(Container.shared.session() === Container.shared.session())
    }

    @Test func aGraphInstanceLastsOneOutermostResolution() {
        let screen = Container.shared.screen()
        #expect(screen.header.router === screen.body.router)
        #expect(Container.shared.screen().header.router !== screen.header.router)
    }

    @Test func aRequestScopedFactoryGivesOneInstancePerBlock() async {
        let (first, second) = await Container.shared.withScope(.request) {
            (Container.shared.requestContext(), Container.shared.requestContext())
        }
        #expect(first === second)
        let next = await Container.shared.withScope(.request) { Container.shared.requestContext() }
        #expect(next !== first)
        await serveOneRequest()
    }

    @Test func resettingACustomScopeClearsItsFactories() {
        let cart = Container.shared.cart()
        #expect(Container.shared.cart() === cart)
        signOut()
        #expect(Container.shared.cart() !== cart)
    }
}

protocol Networking: AnyObject {}

final class Network: Networking {}

final class Session: Sendable {}

final class Router {}

struct RoutedView {
    let router: Router
}

struct Screen {
    let header: RoutedView
    let body: RoutedView
}

final class Cart {}

extension Container {
    var routedView: Factory<RoutedView> { self { RoutedView(router: self.router()) } }
    var screen: Factory<Screen> { self { Screen(header: self.routedView(), body: self.routedView()) } }
    var cart: Factory<Cart> { self { Cart() }.scope(.session) }
}
