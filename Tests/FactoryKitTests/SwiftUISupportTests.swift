import FactoryKit
import FactoryTesting
import Foundation
import Observation
import Synchronization
import Testing

// The decisions behind FactoryKit's SwiftUI API, which compiles only where SwiftUI exists, tested
// through the platform-neutral types the SwiftUI files delegate to: `ViewContainers` (the
// environment value), `FactoryViewRegistration` (`withContainer(_:_:)`), `ViewObjectSource` and
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
struct WithContainerRegistrationTests {
    @Test func theRegistrationReachesExactlyTheSceneContainerTheViewResolvesFrom() {
        let scene = Container()
        let otherScene = Container()
        let registration = FactoryViewRegistration(\Container.sceneGreeting) { "mock" }
        let containers = ViewContainers().installing(scene).adding(registration)

        let model = containers.resolve(\Container.sceneModel)

        #expect(model.greeting == "mock")
        #expect(scene.sceneGreeting() == "mock")
        #expect(Container.shared.sceneGreeting() == "live")
        #expect(otherScene.sceneGreeting() == "live")
    }

    @Test func withoutASceneContainerTheRegistrationReachesShared() {
        let registration = FactoryViewRegistration(\Container.sceneGreeting) { "mock" }
        let model = ViewContainers().adding(registration).resolve(\Container.sceneModel)
        #expect(model.greeting == "mock")
        #expect(Container.shared.sceneGreeting() == "mock")
    }

    @Test func aSceneContainerInstalledBelowTheModifierIsTheOneReached() {
        // `ContentView().withContainer(scene).withContainer(\.greeting) { ... }`: the
        // registration sits above the scene container, and still reaches it.
        let scene = Container()
        let registration = FactoryViewRegistration(\Container.sceneGreeting) { "mock" }
        let containers = ViewContainers().adding(registration).installing(scene)
        _ = containers.resolve(\Container.sceneModel)
        #expect(scene.sceneGreeting() == "mock")
        #expect(Container.shared.sceneGreeting() == "live")
    }

    @Test func aCustomContainerRegistrationReachesThatTypesContainer() {
        let feature = SceneFeatureContainer()
        let registration = FactoryViewRegistration(\SceneFeatureContainer.heading) { "mock heading" }
        let containers = ViewContainers().installing(feature).adding(registration)
        containers.applyRegistrations()
        #expect(feature.heading() == "mock heading")
        #expect(SceneFeatureContainer.shared.heading() == "live heading")
        #expect(Container.shared.sceneGreeting() == "live")
    }

    @Test func theRegistrationIsAppliedOncePerContainer() {
        let scene = Container()
        var builds = 0
        let registration = FactoryViewRegistration(\Container.sceneCached) {
            builds += 1
            return SceneCachedService()
        }
        let containers = ViewContainers().installing(scene).adding(registration)
        let first = containers.resolve(\Container.sceneCached)
        let second = containers.resolve(\Container.sceneCached)
        // Applying again would register again and drop the cached value.
        #expect(first === second)
        #expect(builds == 1)
        #expect(registration.appliedCount == 1)
        _ = ViewContainers().adding(registration).resolve(\Container.sceneCached)
        #expect(registration.appliedCount == 2)
    }

    @Test func theNearestRegistrationWinsForTheSameFactory() {
        let outer = FactoryViewRegistration(\Container.sceneGreeting) { "outer" }
        let inner = FactoryViewRegistration(\Container.sceneGreeting) { "inner" }
        let model = ViewContainers().adding(outer).adding(inner).resolve(\Container.sceneModel)
        #expect(model.greeting == "inner")
    }

    @Test func undoingPutsBackThePreviousRegistration() {
        let scene = Container()
        scene.sceneGreeting.register { "earlier" }
        let registration = FactoryViewRegistration(\Container.sceneGreeting) { "mock" }
        ViewContainers().installing(scene).adding(registration).applyRegistrations()
        #expect(scene.sceneGreeting() == "mock")

        registration.undo()

        #expect(scene.sceneGreeting() == "earlier")
        #expect(registration.appliedCount == 0)
    }

    @Test func undoingWithoutAPreviousRegistrationGoesBackToTheDefinition() {
        let scene = Container()
        let registration = FactoryViewRegistration(\Container.sceneCached) { SceneCachedService() }
        let containers = ViewContainers().installing(scene).adding(registration)
        let mocked = containers.resolve(\Container.sceneCached)
        registration.undo()
        let restored = scene.sceneCached()
        #expect(restored !== mocked)
        #expect(scene.sceneCached() === restored)
    }

    @Test func aRegistrationMadeSinceWinsOverTheUndo() {
        let scene = Container()
        let registration = FactoryViewRegistration(\Container.sceneGreeting) { "mock" }
        ViewContainers().installing(scene).adding(registration).applyRegistrations()
        scene.sceneGreeting.register { "later" }

        registration.undo()

        #expect(scene.sceneGreeting() == "later")
    }

    @Test func releasingTheRegistrationUndoesIt() {
        let scene = Container()
        var registration: FactoryViewRegistration<Container, String>? =
            FactoryViewRegistration(\Container.sceneGreeting) { "mock" }
        ViewContainers().installing(scene).adding(registration!).applyRegistrations()
        #expect(scene.sceneGreeting() == "mock")

        registration = nil

        #expect(scene.sceneGreeting() == "live")
    }

    @Test func aRegistrationNeverAppliedChangesNothingWhenReleased() {
        Container.shared.sceneGreeting.register { "earlier" }
        _ = FactoryViewRegistration(\Container.sceneGreeting) { "mock" }
        #expect(Container.shared.sceneGreeting() == "earlier")
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
        let registration = FactoryViewRegistration(\Container.sceneGreeting) { "mock" }
        let greeting = await ViewContainers().adding(registration).resolve(\Container.sceneGreeting)
        #expect(greeting == "mock")
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
