import FactoryKit
import FactoryTesting
import Testing

final class ResolvingContainer: SharedContainer, Resolving {
    @TaskLocal static var shared = ResolvingContainer()
    let manager = ContainerManager()
}

struct ResolvingTests {
    @Test func registerAndResolveByType() {
        let container = ResolvingContainer()
        container.register { Greeter("by type") }
        let greeter: Greeter? = container.resolve()
        #expect(greeter?.text == "by type")
        #expect(container.resolve(Greeter.self)?.text == "by type")
    }

    @Test func unregisteredTypeResolvesToNil() {
        let container = ResolvingContainer()
        #expect(container.resolve(Greeter.self) == nil)
        #expect(container.factory(Greeter.self) == nil)
    }

    @Test func lookupsMatchTheExactRegisteredType() {
        let container = ResolvingContainer()
        container.register(Greeter.self) { Greeter() }
        #expect(container.resolve((any Greeting).self) == nil)
    }

    @Test func registrationReturnsAFactoryForModifiers() {
        Scope.$singleton.withValue(Scope.Singleton()) {
            let container = ResolvingContainer()
            _ = container.register { Counted(Counter()) }.singleton
            let first = container.resolve(Counted.self)
            #expect(first != nil)
            #expect(container.resolve(Counted.self) === first)
            #expect(container.factory(Counted.self)?() === first)
        }
    }

    @Test func injectedTypeResolvesFromAResolvingContainer() {
        let container = ResolvingContainer()
        container.register { Greeter("injected type") }
        struct Holder {
            var greeter: InjectedType<Greeter>
        }
        let holder = Holder(greeter: InjectedType(container))
        #expect(holder.greeter.wrappedValue?.text == "injected type")
        @InjectedType var fromShared: Greeter?
        #expect(fromShared == nil)  // Container is not Resolving
    }
}
