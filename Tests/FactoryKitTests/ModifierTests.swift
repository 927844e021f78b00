import FactoryKit
import FactoryTesting
import Foundation
import Testing

let modifierCounter = Counter()

extension Container {
    var modifierPlain: Factory<any Greeting> { self { Greeter("plain") } }
    var modifierCached: Factory<any Greeting> { self { Greeter("cached") }.cached }
    var modifierDecorated: Factory<Counted> {
        self { Counted(modifierCounter) }.cached.decorator { _, _ in }
    }
    var modifierOnce: Factory<any Greeting> {
        self { Greeter("definition") }.cached.onArg("modifier-once-arg") { MockGreeter("arg") }.once()
    }
    /// The same shape as `modifierOnce`, with an argument only `onceBlocksModifiersBeforeItOnLaterAccesses`
    /// sets, so the two tests can run in parallel.
    var modifierOnceBlocked: Factory<any Greeting> {
        self { Greeter("definition") }.cached.onArg("modifier-once-blocked") { MockGreeter("arg") }.once()
    }
    var modifierArg: Factory<any Greeting> {
        self { Greeter("plain") }.onArg("modifier-arg-light") { MockGreeter("light") }
    }
    var modifierArgs: Factory<any Greeting> {
        self { Greeter("plain") }.onArgs(["modifier-args-a", "modifier-args-b"]) { MockGreeter("args") }
    }
    var modifierParameterArg: ParameterFactory<Int, String> {
        self { "plain \($0)" }.onArg("modifier-parameter-arg") { "arg \($0)" }
    }
}

@Suite(.container)
struct ModifierTests {
    @Test func factoryDecoratorSeesEveryResolutionAndWhetherItWasCreated() {
        let recorder = LogRecorder()
        let factory = Container.shared.modifierCached.decorator { value, instantiated in
            recorder.record("\(value.text) \(instantiated)")
        }
        _ = factory()
        _ = factory()
        #expect(recorder.lines == ["cached true", "cached false"])
    }

    @Test func oneArgumentDecorator() {
        let recorder = LogRecorder()
        Container.shared.modifierPlain.decorator { recorder.record($0.text) }
        _ = Container.shared.modifierPlain()
        #expect(recorder.lines == ["plain"])
    }

    @Test func containerDecoratorSeesEveryResolutionUnlessTheFactoryHasItsOwn() {
        let recorder = LogRecorder()
        Container.shared.decorator { recorder.record("container \(($0 as? any Greeting)?.text ?? "other")") }
        _ = Container.shared.modifierPlain()
        #expect(recorder.lines == ["container plain"])
        // API.md §16 (9): a factory decorator replaces the container decorator.
        Container.shared.modifierPlain.decorator { recorder.record("factory \($0.text)") }
        _ = Container.shared.modifierPlain()
        #expect(recorder.lines == ["container plain", "factory plain"])
        Container.shared.decorator(nil)
        _ = Container.shared.modifierCached()
        #expect(recorder.lines.count == 2)
    }

    @Test func argumentContextOverridesWhenTheArgumentIsSet() {
        #expect(Container.shared.modifierArg().text == "plain")
        FactoryContext.setArg("modifier-arg-light", forKey: "modifier-theme")
        defer { FactoryContext.removeArg(forKey: "modifier-theme") }
        #expect(Container.shared.modifierArg().text == "light")
    }

    @Test func argsContextMatchesAnyOfItsArguments() {
        FactoryContext.setArg("modifier-args-b", forKey: "modifier-args")
        defer { FactoryContext.removeArg(forKey: "modifier-args") }
        #expect(Container.shared.modifierArgs().text == "args")
    }

    @Test func parameterFactoryContextOverrideGetsTheParameter() {
        FactoryContext.setArg("modifier-parameter-arg", forKey: "modifier-parameter")
        defer { FactoryContext.removeArg(forKey: "modifier-parameter") }
        #expect(Container.shared.modifierParameterArg(7) == "arg 7")
    }

    @Test func contextBeatsRegistration() {
        // A factory and an argument of its own: runtime arguments are process-wide.
        let factory = Factory<any Greeting>(Container.shared, key: "modifierContextBeats") { Greeter("plain") }
            .onArg("modifier-context-beats") { MockGreeter("light") }
        factory.register { MockGreeter("registered") }
        #expect(factory().text == "registered")
        FactoryContext.setArg("modifier-context-beats", forKey: "modifier-context-beats")
        defer { FactoryContext.removeArg(forKey: "modifier-context-beats") }
        #expect(resolvingShadowedRegistration { factory() }.text == "light")
    }

    @Test func contextsNeverClearACachedValue() {
        // API.md §16 (2).
        let factory = Container.shared.modifierCached
        let first = factory()
        _ = factory.onArg("modifier-never-clears") { MockGreeter("arg") }
        FactoryContext.setArg("modifier-never-clears", forKey: "modifier-never-clears")
        defer { FactoryContext.removeArg(forKey: "modifier-never-clears") }
        #expect(factory() === first)
    }

    @Test func definitionModifiersWinOnEveryAccess() {
        // API.md §16 (1): `.unique` from outside is overwritten by the definition's `.cached`.
        _ = Container.shared.modifierCached.unique
        let first = Container.shared.modifierCached()
        #expect(Container.shared.modifierCached() === first)
    }

    @Test func onceLetsOutsideChangesStick() {
        let first = Container.shared.modifierOnce()
        #expect(first.text == "definition")
        #expect(Container.shared.modifierOnce() === first)
        _ = Container.shared.modifierOnce.unique
        #expect(Container.shared.modifierOnce() !== Container.shared.modifierOnce())
        Container.shared.modifierOnce.register { MockGreeter("registered") }
        #expect(Container.shared.modifierOnce().text == "registered")
        Container.shared.modifierOnce.reset()
        let again = Container.shared.modifierOnce()
        #expect(again.text == "definition")
        #expect(Container.shared.modifierOnce() === again)
    }

    @Test func onceBlocksModifiersBeforeItOnLaterAccesses() {
        _ = Container.shared.modifierOnceBlocked()
        FactoryContext.setArg("modifier-once-blocked", forKey: "modifier-once-blocked")
        defer { FactoryContext.removeArg(forKey: "modifier-once-blocked") }
        // The override was written on the first access; a reset of contexts removes it for good.
        Container.shared.modifierOnceBlocked.reset(.context)
        Container.shared.modifierOnceBlocked.reset(.scope)
        #expect(Container.shared.modifierOnceBlocked().text == "definition")
    }

    @Test func timeToLiveOnUniqueDoesNothing() {
        let factory = Container.shared.modifierPlain.timeToLive(10)
        #expect(factory() !== factory())
    }

}
