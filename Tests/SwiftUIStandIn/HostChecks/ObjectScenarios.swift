// The object wrappers keep one object per view identity and create it outside `body` (issue 27,
// point 2).

import FactoryKit
import SwiftUI

struct CountingOwner: View {
    @InjectedObject(CountingObject()) var object
    var body: some View { Text("value \(object.value)") }
}

struct TickingParent: View {
    let switches: Switches
    var body: some View {
        VStack {
            Text("tick \(switches.tick)")
            if switches.flag { CountingOwner() }
        }
    }
}

struct Themed: View {
    @InjectedObservable(\.themedModel) var model
    var body: some View { Text(model.initialTheme) }
}

struct ThemedWithObject: View {
    @InjectedObject(\.themedObject) var object
    var body: some View { Text(object.initialTheme) }
}

struct GreetingTwice: View {
    let switches: Switches
    var body: some View {
        VStack {
            Text("tick \(switches.tick)")
            Greeting()
        }
    }
}

@MainActor
func objectScenarios(_ checks: Checks) {
    checks.run("one object per identity across re-renders") {
        CountingObject.made = 0
        let switches = Switches()
        let host = StandInHost()
        host.mount(TickingParent(switches: switches))
        for tick in 1...3 {
            switches.tick = tick
            host.render()
        }
        checks.expect(CountingObject.made, 1, "objects made")
        checks.expect(host.texts, ["tick 3", "value 0"])
    }

    checks.run("one resolved object per identity across re-renders") {
        let switches = Switches()
        let host = StandInHost()
        var made: [ObjectIdentifier] = []
        Container.shared.greetingModel.register {
            let model = GreetingModel()
            made.append(ObjectIdentifier(model))
            return model
        }
        host.mount(GreetingTwice(switches: switches))
        for tick in 1...3 {
            switches.tick = tick
            host.render()
        }
        checks.expect(made.count, 1, "models resolved")
    }

    checks.run("a new object after the view leaves and returns; the old one is released") {
        CountingObject.made = 0
        let switches = Switches()
        let host = StandInHost()
        host.mount(TickingParent(switches: switches))
        host.render()
        weak let first = CountingObject.last
        checks.expect(first == nil, false, "the first object exists")
        switches.flag = false
        host.render()
        checks.expect(host.texts, ["tick 0"])
        checks.expect(first == nil, true, "the first object is released when its view leaves")
        switches.flag = true
        host.render()
        checks.expect(CountingObject.made, 2, "objects made")
    }

    checks.run("objectWillChange re-evaluates the view") {
        let switches = Switches()
        let host = StandInHost()
        host.mount(TickingParent(switches: switches))
        host.render()
        checks.expect(host.invalidated.isEmpty, true, "nothing invalidated after rendering")
        CountingObject.last?.value = 1
        checks.expect(host.invalidated.count, 1, "views invalidated")
        host.render()
        checks.expect(host.texts, ["tick 0", "value 1"])
    }

    checks.run("reads in an @Observable model's init are not tracked as the view's") {
        let host = StandInHost()
        host.mount(Themed())
        host.render()
        checks.expect(host.texts, ["light"])
        Container.shared.theme().name = "dark"
        checks.expect(host.invalidated, [], "views invalidated")
    }

    checks.run("reads in an ObservableObject's init are not tracked as the view's") {
        let host = StandInHost()
        host.mount(ThemedWithObject())
        host.render()
        checks.expect(host.texts, ["light"])
        Container.shared.theme().name = "dark"
        checks.expect(host.invalidated, [], "views invalidated")
    }
}

@MainActor @Observable
final class CountingModel {
    nonisolated(unsafe) static var made = 0
    var value = 0
    init() { Self.made += 1 }
}

/// The forms the SwiftUI article uses: the object is the property's initial value.
struct InitialValueForms: View {
    @InjectedObservable var model = CountingModel()
    @InjectedObject var object = CountingObject()
    var body: some View { Text("\(model.value) \(object.value)") }
}

struct InitialValueParent: View {
    let switches: Switches
    var body: some View {
        VStack {
            Text("tick \(switches.tick)")
            InitialValueForms()
        }
    }
}

@MainActor
func initialValueScenarios(_ checks: Checks) {
    checks.run("`var model = Model()` forms make one object per identity across re-renders") {
        CountingModel.made = 0
        CountingObject.made = 0
        let switches = Switches()
        let host = StandInHost()
        host.mount(InitialValueParent(switches: switches))
        for tick in 1...3 {
            switches.tick = tick
            host.render()
        }
        checks.expect(CountingModel.made, 1, "@Observable models made")
        checks.expect(CountingObject.made, 1, "ObservableObjects made")
        checks.expect(host.texts, ["tick 3", "0 0"])
    }

    checks.run("a view shown in two windows has an object per window") {
        CountingModel.made = 0
        CountingObject.made = 0
        let host = StandInHost()
        let group = WindowGroup { InitialValueForms() }
        host.open(group)
        host.open(group)
        host.render()
        host.render()
        checks.expect(CountingModel.made, 2, "@Observable models made")
        checks.expect(CountingObject.made, 2, "ObservableObjects made")
    }
}
