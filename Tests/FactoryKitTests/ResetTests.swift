import FactoryKit
import FactoryTesting
import Testing

let resetCounter = Counter()

extension Container {
    var resetCached: Factory<Counted> { self { Counted(resetCounter) }.cached }
    var resetSingleton: Factory<Counted> { self { Counted(resetCounter) }.singleton }
    var resetGreeter: Factory<any Greeting> { self { Greeter("original") } }
    var resetCachedGreeter: Factory<any Greeting> { self { Greeter("original") }.cached }
    var resetDefaultScoped: Factory<any Greeting> { self { Greeter("original") } }
}

@Suite(.container)
struct ResetTests {
    @Test func containerResetAllClearsRegistrationsAndCaches() {
        let cached = Container.shared.resetCached()
        Container.shared.resetGreeter.register { MockGreeter() }
        Container.shared.reset()
        #expect(Container.shared.resetGreeter().text == "original")
        #expect(Container.shared.resetCached() !== cached)
    }

    @Test func resetRegistrationKeepsCachedValues() {
        // API.md §16 (3).
        Container.shared.resetCachedGreeter.register { MockGreeter("mock") }
        let mock = Container.shared.resetCachedGreeter()
        Container.shared.manager.reset(options: .registration)
        #expect(Container.shared.resetCachedGreeter() === mock)
        Container.shared.manager.reset(options: .scope)
        #expect(Container.shared.resetCachedGreeter().text == "original")
    }

    @Test func resetContextRemovesOverridesOnly() {
        Container.shared.resetGreeter.onArg("reset-context-arg") { MockGreeter("arg") }
        Container.shared.resetGreeter.register { MockGreeter("registered") }
        FactoryContext.setArg("reset-context-arg", forKey: "reset-context")
        defer { FactoryContext.removeArg(forKey: "reset-context") }
        #expect(resolvingShadowedRegistration { Container.shared.resetGreeter() }.text == "arg")
        Container.shared.manager.reset(options: .context)
        #expect(Container.shared.resetGreeter().text == "registered")
    }

    @Test func resetNoneDoesNothing() {
        Container.shared.resetGreeter.register { MockGreeter("kept") }
        Container.shared.manager.reset(options: .none)
        #expect(Container.shared.resetGreeter().text == "kept")
    }

    @Test func containerResetKeepsSingletons() {
        // API.md §16 (5).
        let singleton = Container.shared.resetSingleton()
        Container.shared.reset()
        #expect(Container.shared.resetSingleton() === singleton)
    }

    @Test func factoryResetAllRemovesRegistrationAndCachedValue() {
        Container.shared.resetCachedGreeter.register { MockGreeter("mock") }
        let mock = Container.shared.resetCachedGreeter()
        Container.shared.resetCachedGreeter.reset()
        let fresh = Container.shared.resetCachedGreeter()
        #expect(fresh !== mock)
        #expect(fresh.text == "original")
    }

    @Test func factoryResetAllClearsASingleton() {
        let singleton = Container.shared.resetSingleton()
        Container.shared.resetSingleton.reset()
        #expect(Container.shared.resetSingleton() !== singleton)
    }

    @Test func factoryResetRegistrationKeepsTheCachedMock() {
        Container.shared.resetCachedGreeter.register { MockGreeter("mock") }
        let mock = Container.shared.resetCachedGreeter()
        Container.shared.resetCachedGreeter.reset(.registration)
        #expect(Container.shared.resetCachedGreeter() === mock)
        Container.shared.resetCachedGreeter.reset(.scope)
        #expect(Container.shared.resetCachedGreeter().text == "original")
    }

    @Test func factoryResetScopeUsesTheEffectiveScope() {
        // API.md D5: with a default singleton scope, reset(.scope) must clear the singleton.
        Container.shared.manager.defaultScope = Scope.singleton
        let first = Container.shared.resetDefaultScoped()
        #expect(Container.shared.resetDefaultScoped() === first)
        Container.shared.resetDefaultScoped.reset(.scope)
        #expect(Container.shared.resetDefaultScoped() !== first)
    }

    @Test func factoryResetContextAndNone() {
        Container.shared.resetGreeter.onArg("reset-factory-context") { MockGreeter("arg") }
        FactoryContext.setArg("reset-factory-context", forKey: "reset-factory-context")
        defer { FactoryContext.removeArg(forKey: "reset-factory-context") }
        Container.shared.resetGreeter.reset(.none)
        #expect(Container.shared.resetGreeter().text == "arg")
        Container.shared.resetGreeter.reset(.context)
        #expect(Container.shared.resetGreeter().text == "original")
    }

    @Test func pushAndPopRestoreRegistrationsAndCaches() {
        Container.shared.resetGreeter.register { MockGreeter("before") }
        let cached = Container.shared.resetCached()
        Container.shared.manager.push()
        Container.shared.resetGreeter.register { MockGreeter("after") }
        Container.shared.manager.reset(options: .scope)
        let recached = Container.shared.resetCached()
        #expect(recached !== cached)
        #expect(Container.shared.resetGreeter().text == "after")
        Container.shared.manager.pop()
        #expect(Container.shared.resetGreeter().text == "before")
        #expect(Container.shared.resetCached() === cached)
    }

    @Test func pushAndPopLeaveSingletonsAlone() {
        Container.shared.manager.push()
        let singleton = Container.shared.resetSingleton()
        Container.shared.manager.pop()
        #expect(Container.shared.resetSingleton() === singleton)
    }

    @Test func popWithoutPushChangesNothingAndSaysSo() {
        let mark = TestLog.mark()
        Container.shared.resetGreeter.register { MockGreeter("kept") }
        Container.shared.manager.pop()
        #expect(Container.shared.resetGreeter().text == "kept")
        #expect(TestLog.lines(since: mark).contains { $0.contains("pop() without a matching push()") })
    }

    @Test func resetsNeverTouchValuesAlreadyHandedOut() {
        let value = Container.shared.resetCached()
        Container.shared.reset()
        #expect(value.number > 0)
    }
}
