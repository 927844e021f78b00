import FactoryKit
import Foundation

// Every factory of the demo, in one place: the composition root.

protocol Clock: Sendable {
    func now() -> Date
}

struct SystemClock: Clock {
    func now() -> Date { Date() }
}

struct FixedClock: Clock {
    let date: Date
    func now() -> Date { date }
}

final class Logger: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var lines: [String] = []

    func log(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
        print("  log: \(line)")
    }
}

struct Greeter: Sendable {
    let clock: any Clock
    let logger: Logger

    func greet(_ name: String) -> String {
        let hour = Calendar(identifier: .gregorian).component(.hour, from: clock.now())
        let greeting = hour < 12 ? "Good morning" : "Good afternoon"
        logger.log("greeted \(name)")
        return "\(greeting), \(name)!"
    }
}

extension Container {
    var clock: Factory<any Clock> { self { SystemClock() } }
    var logger: Factory<Logger> { self { Logger() }.singleton }
    var greeter: Factory<Greeter> { self { Greeter(clock: self.clock(), logger: self.logger()) } }
    var greeterFor: ParameterFactory<String, String> { self { name in self.greeter().greet(name) } }
}
