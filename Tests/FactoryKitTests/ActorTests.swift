import FactoryKit
import FactoryTesting
import Testing

// The actor-isolation patterns of the seeds, compiled in Swift 6 language mode.

@MainActor
final class ActorViewModel {
    let service: any Greeting
    init(service: any Greeting) { self.service = service }
}

@globalActor
actor BackgroundActor {
    static let shared = BackgroundActor()
}

@BackgroundActor
final class DataManager {
    var fetched = 0
    init() {}
    func fetch() -> Int {
        fetched += 1
        return fetched
    }
}

actor OrdinaryActor {
    private var count = 0
    func increment() -> Int {
        count += 1
        return count
    }
}

extension Container {
    var actorService: Factory<any Greeting> { self { Greeter("actor service") } }

    @MainActor
    var actorViewModel: Factory<ActorViewModel> {
        self { ActorViewModel(service: self.actorService()) }
    }

    @BackgroundActor
    var dataManager: Factory<DataManager> {
        self { DataManager() }
    }

    var ordinaryActor: Factory<OrdinaryActor> {
        self { OrdinaryActor() }
    }

    @MainActor
    var actorSendableViewModel: Factory<String> {
        self { "built on main" }
    }
}

@Suite(.container)
struct ActorTests {
    @Test @MainActor func mainActorFactoryResolvesOnTheMainActor() {
        let model = Container.shared.actorViewModel()
        #expect(model.service.text == "actor service")
    }

    @Test func mainActorFactoryResolvesFromElsewhereByHopping() async {
        let text = await Container.shared.actorSendableViewModel.resolveOnMainActor()
        #expect(text == "built on main")
        let viaRun = await MainActor.run { Container.shared.actorViewModel().service.text }
        #expect(viaRun == "actor service")
    }

    @Test func globalActorFactoryResolvesOnItsActor() async {
        let count = await Task { @BackgroundActor in
            Container.shared.dataManager().fetch()
        }.value
        #expect(count == 1)
    }

    @Test func ordinaryActorsNeedNothingSpecial() async {
        let actor = Container.shared.ordinaryActor()
        let count = await actor.increment()
        #expect(count == 1)
    }

    @Test func resolveOnGlobalActorHopsToTheGivenActor() async {
        let factory = Factory<Int>(Container.shared, key: "actorGlobal") { 5 }
        let value = await factory.resolveOnGlobalActor(BackgroundActor.shared)
        #expect(value == 5)
        let parameter = ParameterFactory<Int, Int>(Container.shared, key: "actorGlobalParameter") { $0 * 2 }
        #expect(await parameter.resolveOnGlobalActor(BackgroundActor.shared, parameters: 4) == 8)
        #expect(await parameter.resolveOnMainActor(5) == 10)
    }

    @Test(
        .container { @MainActor container in
            container.actorViewModel { ActorViewModel(service: MockGreeter("trait mock")) }
        })
    @MainActor
    func mainActorFactoryRegisteredFromATrait() {
        #expect(Container.shared.actorViewModel().service.text == "trait mock")
    }

    @Test @MainActor func registeringAMainActorFactoryOnTheMainActor() {
        Container.shared.actorViewModel.register { ActorViewModel(service: MockGreeter("registered")) }
        #expect(Container.shared.actorViewModel().service.text == "registered")
    }
}
