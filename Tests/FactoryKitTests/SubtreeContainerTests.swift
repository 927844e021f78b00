import FactoryKit
import FactoryTesting
import Foundation
import Testing

// `withContainer(_:_:)` for `Container` gives the views below it a child container
// (`SubtreeContainerCache`, `ViewContainers.registering`), made with
// `ContainerManager.inherit(from:)`. These test the platform-neutral part; the SwiftUI part runs
// in the stand-in host (.ci/check-swiftui).

final class InheritedService {}

extension Container {
    var inheritedGreeting: Factory<String> { self { "live" } }
    var inheritedCached: Factory<InheritedService> { self { InheritedService() }.cached }
    var inheritedUnique: Factory<InheritedService> { self { InheritedService() } }
}

@Suite(.container)
struct ContainerInheritanceTests {
    @Test func aChildStartsWithItsParentsRegistrationsAndCachedValues() {
        let parent = Container()
        parent.inheritedGreeting.register { "parent's" }
        let cachedBefore = parent.inheritedCached()
        let child = Container()
        child.manager.inherit(from: parent.manager)
        #expect(child.inheritedGreeting() == "parent's")
        #expect(child.inheritedCached() === cachedBefore)
    }

    @Test func afterwardsTheTwoContainersChangeIndependently() {
        let parent = Container()
        let child = Container()
        child.manager.inherit(from: parent.manager)
        child.inheritedGreeting.register { "child's" }
        parent.inheritedUnique.register { InheritedService() }
        #expect(parent.inheritedGreeting() == "live")
        #expect(child.inheritedGreeting() == "child's")
        #expect(child.inheritedCached() !== parent.inheritedCached())
    }

    @Test func theParentsDefaultScopeAndContextOverridesAreKept() {
        let parent = Container()
        parent.manager.defaultScope = .cached
        // An argument context, which applies in release builds too (`onTest` does not).
        parent.inheritedGreeting.onArg("subtree-inherited-override") { "arg override" }
        FactoryContext.setArg("subtree-inherited-override", forKey: "subtree-inherited-override")
        defer { FactoryContext.removeArg(forKey: "subtree-inherited-override") }
        let child = Container()
        child.manager.inherit(from: parent.manager)
        #expect(child.manager.defaultScope === Scope.cached)
        #expect(child.inheritedUnique() === child.inheritedUnique())
        #expect(child.inheritedGreeting() == "arg override")
    }
}

@Suite(.container)
@MainActor
struct SubtreeContainerTests {
    @Test func theViewsBelowResolveFromAChildWithTheRegistration() {
        let registration = SubtreeRegistration(\Container.inheritedGreeting) { "mock" }
        let cache = SubtreeContainerCache()
        let below = ViewContainers().registering(registration, cache: cache)
        let child = below.container(Container.self)
        #expect(child !== Container.shared)
        #expect(below.resolve(\Container.inheritedGreeting) == "mock")
        #expect(Container.shared.inheritedGreeting() == "live")
        #expect(ViewContainers().registering(registration, cache: cache).container(Container.self) === child)
    }

    @Test func siblingsHaveChildrenOfTheirOwn() {
        let first = ViewContainers().registering(
            SubtreeRegistration(\Container.inheritedGreeting) { "first" }, cache: SubtreeContainerCache())
        let second = ViewContainers().registering(
            SubtreeRegistration(\Container.inheritedGreeting) { "second" }, cache: SubtreeContainerCache())
        #expect(first.resolve(\Container.inheritedGreeting) == "first")
        #expect(second.resolve(\Container.inheritedGreeting) == "second")
        #expect(ViewContainers().resolve(\Container.inheritedGreeting) == "live")
    }

    @Test func aSceneContainerInstalledBelowGetsTheRegistrationsAbove() {
        let scene = Container()
        scene.inheritedGreeting.register { "scene" }
        let above = ViewContainers().registering(
            SubtreeRegistration(\Container.inheritedGreeting) { "mock" }, cache: SubtreeContainerCache())
        let below = above.installing(scene, cache: SubtreeContainerCache())
        #expect(below.resolve(\Container.inheritedGreeting) == "mock")
        #expect(scene.inheritedGreeting() == "scene")
        #expect(ViewContainers().installing(scene, cache: SubtreeContainerCache()).container(Container.self) === scene)
    }

    @Test func oneCacheKeepsAChildPerParent() {
        let registration = SubtreeRegistration(\Container.inheritedGreeting) { "mock" }
        let cache = SubtreeContainerCache()
        let first = Container()
        let second = Container()
        let belowFirst = ViewContainers().installing(first).registering(registration, cache: cache)
        let belowSecond = ViewContainers().installing(second).registering(registration, cache: cache)
        #expect(belowFirst.container(Container.self) !== belowSecond.container(Container.self))
        #expect(
            ViewContainers().installing(first).registering(registration, cache: cache).container(Container.self)
                === belowFirst.container(Container.self))
    }

    @Test func aCustomContainerRequestStaysOnThatContainer() {
        let feature = SceneFeatureContainer()
        let request = ViewRegistrationRequest(\SceneFeatureContainer.heading) { "mock heading" }
        let below = request.containers(below: ViewContainers().installing(feature))
        below.applyRegistrations()
        #expect(below.container(SceneFeatureContainer.self) === feature)
        #expect(feature.heading() == "mock heading")
    }

    @Test func customContainerRegistrationsReleasedInAnyOrderRestoreTheOriginal() {
        for order in [[0, 1, 2], [2, 1, 0], [1, 0, 2], [0, 2, 1]] {
            let feature = SceneFeatureContainer()
            var registrations: [FactoryViewRegistration<SceneFeatureContainer, String>?] = (0..<3).map { index in
                FactoryViewRegistration(\SceneFeatureContainer.heading) { "mock \(index)" }
            }
            for registration in registrations {
                ViewContainers().installing(feature).adding(registration!).applyRegistrations()
            }
            #expect(feature.heading() == "mock 2")
            for (step, index) in order.enumerated() {
                registrations[index] = nil
                let alive = registrations.indices.filter { registrations[$0] != nil }
                let expected = alive.last.map { "mock \($0)" } ?? "live heading"
                #expect(feature.heading() == expected, "order \(order), after step \(step)")
            }
        }
    }

    @Test func aRegistrationMadeSinceStillWinsOverTheChainsUndo() {
        let feature = SceneFeatureContainer()
        var first: FactoryViewRegistration<SceneFeatureContainer, String>? =
            FactoryViewRegistration(\SceneFeatureContainer.heading) { "first" }
        var second: FactoryViewRegistration<SceneFeatureContainer, String>? =
            FactoryViewRegistration(\SceneFeatureContainer.heading) { "second" }
        ViewContainers().installing(feature).adding(first!).adding(second!).applyRegistrations()
        feature.heading.register { "registered since" }
        first = nil
        second = nil
        #expect(feature.heading() == "registered since")
    }

    @Test func undosOverlappingOnSeveralThreadsStillRestoreTheOriginal() {
        for round in 0..<200 {
            let feature = SceneFeatureContainer()
            let registrations = (0..<4).map { index in
                FactoryViewRegistration(\SceneFeatureContainer.heading) { "mock \(index)" }
            }
            for registration in registrations {
                ViewContainers().installing(feature).adding(registration).applyRegistrations()
            }
            DispatchQueue.concurrentPerform(iterations: registrations.count) { index in
                registrations[(index + round) % registrations.count].undo()
            }
            #expect(feature.heading() == "live heading", "round \(round)")
        }
    }
}
