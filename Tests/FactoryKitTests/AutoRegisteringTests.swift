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

/// One container type per `T`; only `Box<UInt8>` auto-registers.
final class Box<T>: ManagedContainer, @unchecked Sendable {
    let manager = ContainerManager()
    let runs = Counter()
    var label: Factory<String> { self { "\(T.self)" } }
}

extension Box: AutoRegistering where T == UInt8 {
    func autoRegister() {
        _ = runs.next()
        label.register { "auto" }
    }
}

struct AutoRegisteringTests {
    @Test func whetherAContainerAutoRegistersIsAnsweredPerType() {
        // FactoryKit remembers the container types that do not auto-register, in a few words that
        // types share; a type that does must still be seen to, whatever was remembered before.
        func check() {
            #expect(Box<Int>().label() == "Int")
            #expect(Box<String>().label() == "String")
            #expect(Box<Double>().label() == "Double")
            #expect(Box<[Int]>().label() == "Array<Int>")
            #expect(Box<Int8>().label() == "Int8")
            #expect(Box<Int16>().label() == "Int16")
            #expect(Box<Int32>().label() == "Int32")
            #expect(Box<UInt16>().label() == "UInt16")
            #expect(Box<UInt32>().label() == "UInt32")
            #expect(Box<Bool>().label() == "Bool")
            for _ in 0..<2 {
                let registering = Box<UInt8>()
                #expect(registering.label() == "auto")
                #expect(registering.runs.count == 1)
            }
            let auto = AutoContainer()
            #expect(auto.autoGreeter().text == "auto")
        }
        check()
        check()  // now with the plain types remembered
    }

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
