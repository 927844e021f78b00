import FactoryKit
import FactoryTesting
import Foundation
import Testing

let wrapperCounter = Counter()

extension Container {
    var wrapperGreeter: Factory<any Greeting> { self { Greeter("wrapped") } }
    var wrapperCounted: Factory<Counted> { self { Counted(wrapperCounter) } }
    var wrapperShared: Factory<Counted> { self { Counted(wrapperCounter) }.shared }
    var wrapperPoint: Factory<Point> { self { Point(x: 3, y: 4) } }
}

final class WrapperContainer: SharedContainer {
    @TaskLocal static var shared = WrapperContainer()
    let manager = ContainerManager()
    var wrapperText: Factory<String> { self { "custom container" } }
}

final class InjectedHolder {
    @Injected(\.wrapperGreeter) var greeter
    @Injected(\WrapperContainer.wrapperText) var text
}

final class LazyHolder: @unchecked Sendable {
    @LazyInjected(\.wrapperCounted) var counted
    @LazyInjected(\WrapperContainer.wrapperText) var text
}

final class WeakHolderOwner {
    @WeakLazyInjected(\.wrapperShared) var shared
    @WeakLazyInjected(\.wrapperPoint) var point
    @WeakLazyInjected(\WrapperContainer.wrapperText) var text
}

struct ContainerHolder {
    @InjectedContainer var container
    @InjectedContainer(WrapperContainer.self) var custom

    mutating func resetContainer() { _container.reset(options: .registration) }
}

final class DynamicHolder {
    @DynamicInjected(\.wrapperGreeter) var greeter
    @DynamicInjected(\WrapperContainer.wrapperText) var text
}

@Suite(.container)
struct PropertyWrapperTests {
    @Test func injectedResolvesAtInit() {
        Container.shared.wrapperGreeter.register { MockGreeter("at init") }
        let holder = InjectedHolder()
        Container.shared.wrapperGreeter.register { MockGreeter("later") }
        #expect(holder.greeter.text == "at init")
        #expect(holder.text == "custom container")
    }

    @Test func injectedProjectedValueResolvesAgain() {
        let holder = InjectedHolder()
        Container.shared.wrapperGreeter.register { MockGreeter("again") }
        #expect(holder.$greeter.factory().text == "again")
        holder.$greeter.resolve()
        #expect(holder.greeter.text == "again")
        holder.$greeter.resolve(reset: .registration)
        #expect(holder.greeter.text == "wrapped")
        holder.greeter = MockGreeter("assigned")
        #expect(holder.greeter.text == "assigned")
    }

    @Test func lazyInjectedResolvesOnFirstReadOnly() {
        let holder = LazyHolder()
        #expect(holder.$counted.resolvedOrNil() == nil)
        let first = holder.counted
        #expect(holder.$counted.resolvedOrNil() === first)
        #expect(holder.counted === first)
        holder.$counted.resolve()
        #expect(holder.counted !== first)
        #expect(holder.text == "custom container")
        #expect(holder.$counted.factory() !== first)
    }

    @Test func lazyInjectedCopiesShareTheValue() {
        struct Wrapper {
            @LazyInjected(\.wrapperCounted) var counted
        }
        let original = Wrapper()
        let copy = original
        #expect(original.counted === copy.counted)
    }

    @Test func lazyInjectedAssignmentMarksItResolved() {
        let holder = LazyHolder()
        let counter = Counter()
        let assigned = Counted(counter)
        holder.counted = assigned
        #expect(holder.counted === assigned)
    }

    @Test func lazyInjectedResolvesOnceUnderConcurrentFirstReads() {
        let counter = Counter()
        let container = Container()
        container.wrapperCounted.register {
            // Long enough for every other thread to arrive while the first one resolves.
            Thread.sleep(forTimeInterval: 0.1)
            return Counted(counter)
        }
        Container.$shared.withValue(container) {
            let holder = LazyHolder()
            let seen = LogRecorder()
            runConcurrently(8) { _ in
                Container.$shared.withValue(container) {
                    seen.record("\(ObjectIdentifier(holder.counted).hashValue)")
                }
            }
            #expect(counter.count == 1)
            #expect(Set(seen.lines).count == 1)
        }
    }

    @Test func weakLazyInjectedHoldsWeaklyAndDoesNotResolveAgain() {
        let owner = WeakHolderOwner()
        var strong: Counted? = owner.shared
        #expect(strong != nil)
        #expect(owner.$shared.resolvedOrNil() === strong)
        strong = nil
        // API.md §16 (11): after release it stays nil until resolved again.
        #expect(owner.shared == nil)
        #expect(owner.$shared.resolvedOrNil() == nil)
        owner.$shared.resolve()
        let again = owner.$shared.resolvedOrNil()
        #expect(again == nil)  // a shared-scoped value nobody holds is released at once
        _ = strong
    }

    @Test func weakLazyInjectedKeepsValueTypes() {
        // API.md D18: a value type used to read nil forever.
        let owner = WeakHolderOwner()
        #expect(owner.point == Point(x: 3, y: 4))
        #expect(owner.text == "custom container")
    }

    @Test func weakLazyInjectedAssignment() {
        let owner = WeakHolderOwner()
        let value = Counted(Counter())
        owner.shared = value
        #expect(owner.shared === value)
        #expect(owner.$shared.factory() !== value)
    }

    @Test func dynamicInjectedResolvesOnEveryRead() {
        let holder = DynamicHolder()
        #expect(holder.greeter.text == "wrapped")
        holder.$greeter.register { MockGreeter("dynamic") }
        #expect(holder.greeter.text == "dynamic")
        #expect(holder.text == "custom container")
    }

    @Test func injectedContainerCapturesShared() {
        var holder = ContainerHolder()
        #expect(holder.container === Container.shared)
        #expect(holder.custom === WrapperContainer.shared)
        holder.container.wrapperGreeter.register { MockGreeter("captured") }
        holder.resetContainer()
        #expect(Container.shared.wrapperGreeter().text == "wrapped")
        let other = Container()
        holder.container = other
        #expect(holder.container === other)
    }

    @Test func wrappersHonourTaskLocalContainers() {
        let other = WrapperContainer()
        other.manager.push()
        WrapperContainer.$shared.withValue(other) {
            other.wrapperText.register { "task-local" }
            #expect(InjectedHolder().text == "task-local")
            #expect(LazyHolder().text == "task-local")
            #expect(DynamicHolder().text == "task-local")
        }
        #expect(InjectedHolder().text == "custom container")
    }
}
