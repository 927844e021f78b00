import FactoryKit
import FactoryTesting
import XCTest

// The three rules of FactoryKit's SwiftUI support that matter most, in XCTest as well: see
// SwiftUISupportTests.swift for the rest. Each test has a fresh `Container.shared`.

final class SwiftUISupportXCTests: ContainerTestCase {
    @MainActor
    func testTwoSceneContainersResolveDifferentInstances() async {
        let first = Container()
        let second = Container()

        let fromFirst = ViewContainers().installing(first).resolve(\Container.sceneCached)
        let fromSecond = ViewContainers().installing(second).resolve(\Container.sceneCached)

        XCTAssertFalse(fromFirst === fromSecond)
        XCTAssertTrue(fromFirst === first.sceneCached())
        XCTAssertTrue(fromSecond === second.sceneCached())
    }

    @MainActor
    func testWithContainerReachesTheViewsBelowAndNothingElse() async {
        let scene = Container()
        let registration = SubtreeRegistration(\Container.sceneGreeting) { "mock" }

        let below = ViewContainers().installing(scene).registering(registration, cache: SubtreeContainerCache())
        let model = below.resolve(\Container.sceneModel)

        XCTAssertEqual(model.greeting, "mock")
        XCTAssertEqual(scene.sceneGreeting(), "live")
        XCTAssertEqual(Container.shared.sceneGreeting(), "live")
    }

    @MainActor
    func testACustomContainersRegistrationReachesOnlyTheObjectsBelow() async {
        let feature = SceneFeatureContainer()
        let registration = SubtreeRegistration(\SceneFeatureContainer.heading) { "mock heading" }

        let below = ViewContainers().installing(feature).registering(registration, cache: SubtreeContainerCache())

        XCTAssertEqual(below.resolve(\SceneFeatureContainer.heading), "mock heading")
        XCTAssertTrue(below.container(SceneFeatureContainer.self) === feature)
        XCTAssertEqual(feature.heading(), "live heading")
    }

    @MainActor
    func testAnObservableIsCreatedOncePerViewIdentityOnTheMainActor() async {
        var created = 0
        Container.shared.sceneModel.register {
            created += 1
            return SceneGreetingModel()
        }
        let containers = ViewContainers()
        let source = ViewObjectSource.factory(\Container.sceneModel)
        let view = ViewObjectHolder<SceneGreetingModel>()
        let otherView = ViewObjectHolder<SceneGreetingModel>()

        let first = view.object { containers.object(from: source) }
        let again = view.object { containers.object(from: source) }
        let other = otherView.object { containers.object(from: source) }

        XCTAssertTrue(first === again)
        XCTAssertFalse(first === other)
        XCTAssertEqual(created, 2)
    }
}
