import FactoryKit
import FactoryTesting
import Foundation
import Testing

// `withContainer(_:_:)` for `Container` gives the views below it a child container
// (`SubtreeContainerCache`, `ViewContainers.registering`), made with `Container(childOf:)`, which
// reads through to its parent. These test the platform-neutral part; the SwiftUI part runs in the
// stand-in host (.ci/check-swiftui).

final class InheritedService {}

extension Container {
    var inheritedGreeting: Factory<String> { self { "live" } }
    var inheritedCached: Factory<InheritedService> { self { InheritedService() }.cached }
    var inheritedUnique: Factory<InheritedService> { self { InheritedService() } }
    var inheritedFarewell: Factory<String> { self { "live farewell" } }
    var inheritedDecorated: Factory<InheritedService> { self { InheritedService() } }
}

@Suite(.container)
struct ContainerInheritanceTests {
    /// The child reads the parent's registration, but a value the parent cached a moment before
    /// is the parent's: the child makes its own (issue 37: what a subtree's model is built with
    /// must not depend on what the parent cached first).
    @Test func aChildReadsItsParentsRegistrationsAndKeepsScopedValuesOfItsOwn() {
        let parent = Container()
        parent.inheritedGreeting.register { "parent's" }
        let cachedBefore = parent.inheritedCached()
        let child = Container(childOf: parent)
        #expect(child.inheritedGreeting() == "parent's")
        #expect(child.inheritedCached() !== cachedBefore)
        #expect(child.inheritedCached() === child.inheritedCached())
        #expect(parent.inheritedCached() === cachedBefore)
    }

    @Test func whatTheChildRegistersStaysInTheChild() {
        let parent = Container()
        let child = Container(childOf: parent)
        child.inheritedGreeting.register { "child's" }
        #expect(parent.inheritedGreeting() == "live")
        #expect(child.inheritedGreeting() == "child's")
    }

    @Test func theParentsDefaultScopeDecoratorsAndContextOverridesApply() {
        let parent = Container()
        parent.manager.defaultScope = .cached
        // An argument context, which applies in release builds too (`onTest` does not).
        parent.inheritedGreeting.onArg("subtree-inherited-override") { "arg override" }
        FactoryContext.setArg("subtree-inherited-override", forKey: "subtree-inherited-override")
        defer { FactoryContext.removeArg(forKey: "subtree-inherited-override") }
        let decorated = Counter()
        parent.inheritedDecorated.decorator { _ in _ = decorated.next() }
        let child = Container(childOf: parent)
        #expect(child.inheritedUnique() === child.inheritedUnique())
        #expect(child.inheritedUnique() !== parent.inheritedUnique())
        #expect(child.inheritedGreeting() == "arg override")
        _ = child.inheritedDecorated()
        #expect(decorated.next() == 2)
    }

    /// No copy to keep in step: what the parent registers or resets later reaches the child at
    /// once, for every factory the child has not registered itself.
    @Test func whatTheParentChangesLaterReachesTheChildUnlessItChangedThatFactoryItself() {
        let parent = Container()
        let child = Container(childOf: parent)
        child.inheritedGreeting.register { "child's" }
        parent.inheritedGreeting.register { "parent's greeting" }
        parent.inheritedFarewell.register { "parent's farewell" }
        #expect(child.inheritedFarewell() == "parent's farewell")
        #expect(child.inheritedGreeting() == "child's")
        parent.manager.reset(options: .registration)
        #expect(child.inheritedFarewell() == "live farewell")
    }

    /// A registration the parent makes later drops the value the child cached with the previous
    /// one, as a `register` on the child would.
    @Test func aFactoryTheParentRegistersAgainDropsTheChildsCachedValue() {
        let parent = Container()
        let child = Container(childOf: parent)
        let cachedByChild = child.inheritedCached()
        let replacement = InheritedService()
        parent.inheritedCached.register { replacement }
        #expect(child.inheritedCached() === replacement)
        #expect(child.inheritedCached() !== cachedByChild)
    }

    /// A child of a child reads through both, the nearest first.
    @Test func aGrandchildReadsThroughEveryAncestorTheNearestFirst() {
        let parent = Container()
        parent.inheritedGreeting.register { "parent's" }
        parent.inheritedFarewell.register { "parent's farewell" }
        let child = Container(childOf: parent)
        child.inheritedGreeting.register { "child's" }
        let grandchild = Container(childOf: child)
        #expect(grandchild.inheritedGreeting() == "child's")
        #expect(grandchild.inheritedFarewell() == "parent's farewell")
    }
}

@Suite(.container)
@MainActor
struct SubtreeContainerTests {
    @Test func registrationsMadeOnTheParentLaterReachTheViewsObjectsButNotOverTheMock() {
        let below = ViewContainers().registering(
            SubtreeRegistration(\Container.inheritedGreeting) { "mock" }, cache: SubtreeContainerCache())
        Container.shared.inheritedFarewell.register { "registered later" }
        Container.shared.inheritedGreeting.register { "parent's greeting" }
        #expect(below.resolve(\Container.inheritedFarewell) == "registered later")
        #expect(below.resolve(\Container.inheritedGreeting) == "mock")
    }

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
}

/// `withContainer(\\FeatureContainer.api) { ... }` on a custom container type: the views below
/// reach the same container, whose manager answers from a child while their objects are created.
@Suite(.container)
@MainActor
struct CustomContainerSubtreeTests {
    private func below(
        _ feature: SceneFeatureContainer, _ registrations: SubtreeRegistration...,
        cache: SubtreeContainerCache = SubtreeContainerCache()
    ) -> ViewContainers {
        registrations.reduce(ViewContainers().installing(feature)) { $0.registering($1, cache: cache) }
    }

    @Test func theViewsObjectsSeeTheRegistrationAndTheContainerKeepsItsOwn() {
        let feature = SceneFeatureContainer()
        let below = below(feature, SubtreeRegistration(\SceneFeatureContainer.heading) { "mock" })
        #expect(below.container(SceneFeatureContainer.self) === feature)
        #expect(below.resolve(\SceneFeatureContainer.heading) == "mock")
        #expect(below.resolve(\SceneFeatureContainer.title) == "mock, live subtitle")
        #expect(feature.heading() == "live heading")
        #expect(feature.title() == "live heading, live subtitle")
    }

    @Test func withoutASceneContainerItIsTheTypesShared() {
        SceneFeatureContainer.$shared.withValue(SceneFeatureContainer()) {
            let below = ViewContainers().registering(
                SubtreeRegistration(\SceneFeatureContainer.heading) { "mock" }, cache: SubtreeContainerCache())
            #expect(below.resolve(\SceneFeatureContainer.heading) == "mock")
            #expect(SceneFeatureContainer.shared.heading() == "live heading")
        }
    }

    @Test func siblingsSeeOnlyTheirOwn() {
        let feature = SceneFeatureContainer()
        let first = below(feature, SubtreeRegistration(\SceneFeatureContainer.heading) { "first" })
        let second = below(feature, SubtreeRegistration(\SceneFeatureContainer.heading) { "second" })
        #expect(first.resolve(\SceneFeatureContainer.heading) == "first")
        #expect(second.resolve(\SceneFeatureContainer.heading) == "second")
        #expect(ViewContainers().installing(feature).resolve(\SceneFeatureContainer.heading) == "live heading")
    }

    @Test func anInnerSubtreeKeepsTheOuterOnesRegistrationsAndTheNearestWins() {
        let feature = SceneFeatureContainer()
        let outer = below(
            feature, SubtreeRegistration(\SceneFeatureContainer.heading) { "outer" },
            SubtreeRegistration(\SceneFeatureContainer.subtitle) { "outer subtitle" })
        let inner = outer.registering(
            SubtreeRegistration(\SceneFeatureContainer.subtitle) { "inner subtitle" }, cache: SubtreeContainerCache())
        #expect(inner.resolve(\SceneFeatureContainer.title) == "outer, inner subtitle")
        #expect(outer.resolve(\SceneFeatureContainer.title) == "outer, outer subtitle")
    }

    @Test func valuesCachedBelowStayInTheChildAndTheChildIsKeptPerIdentity() {
        let feature = SceneFeatureContainer()
        let registration = SubtreeRegistration(\SceneFeatureContainer.heading) { "mock" }
        let cache = SubtreeContainerCache()
        let cachedBelow = below(feature, registration, cache: cache).resolve(\SceneFeatureContainer.cachedService)
        #expect(
            below(feature, registration, cache: cache).resolve(\SceneFeatureContainer.cachedService) === cachedBelow)
        #expect(feature.cachedService() !== cachedBelow)
        #expect(below(feature, registration).resolve(\SceneFeatureContainer.cachedService) !== cachedBelow)
    }

    @Test func aSceneContainerInstalledBelowGetsTheRegistrationsAbove() {
        let scene = SceneFeatureContainer()
        let above = below(SceneFeatureContainer(), SubtreeRegistration(\SceneFeatureContainer.heading) { "mock" })
        let belowScene = above.installing(scene, cache: SubtreeContainerCache())
        #expect(belowScene.container(SceneFeatureContainer.self) === scene)
        #expect(belowScene.resolve(\SceneFeatureContainer.heading) == "mock")
        #expect(scene.heading() == "live heading")
    }

    @Test func registrationsMadeOnTheContainerLaterReachTheObjectsBelowButNotOverTheMock() {
        let feature = SceneFeatureContainer()
        let below = below(feature, SubtreeRegistration(\SceneFeatureContainer.heading) { "mock" })
        feature.subtitle.register { "registered later" }
        feature.heading.register { "container's heading" }
        #expect(below.resolve(\SceneFeatureContainer.title) == "mock, registered later")
    }

    @Test func theProjectedValuesFormResolvesFromTheChild() {
        let feature = SceneFeatureContainer()
        let below = below(feature, SubtreeRegistration(\SceneFeatureContainer.heading) { "mock" })
        #expect(below.resolving(SceneFeatureContainer.self) { $0.heading() } == "mock")
        #expect(
            ViewContainers().installing(feature).resolving(SceneFeatureContainer.self) { $0.heading() }
                == "live heading")
    }

    @Test func whileAnObjectIsCreatedOtherThreadsStillSeeTheContainersOwn() {
        let feature = SceneFeatureContainer()
        let below = below(feature, SubtreeRegistration(\SceneFeatureContainer.heading) { "mock" })
        let seen = below.make { () -> (here: String, elsewhere: String) in
            let elsewhere = Box()
            let done = DispatchSemaphore(value: 0)
            Thread {
                elsewhere.value = feature.heading()
                done.signal()
            }.start()
            done.wait()
            return (feature.heading(), elsewhere.value)
        }
        #expect(seen.here == "mock")
        #expect(seen.elsewhere == "live heading")
    }

    @Test func routesBoundOnTheMainActorNeverReachOtherThreads() {
        let feature = SceneFeatureContainer()
        let below = below(feature, SubtreeRegistration(\SceneFeatureContainer.heading) { "mock" })
        let elsewhere = Tally()
        let done = DispatchGroup()
        for _ in 0..<2 {
            done.enter()
            Thread {
                defer { done.leave() }
                while elsewhere.note(feature.heading() == "live heading") {}
            }.start()
        }
        var wrongHere = 0
        for _ in 0..<2_000 where below.make({ feature.heading() }) != "mock" { wrongHere += 1 }
        elsewhere.stop()
        done.wait()
        #expect(wrongHere == 0)
        #expect(elsewhere.counts.wrong == 0)
        #expect(elsewhere.counts.reads > 0)
    }

    @Test func writesMadeWhileAnObjectIsCreatedStayInTheChild() {
        let feature = SceneFeatureContainer()
        let below = below(feature, SubtreeRegistration(\SceneFeatureContainer.heading) { "mock" })
        below.make { () -> Void in feature.subtitle.register { "registered by an object" } }
        #expect(below.resolve(\SceneFeatureContainer.subtitle) == "registered by an object")
        #expect(feature.subtitle() == "live subtitle")
    }

    /// A task started while an object is created inherits the route, and resolves from the child
    /// whenever it runs: after the route's block has ended, with no route bound anywhere else
    /// (issue 37, defect 4: it read the parent then, and the child only while some unrelated
    /// route was bound elsewhere in the process).
    @Test func aTaskStartedInsideARouteResolvesFromTheChildWhateverElseIsBound() async {
        let feature = SceneFeatureContainer()
        let below = below(feature, SubtreeRegistration(\SceneFeatureContainer.heading) { "mock" })
        let started = below.make { Task { feature.heading() } }
        #expect(await started.value == "mock")
        let outside = Task { feature.heading() }
        #expect(await outside.value == "live heading")
    }

    /// Reads made on other threads, how many saw the wrong value, and whether to go on. An
    /// `NSLock`, which ThreadSanitizer understands on Linux (`Mutex` there is a bare futex).
    private final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var reads = 0
        private var wrong = 0
        private var running = true

        /// Counts a read; whether to read again.
        func note(_ right: Bool) -> Bool {
            lock.withLock {
                reads += 1
                if !right { wrong += 1 }
                return running
            }
        }

        func stop() { lock.withLock { running = false } }
        var counts: (reads: Int, wrong: Int) { lock.withLock { (reads, wrong) } }
    }

    /// A string written by one thread and read by another after a semaphore.
    private final class Box: @unchecked Sendable {
        var value = ""
    }
}
