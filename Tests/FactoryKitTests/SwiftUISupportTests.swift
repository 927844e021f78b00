import FactoryKit
import FactoryTesting
import Foundation
import Observation
import Synchronization
import Testing

// The decisions behind FactoryKit's SwiftUI API, which compiles only where SwiftUI exists, tested
// through the platform-neutral types the SwiftUI files delegate to: `ViewContainers` (the
// environment value), `SubtreeRegistration` (`withContainer(_:_:)`), `ViewObjectSource` and
// `ViewObjectHolder` (`@InjectedObject`, `@InjectedObservable`).

/// A view model as the seeds write them: main-actor isolated, `@Observable`, with a dependency
/// injected at init. Being `@MainActor`, it can only be created on the main actor: the tests that
/// create it through `ViewContainers.object(from:)` compile because that is `@MainActor` too.
@MainActor @Observable
final class SceneGreetingModel {
    var text = ""
    @ObservationIgnored @Injected(\.sceneGreeting) var greeting
}

final class SceneCachedService {}

final class SceneFeatureContainer: SharedContainer {
    @TaskLocal static var shared = SceneFeatureContainer()
    let manager = ContainerManager()

    var heading: Factory<String> { self { "live heading" } }
    var subtitle: Factory<String> { self { "live subtitle" } }
    var title: Factory<String> { self { "\(self.heading()), \(self.subtitle())" } }
    var cachedService: Factory<SceneCachedService> { self { SceneCachedService() }.cached }
}

extension Container {
    var sceneGreeting: Factory<String> { self { "live" } }
    var sceneCached: Factory<SceneCachedService> { self { SceneCachedService() }.cached }
    @MainActor var sceneModel: Factory<SceneGreetingModel> { self { SceneGreetingModel() } }
}

@Suite(.container)
@MainActor
struct SceneContainerTests {
    @Test func twoSceneContainersResolveDifferentInstances() {
        let first = Container()
        let second = Container()
        let firstScene = ViewContainers().installing(first)
        let secondScene = ViewContainers().installing(second)

        let fromFirst = firstScene.resolve(\Container.sceneCached)
        let fromSecond = secondScene.resolve(\Container.sceneCached)

        #expect(fromFirst !== fromSecond)
        #expect(fromFirst === first.sceneCached())
        #expect(fromSecond === second.sceneCached())
        #expect(firstScene.resolve(\Container.sceneCached) === fromFirst)
        #expect(fromFirst !== Container.shared.sceneCached())
    }

    @Test func withoutASceneContainerViewsResolveFromShared() {
        let containers = ViewContainers()
        #expect(containers.container(Container.self) === Container.shared)
        #expect(containers.resolve(\Container.sceneCached) === Container.shared.sceneCached())
    }

    @Test func theNearestSceneContainerWins() {
        let outer = Container()
        let inner = Container()
        let containers = ViewContainers().installing(outer).installing(inner)
        #expect(containers.container(Container.self) === inner)
    }

    @Test func sceneContainersAreKeptPerContainerType() {
        let feature = SceneFeatureContainer()
        let containers = ViewContainers().installing(feature)
        #expect(containers.container(SceneFeatureContainer.self) === feature)
        #expect(containers.container(Container.self) === Container.shared)
        #expect(ViewContainers().container(SceneFeatureContainer.self) === SceneFeatureContainer.shared)
    }

    @Test func anObjectCreatedForASceneResolvesItsOwnDependenciesFromTheScene() {
        let scene = Container()
        scene.sceneGreeting.register { "scene" }
        let model = ViewContainers().installing(scene).resolve(\Container.sceneModel)
        #expect(model.greeting == "scene")
        #expect(Container.shared.sceneGreeting() == "live")
    }

    @Test func anObjectBuiltByTheViewAlsoSeesTheScene() {
        let scene = Container()
        scene.sceneGreeting.register { "scene" }
        let model = ViewContainers().installing(scene).object(from: .building { SceneGreetingModel() })
        #expect(model.greeting == "scene")
    }
}

@Suite(.container)
@MainActor
struct ViewObjectTests {
    @Test func anObservableIsCreatedOncePerViewIdentityOnTheMainActor() {
        var created = 0
        Container.shared.sceneModel.register {
            created += 1
            return SceneGreetingModel()
        }
        let containers = ViewContainers()
        let source = ViewObjectSource.factory(\Container.sceneModel)
        let view = ViewObjectHolder<SceneGreetingModel>()
        let sameViewLater = view
        let otherView = ViewObjectHolder<SceneGreetingModel>()

        #expect(view.object == nil)
        let first = view.object { containers.object(from: source) }
        let again = sameViewLater.object { containers.object(from: source) }
        let other = otherView.object { containers.object(from: source) }

        #expect(first === again)
        #expect(first !== other)
        #expect(created == 2)
    }

    @Test nonisolated func aCallerOffTheMainActorAwaitsTheMainActor() async {
        // `object(from:)` is main-actor isolated: code elsewhere can only await it, and the
        // object is then created on the main actor. (A key path to a main-actor factory, such as
        // `sceneModel`, cannot even be formed here.)
        Container.shared.sceneGreeting.register { MainActor.assumeIsolated { "on the main actor" } }
        let greeting = await ViewContainers().resolve(\Container.sceneGreeting)
        #expect(greeting == "on the main actor")
    }

    @Test func theObjectIsARealObservable() {
        let model = ViewObjectHolder<SceneGreetingModel>().object {
            ViewContainers().object(from: .factory(\Container.sceneModel))
        }
        let changed = LockedFlag()
        withObservationTracking {
            _ = model.text
        } onChange: {
            changed.set()
        }
        model.text = "edited"
        #expect(changed.isSet)
    }

    @Test func nothingIsCreatedUntilTheViewReadsTheObject() {
        var created = 0
        Container.shared.sceneModel.register {
            created += 1
            return SceneGreetingModel()
        }
        let holder = ViewObjectHolder<SceneGreetingModel>()
        _ = ViewObjectSource.factory(\Container.sceneModel)
        #expect(created == 0)
        #expect(holder.object == nil)
    }
}

/// A flag set from an observation callback, which may run on any thread.
final class LockedFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
