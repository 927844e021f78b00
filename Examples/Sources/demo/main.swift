import FactoryKit
import Foundation

// A short tour of FactoryKit. Run it with `swift run --package-path Examples demo`.

print("1. Resolve a dependency graph:")
print("  " + Container.shared.greeter().greet("Ada"))

print("\n2. Singletons are created once, even when 8 threads ask at the same time:")
DispatchQueue.concurrentPerform(iterations: 8) { _ in _ = Container.shared.logger() }
print("  same logger everywhere: \(Container.shared.logger() === Container.shared.logger())")

print("\n3. Swap a seam for a fake (here a fixed clock), in a container of its own:")
let morning = Date(timeIntervalSince1970: 8 * 3600)
let test = Container()
test.clock.register { FixedClock(date: morning) }
Container.$shared.withValue(test) {
    print("  " + Container.shared.greeterFor("Grace"))
}

print("\n4. Trace what a resolution builds:")
Container.shared.manager.trace = true
_ = Container.shared.greeter()
Container.shared.manager.trace = false
