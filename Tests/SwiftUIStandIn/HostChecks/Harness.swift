// A minimal harness: `.ci/check-swiftui` runs this executable, which runs FactoryKit's real
// SwiftUI files in the stand-in host (Tests/SwiftUIStandIn/SwiftUI/Host.swift) and exits with
// a failure if any expectation does not hold.

import FactoryKit
import SwiftUI

@MainActor
final class Checks {
    private(set) var failures = 0
    private var current = ""

    /// Runs one scenario in a fresh `Container.shared`, so that scenarios do not see each other.
    func run(_ name: String, _ scenario: () -> Void) {
        current = name
        let before = failures
        Container.$shared.withValue(Container()) { scenario() }
        print(failures == before ? "passed: \(name)" : "FAILED: \(name)")
    }

    func expect<T: Equatable>(
        _ actual: T, _ expected: T, _ what: String = "", file: StaticString = #file, line: UInt = #line
    ) {
        guard actual != expected else { return }
        failures += 1
        print("  \(file):\(line): \(what) expected \(expected), got \(actual)")
    }
}
