import FactoryKit
import Foundation
import Testing

final class AutoContainer: SharedContainer, AutoRegistering {
    @TaskLocal static var shared = AutoContainer()
    let manager = ContainerManager()
    let runs = Counter()
    let slow: Bool

    init(slow: Bool = false) { self.slow = slow }

    var autoPromised: Factory<(any Greeting)?> { promised() }
    var autoGreeter: Factory<any Greeting> { self { Greeter("definition") } }
    var autoCached: Factory<Counted> { self { Counted(self.runs) }.cached }

    func autoRegister() {
        _ = runs.next()
        if slow { Thread.sleep(forTimeInterval: 0.2) }
        autoPromised.register { MockGreeter("auto") }
        autoGreeter.register { MockGreeter("auto") }
        // Resolving and registering on the same container from autoRegister() is allowed.
        _ = autoCached()
        autoCached.register { Counted(Counter()) }
    }
}

struct AutoRegisteringTests {
    @Test func runsOnceBeforeFirstUse() {
        let container = AutoContainer()
        #expect(container.runs.count == 0)
        _ = container.autoGreeter
        #expect(container.runs.count == 0)  // building a Factory value has no effect
        #expect(container.autoPromised()?.text == "auto")
        #expect(container.autoGreeter().text == "auto")
        #expect(container.runs.count == 2)  // one autoRegister() run + one cached creation
    }

    @Test func registrationInsideAutoRegisterKeepsCachedValues() {
        // API.md §16 (4).
        let container = AutoContainer()
        let cached = container.autoCached()
        #expect(cached.number == 2)
        #expect(container.autoCached() === cached)
    }

    @Test func aRegistrationByTheCallerBeatsAutoRegistration() {
        let container = AutoContainer()
        container.autoGreeter.register { MockGreeter("caller") }
        #expect(container.autoGreeter().text == "caller")
    }

    @Test func rearmedByResetAllAndResetRegistration() {
        let container = AutoContainer()
        _ = container.autoGreeter()
        container.manager.reset(options: .registration)
        _ = container.autoGreeter()
        container.reset()
        _ = container.autoGreeter()
        container.manager.reset(options: .scope)
        _ = container.autoGreeter()
        #expect(container.runs.count == 3 + 2)  // three runs, each resolving autoCached once (reset(.all) dropped it)
    }

    @Test func otherThreadsWaitForAutoRegistration() {
        let container = AutoContainer(slow: true)
        let texts = LogRecorder()
        runConcurrently(6) { _ in texts.record(container.autoGreeter().text) }
        #expect(Set(texts.lines) == ["auto"])
        #expect(container.runs.count == 2)
    }
}
