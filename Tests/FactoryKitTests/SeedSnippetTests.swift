import FactoryKit
import FactoryTesting
import Observation
import Testing

// The FactoryKit snippets of the seed documents (README 3.5.2 and the docs excerpts), written as
// users write them. SwiftUI-only pieces are left out.

protocol MyServiceType: Sendable {
    func text() -> String
}

struct MyService: MyServiceType {
    func text() -> String { "live" }
}

struct MockService: MyServiceType {
    func text() -> String { "mock" }
}

protocol MyRepositoryType {
    var service: any Networking { get }
}

protocol Networking: Sendable {}
struct MyNetworkService: Networking {}
final class NetworkProvider: NetworkProviding, @unchecked Sendable {}
protocol NetworkProviding: AnyObject, Sendable {}

struct MyRepository: MyRepositoryType {
    let service: any Networking
}

protocol AnalyticsEngine: Sendable {}
struct LiveAnalyticsEngine: AnalyticsEngine {}
struct StubAnalyticsEngine: AnalyticsEngine {}

enum Mode: Sendable { case open, secret }

struct Preferences: Sendable { var theme = "light" }

struct Service: Sendable {
    let mode: Mode
}

final class MyViewModel {
    let repository: any MyRepositoryType
    init(repository: any MyRepositoryType) { self.repository = repository }
}

extension Scope {
    static let session = Cached()
}

extension Container {
    var myService: Factory<any MyServiceType> {
        self { MyService() }
    }
    var myRepository: Factory<any MyRepositoryType> {
        self { MyRepository(service: self.networkService()) }
    }
    var networkService: Factory<any Networking> {
        self { MyNetworkService() }
    }
    var networkProvider: Factory<any NetworkProviding> {
        self { NetworkProvider() }
            .singleton
    }
    var sessionService: Factory<any MyServiceType> {
        self { MyService() }
            .scope(.session)
    }
    var analytics: Factory<any AnalyticsEngine> {
        self { LiveAnalyticsEngine() }
    }
    var preferences: Factory<Preferences> {
        self { Preferences() }
    }
    var service: ParameterFactory<Mode, Service> {
        self { Service(mode: $0) }
    }
    var singletonService: Factory<any MyServiceType> {
        self { MyService() }.singleton
    }
    var decoratedSharedService: Factory<NetworkProvider> {
        self { NetworkProvider() }
            .shared
            .decorator { print("DECORATING \(ObjectIdentifier($0))") }
    }
}

final class ContentRepository {
    @Injected(\.myService) private var myService
    func text() -> String { myService.text() }
}

@Observable
final class ContentViewModel {
    @ObservationIgnored
    private let myService = Container.shared.myService()

    func text() -> String { myService.text() }
}

@Observable
final class ContainerViewModel {
    @ObservationIgnored
    let myService: any MyServiceType

    init(container: Container) {
        myService = container.myService()
    }
}

final class NetworkService {
    let preferences: Preferences = dependency(\.preferences)
    lazy var service: Service = dependency(\.service, parameter: Mode.secret)
}

@Suite(.container)
struct SeedSnippetTests {
    @Test func simpleFactoryAndInjected() {
        #expect(ContentRepository().text() == "live")
        #expect(ContentViewModel().text() == "live")
        #expect(ContainerViewModel(container: Container.shared).myService.text() == "live")
    }

    @Test func mockingWithRegister() {
        Container.shared.myService.register { MockService() }
        #expect(ContentRepository().text() == "mock")
    }

    @Test func compositionRoot() {
        let viewModel = MyViewModel(repository: Container.shared.myRepository())
        #expect(viewModel.repository.service is MyNetworkService)
    }

    @Test func globalDependencyFunctions() {
        let service = NetworkService()
        #expect(service.preferences.theme == "light")
        #expect(service.service.mode == .secret)
    }

    @Test func scopes() {
        #expect(Container.shared.networkProvider() === Container.shared.networkProvider())
        Container.shared.manager.reset(scope: .session)
        #expect(Container.shared.sessionService().text() == "live")
        #expect(Container.shared.decoratedSharedService() === Container.shared.decoratedSharedService())
    }

    @Test func debugContext() {
        let container = Container.shared
        container.analytics.onDebug {
            StubAnalyticsEngine()
        }
        #if DEBUG
            #expect(Container.shared.analytics() is StubAnalyticsEngine)
        #else
            #expect(Container.shared.analytics() is LiveAnalyticsEngine)
        #endif
    }

    @Test func resetOptions() {
        Container.shared.manager.reset()
        Container.shared.manager.reset(options: .registration)
        Container.shared.manager.reset(options: .scope)
        Container.shared.manager.reset(scope: .cached)
        #expect(Container.shared.myService().text() == "live")
    }
}
