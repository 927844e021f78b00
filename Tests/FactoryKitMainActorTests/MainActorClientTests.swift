import FactoryKit
import FactoryTesting
import Observation
import Testing

// This target is built with `.defaultIsolation(MainActor.self)`, as new Xcode projects are:
// everything below without an annotation is main-actor isolated.

protocol ClientService {
    var name: String { get }
}

final class LiveClientService: ClientService {
    let name = "live"
}

final class MockClientService: ClientService {
    let name = "mock"
}

@Observable
final class ClientViewModel {
    @ObservationIgnored @Injected(\.clientService) private var service
    var title: String { service.name }
}

/// A service meant for background use must opt out of the default isolation.
nonisolated final class BackgroundService: Sendable {
    let preferences: String = dependency(\.clientPreferences)
}

// `Container` is declared `nonisolated`, so members of its extensions are nonisolated even in
// this module: a factory that builds main-actor types says `@MainActor`, as in any module.
extension Container {
    @MainActor var clientService: Factory<any ClientService> { self { LiveClientService() } }
    @MainActor var clientViewModel: Factory<ClientViewModel> { self { ClientViewModel() }.cached }
    var clientPreferences: Factory<String> { self { "preferences" } }
    var backgroundService: Factory<BackgroundService> { self { BackgroundService() }.singleton }
}

/// A custom container in a main-actor module: declare it `nonisolated`, like `Container`.
nonisolated final class ClientContainer: SharedContainer {
    @TaskLocal static var shared = ClientContainer()
    let manager = ContainerManager()
}

extension ClientContainer {
    var greeting: Factory<String> { self { "hello from a custom container" } }
}

extension Trait where Self == ContainerTrait<ClientContainer> {
    static var clientContainer: ContainerTrait<ClientContainer> {
        .init(shared: ClientContainer.$shared, container: .init())
    }
}

@Suite(.container)
struct MainActorClientTests {
    @Test func resolvesMainActorFactories() {
        #expect(Container.shared.clientViewModel().title == "live")
    }

    @Test func registersMocks() {
        Container.shared.clientService { MockClientService() }
        #expect(Container.shared.clientViewModel().title == "mock")
    }

    @Test(.container { @MainActor in $0.clientService { MockClientService() } })
    func traitTransformRegistersMainActorFactories() {
        #expect(ClientViewModel().title == "mock")
    }

    @Test func nonisolatedFactoriesResolveOffTheMainActor() async {
        let preferences = await Task.detached {
            Container.shared.backgroundService().preferences
        }.value
        #expect(preferences == "preferences")
    }

    @Test(.clientContainer) func customContainerTrait() {
        ClientContainer.shared.greeting { "mocked" }
        #expect(ClientContainer.shared.greeting() == "mocked")
    }
}
