// `withContainer(_:_:)` reaches exactly the views below it (issue 27, point 1 and 4).

import FactoryKit
import SwiftUI

struct SiblingsAndOutsider: View {
    let switches: Switches
    var body: some View {
        VStack {
            VStack {
                Greeting().withContainer(\.greeting) { "inner" }
                Greeting()
            }
            Greeting()
            SceneGreeting()
            if switches.later { Greeting() }
        }
    }
}

struct TwoMockedSiblings: View {
    let switches: Switches
    var body: some View {
        VStack {
            if switches.first { Greeting().withContainer(\.greeting) { "first sibling's mock" } }
            if switches.second { Greeting().withContainer(\.greeting) { "second sibling's mock" } }
            if switches.later { Greeting() }
        }
    }
}

struct BranchLeavingTheMock: View {
    let switches: Switches
    var body: some View {
        if switches.flag {
            Greeting().withContainer(\.greeting) { "mock" }
        } else {
            Greeting()
        }
    }
}

struct GrowingList: View {
    let switches: Switches
    var body: some View {
        VStack {
            Greeting()
            if switches.later {
                Greeting()
                SceneGreeting()
            }
        }
    }
}

struct TwoMockedHeadings: View {
    let switches: Switches
    var body: some View {
        VStack {
            if switches.first { Heading().withContainer(\FeatureContainer.heading) { "first heading" } }
            if switches.second { Heading().withContainer(\FeatureContainer.heading) { "second heading" } }
            if switches.later { Heading() }
        }
    }
}

@MainActor
func subtreeScenarios(_ checks: Checks) {
    checks.run("a sibling and the views outside do not see a sibling's mock") {
        let switches = Switches()
        let host = StandInHost()
        host.mount(SiblingsAndOutsider(switches: switches))
        host.render()
        checks.expect(host.texts, ["inner", "live", "live", "live"])
        switches.later = true
        host.render()
        checks.expect(host.texts, ["inner", "live", "live", "live", "live"], "a view created later outside")
        checks.expect(Container.shared.greeting(), "live", "Container.shared")
    }

    checks.run("siblings released in creation order restore live") {
        let switches = Switches()
        let host = StandInHost()
        host.mount(TwoMockedSiblings(switches: switches))
        host.render()
        checks.expect(host.texts, ["first sibling's mock", "second sibling's mock"])
        switches.first = false
        host.render()
        switches.second = false
        host.render()
        switches.later = true
        host.render()
        checks.expect(host.texts, ["live"], "a view created after both left")
        checks.expect(Container.shared.greeting(), "live", "Container.shared")
    }

    checks.run("siblings released in reverse order restore live") {
        let switches = Switches()
        let host = StandInHost()
        host.mount(TwoMockedSiblings(switches: switches))
        host.render()
        switches.second = false
        host.render()
        checks.expect(host.texts, ["first sibling's mock"], "the first sibling keeps its mock")
        switches.first = false
        switches.later = true
        host.render()
        checks.expect(host.texts, ["live"], "a view created after both left")
    }

    checks.run("a view created in the update that removes the mock resolves live") {
        let switches = Switches()
        let host = StandInHost()
        host.mount(BranchLeavingTheMock(switches: switches))
        host.render()
        checks.expect(host.texts, ["mock"])
        switches.flag = false
        host.render()
        checks.expect(host.texts, ["live"])
    }

    checks.run("views created later below the modifier see the mock") {
        let switches = Switches()
        let host = StandInHost()
        host.mount(GrowingList(switches: switches).withContainer(\.greeting) { "mock" })
        host.render()
        checks.expect(host.texts, ["mock"])
        switches.later = true
        host.render()
        checks.expect(host.texts, ["mock", "mock", "mock"])
    }

    checks.run("a registration made on the parent later reaches views created below the modifier afterwards") {
        let switches = Switches()
        let host = StandInHost()
        host.mount(GrowingList(switches: switches).withContainer(\.session) { Session() })
        host.render()
        checks.expect(host.texts, ["live"])
        Container.shared.greeting.register { "registered later" }
        switches.later = true
        host.render()
        // The first view's object was made before; the two new ones see the new registration.
        checks.expect(host.texts, ["live", "registered later", "registered later"])
    }

    checks.run("the nearest registration wins, and an outer one still reaches the rest") {
        let host = StandInHost()
        host.mount(
            VStack {
                Greeting().withContainer(\.greeting) { "inner" }
                Greeting()
            }
            .withContainer(\.greeting) { "outer" })
        host.render()
        checks.expect(host.texts, ["inner", "outer"])
    }

    checks.run("a scene container's registrations reach a mocked subtree, and the mock stays in it") {
        let scene = Container()
        scene.greeting.register { "scene" }
        let host = StandInHost()
        host.mount(
            VStack {
                Greeting().withContainer(\.greeting) { "mock" }
                Greeting()
                SceneGreeting().withContainer(\.greetingModel) { GreetingModel() }
            }
            .withContainer(scene))
        host.render()
        checks.expect(host.texts, ["mock", "scene", "scene"])
        checks.expect(scene.greeting(), "scene", "the scene container")
    }

    checks.run("a registration above a scene container installed below it reaches that container's views") {
        let scene = Container()
        let host = StandInHost()
        host.mount(Greeting().withContainer(scene).withContainer(\.greeting) { "mock" })
        host.render()
        checks.expect(host.texts, ["mock"])
        checks.expect(scene.greeting(), "live", "the scene container itself")
    }

    checks.run("a custom container's mock reaches only the views below it, whatever the order they leave in") {
        FeatureContainer.$shared.withValue(FeatureContainer()) {
            let switches = Switches()
            let host = StandInHost()
            host.mount(TwoMockedHeadings(switches: switches))
            host.render()
            checks.expect(host.texts, ["first heading", "second heading"])
            switches.later = true
            host.render()
            checks.expect(
                host.texts, ["first heading", "second heading", "live heading"], "a view created later outside")
            switches.first = false
            host.render()
            checks.expect(host.texts, ["second heading", "live heading"], "after the first sibling left")
            switches.second = false
            host.render()
            checks.expect(host.texts, ["live heading"], "after both left")
            checks.expect(FeatureContainer.shared.heading(), "live heading", "FeatureContainer.shared")
        }
    }

    checks.run("a custom container's mock reaches the objects below it and what they resolve, not body's own reads") {
        FeatureContainer.$shared.withValue(FeatureContainer()) {
            let host = StandInHost()
            host.mount(
                VStack {
                    VStack {
                        ModelHeading()
                        PlainHeading()
                    }
                    .withContainer(\FeatureContainer.heading) { "mock heading" }
                    ModelHeading()
                })
            host.render()
            checks.expect(host.texts, ["mock heading", "live heading", "live heading"])
        }
    }
}
