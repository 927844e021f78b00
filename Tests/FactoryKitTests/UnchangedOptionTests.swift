import FactoryKit
import Foundation
import Testing

extension Container {
    var unchangedArgument: Factory<any Greeting> {
        self { Greeter("definition") }.onArg("unchanged-argument") { MockGreeter("definition's override") }
    }
    var unchangedSingleton: Factory<any Greeting> {
        self { Greeter("definition") }.singleton.timeToLive(3600).onArg("unchanged-singleton") { MockGreeter("arg") }
    }
    var unchangedPlain: Factory<any Greeting> { self { Greeter("plain") } }
    var unchangedOther: Factory<any Greeting> { self { Greeter("other") } }
}

/// Writes to the container it holds when it is released: a value captured by an override closure
/// that uses the container in its `deinit`.
private final class WritesOnRelease: @unchecked Sendable {
    let container: Container
    init(_ container: Container) { self.container = container }
    deinit { container.unchangedOther.register { Greeter("written while released") } }
}

/// A definition re-applies its modifiers on every access. Re-applying what is stored already (the
/// same override closure for the same context, the same scope, time to live or `once`) must change
/// nothing, while anything that differs still replaces what is stored: the definition wins.
///
/// Serialized: its tests set the same launch argument, and `FactoryContext` is process-wide.
@Suite(.serialized)
struct UnchangedOptionTests {
    /// Runs `body` with `argument` set, then removes it.
    private func with(argument: String, _ body: () -> Void) {
        FactoryContext.setArg(argument, forKey: argument)
        defer { FactoryContext.removeArg(forKey: argument) }
        body()
    }

    @Test func aDefinitionReappliedOnEveryAccessKeepsItsOverrideWorking() {
        let container = Container()
        for _ in 0..<3 { #expect(container.unchangedArgument().text == "definition") }
        with(argument: "unchanged-argument") {
            for _ in 0..<3 { #expect(container.unchangedArgument().text == "definition's override") }
        }
        #expect(container.unchangedArgument().text == "definition")
    }

    @Test func theDefinitionStillWinsOverAnOverrideOfTheSameContextFromOutside() {
        let container = Container()
        with(argument: "unchanged-argument") {
            container.unchangedArgument.onArg("unchanged-argument") { MockGreeter("outside") }
            // Not re-applied: the value of the access above, resolved as it stands.
            let factory = container.unchangedArgument
            #expect(factory().text == "definition's override")
            let outside = factory.onArg("unchanged-argument") { MockGreeter("outside") }
            #expect(outside().text == "outside")
            #expect(container.unchangedArgument().text == "definition's override")
        }
    }

    @Test func aClosureCapturingOtherValuesReplacesTheOverride() {
        let container = Container()
        func override(with label: String) {
            container.unchangedPlain.onArg("unchanged-captures") { MockGreeter(label) }
        }
        with(argument: "unchanged-captures") {
            override(with: "first")
            #expect(container.unchangedPlain().text == "first")
            override(with: "second")
            #expect(container.unchangedPlain().text == "second")
            override(with: "second")
            #expect(container.unchangedPlain().text == "second")
        }
    }

    @Test func theSameClosureValueStoredTwiceStillWorks() {
        let container = Container()
        let make: @Sendable () -> any Greeting = { MockGreeter("stored") }
        container.unchangedPlain.context(.arg("unchanged-stored"), .device, factory: make)
        container.unchangedPlain.context(.arg("unchanged-stored"), .device, factory: make)
        #expect(container.unchangedPlain().text == "stored")
        container.unchangedPlain.reset(.context)
        #expect(container.unchangedPlain().text == "plain")
    }

    @Test func aSingletonKeepsItsValueWhileItsDefinitionIsReapplied() {
        Scope.$singleton.withValue(Scope.Singleton()) {
            let container = Container()
            let first = container.unchangedSingleton()
            for _ in 0..<5 { #expect(container.unchangedSingleton() === first) }
            // Contexts never clear a cached value, re-applied or not.
            with(argument: "unchanged-singleton") { #expect(container.unchangedSingleton() === first) }
        }
    }

    @Test func aReplacedOverrideIsReleasedWithNoLockHeld() {
        // Its closure's captured values may use the container in their `deinit`; released under
        // the container's lock, that would lock it again.
        let container = Container()
        do {
            let token = WritesOnRelease(container)
            container.unchangedPlain.onArg("unchanged-released") {
                withExtendedLifetime(token) { MockGreeter("captured") }
            }
        }
        container.unchangedPlain.onArg("unchanged-released") { MockGreeter("replacement") }
        #expect(container.unchangedOther().text == "written while released")
        with(argument: "unchanged-released") { #expect(container.unchangedPlain().text == "replacement") }
    }

    @Test func aReplacedRegistrationIsReleasedWithNoLockHeld() {
        let container = Container()
        do {
            let token = WritesOnRelease(container)
            container.unchangedPlain.register { withExtendedLifetime(token) { MockGreeter("captured") } }
            _ = container.unchangedPlain()  // the frozen options share the registration
        }
        container.unchangedPlain.register { MockGreeter("replacement") }
        #expect(container.unchangedOther().text == "written while released")
        #expect(container.unchangedPlain().text == "replacement")
    }

    @Test(arguments: [FactoryResetOptions.registration, .context, .all])
    func closuresAResetDropsAreReleasedWithNoLockHeld(options: FactoryResetOptions) {
        for resetsTheContainer in [false, true] {
            let container = Container()
            do {
                // Captured only by what the reset drops.
                let token = WritesOnRelease(container)
                if options != .context {
                    container.unchangedPlain.register { withExtendedLifetime(token) { MockGreeter("captured") } }
                }
                if options != .registration {
                    container.unchangedPlain.onArg("unchanged-reset") {
                        withExtendedLifetime(token) { MockGreeter("override") }
                    }
                }
                _ = container.unchangedPlain()
            }
            if resetsTheContainer {
                container.manager.reset(options: options)
            } else {
                container.unchangedPlain.reset(options)
            }
            // Released after the lock, or the release would have trapped on the recursive lock.
            #expect(container.unchangedOther().text == "written while released")
        }
    }

    @Test func aReplacedDecoratorIsReleasedWithNoLockHeld() {
        let container = Container()
        let seen = LogRecorder()
        do {
            let token = WritesOnRelease(container)
            container.unchangedPlain.decorator { _ in withExtendedLifetime(token) {} }
        }
        container.unchangedPlain.decorator { seen.record($0.text) }
        #expect(container.unchangedOther().text == "written while released")
        _ = container.unchangedPlain()
        #expect(seen.lines == ["plain"])
    }

    @Test func theSameDecoratorValueStoredTwiceRunsOnce() {
        let container = Container()
        let seen = LogRecorder()
        let decorate: @Sendable (any Greeting) -> Void = { seen.record($0.text) }
        container.unchangedPlain.decorator(decorate)
        container.unchangedPlain.decorator(decorate)
        _ = container.unchangedPlain()
        #expect(seen.lines == ["plain"])
    }
}
