import FactoryKit
import FactoryTesting
import Testing

extension Container {
    var resolutionGreeter: Factory<any Greeting> { self { Greeter() } }
    var resolutionNamed: ParameterFactory<String, any Greeting> { self { Greeter($0) } }
    var resolutionExplicit: Factory<any Greeting> { Factory(self) { Greeter("explicit") } }
    var resolutionKeyed: Factory<String> { Factory(self, key: "custom") { "keyed" } }
    func resolutionMethod(id: Int) -> Factory<String> { self { "method \(id)" } }
}

@Suite(.container)
struct ResolutionTests {
    @Test func callAsFunctionAndResolveRunTheClosure() {
        #expect(Container.shared.resolutionGreeter().text == "hello")
        #expect(Container.shared.resolutionGreeter.resolve().text == "hello")
        #expect(Container.shared.resolutionExplicit().text == "explicit")
    }

    @Test func uniqueIsTheDefaultScope() {
        let first = Container.shared.resolutionGreeter()
        let second = Container.shared.resolutionGreeter()
        #expect(first !== second)
    }

    @Test func parameterFactoryPassesItsParameter() {
        #expect(Container.shared.resolutionNamed("a").text == "a")
        #expect(Container.shared.resolutionNamed.resolve("b").text == "b")
    }

    @Test func registerReplacesTheClosure() {
        Container.shared.resolutionGreeter.register { MockGreeter() }
        #expect(Container.shared.resolutionGreeter().text == "mock")
    }

    @Test func callAsFunctionWithAClosureRegisters() {
        Container.shared.resolutionGreeter { MockGreeter("sugar") }
        #expect(Container.shared.resolutionGreeter().text == "sugar")
        Container.shared.resolutionNamed { MockGreeter("p-\($0)") }
        #expect(Container.shared.resolutionNamed("x").text == "p-x")
    }

    @Test func sharedContainerBatchConfiguration() {
        Container.shared {
            $0.resolutionGreeter { MockGreeter("batch") }
        }
        #expect(Container.shared.resolutionGreeter().text == "batch")
    }

    @Test func asyncBatchConfigurationReturnsTheContainer() async {
        let container = await Container.shared { @Sendable container async in
            container.resolutionGreeter { MockGreeter("async batch") }
        }
        #expect(container === Container.shared)
        #expect(Container.shared.resolutionGreeter().text == "async batch")
    }

    @Test func registrationsBelongToTheContainerInstance() {
        let other = Container()
        other.resolutionGreeter.register { MockGreeter("other") }
        #expect(other.resolutionGreeter().text == "other")
        #expect(Container.shared.resolutionGreeter().text == "hello")
    }

    @Test func explicitKeyIsUsedForRegistration() {
        Container.shared.resolutionKeyed.register { "registered" }
        #expect(Factory<String>(Container.shared, key: "custom") { "other" }() == "registered")
    }

    @Test func methodFactoriesShareOneKey() {
        // API.md §16 (8): all arguments of a method-style factory share one registration.
        Container.shared.resolutionMethod(id: 1).register { "registered" }
        #expect(Container.shared.resolutionMethod(id: 2)() == "registered")
    }

    @Test func registeredClosureCanUseTheContainerWithoutCapturingIt() {
        let container = Container()
        container.register(\.resolutionGreeter) { container in
            MockGreeter("from \(container.resolutionNamed("x").text)")
        }
        #expect(container.resolutionGreeter().text == "from x")
        container.register(\.resolutionNamed) { container, name in MockGreeter("\(name)+\(container.resolutionKeyed())")
        }
        #expect(container.resolutionNamed("n").text == "n+keyed")
    }

    @Test func dependencyFunctionsResolveFromShared() {
        Container.shared.resolutionGreeter.register { MockGreeter("dep") }
        let greeter: any Greeting = dependency(\.resolutionGreeter)
        #expect(greeter.text == "dep")
        #expect(dependency(\.resolutionNamed, parameter: "param").text == "param")
        #expect(dependency(\Container.resolutionGreeter).text == "dep")
        #expect(dependency(\Container.resolutionNamed, parameter: "q").text == "q")
    }

    @Test func taskLocalSharedIsHonoured() {
        let inner = Container()
        inner.resolutionGreeter.register { MockGreeter("inner") }
        Container.$shared.withValue(inner) {
            #expect(Container.shared.resolutionGreeter().text == "inner")
            #expect(dependency(\.resolutionGreeter).text == "inner")
        }
        #expect(Container.shared.resolutionGreeter().text == "hello")
    }
}
