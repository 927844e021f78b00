import FactoryKit
import FactoryTesting
import Foundation
import Testing

struct ValidationFailure: Error, CustomStringConvertible {
    var description: String { "disk full" }
}

final class ValidationService: @unchecked Sendable {}

/// Counts only the creations of `validationCountedSingleton`, which a single test resolves.
let validationIsolationCounter = Counter()

extension Container {
    var validationGood: Factory<ValidationService> { self { ValidationService() } }
    var validationThrows: AsyncFactory<ValidationService> { self { throw ValidationFailure() } }
    var validationCycleA: AsyncFactory<ValidationService> {
        self {
            _ = try await self.validationCycleB()
            return ValidationService()
        }
    }
    var validationCycleB: AsyncFactory<ValidationService> {
        self {
            _ = try await self.validationCycleA()
            return ValidationService()
        }
    }
    var validationPromise: Factory<ValidationService?> { promised() }
    var validationUsesPromise: Factory<ValidationService> { self { self.validationPromise() ?? ValidationService() } }
    var validationCountedSingleton: Factory<ValidationService> {
        self {
            _ = validationIsolationCounter.next()
            return ValidationService()
        }.singleton
    }
    var validationSyncCycleA: Factory<ValidationService> {
        self {
            _ = self.validationSyncCycleB()
            return ValidationService()
        }.cached
    }
    var validationSyncCycleB: Factory<ValidationService> {
        self {
            _ = self.validationSyncCycleA()
            return ValidationService()
        }
    }
    var validationParameter: ParameterFactory<Int, ValidationService> { self { _ in ValidationService() } }
    var validationAsyncParameter: AsyncParameterFactory<Int, ValidationService> { self { _ in ValidationService() } }
    var validationSingleton: Factory<ValidationService> {
        self {
            _ = self.validationGood()
            return ValidationService()
        }.singleton
    }
}

final class ValidationAutoContainer: SharedContainer, AutoRegistering {
    static let shared = ValidationAutoContainer()
    let manager = ContainerManager()
    var fine: Factory<String> { self { "fine" } }
    var broken: AsyncFactory<String> { self { "definition" } }
    var lookup: ParameterFactory<Int, String> { self { "\($0)" } }
    func autoRegister() {
        fine.register { "registered" }
        broken.register { throw ValidationFailure() }
        lookup.register { "registered \($0)" }
    }
}

@Suite(.container)
struct ValidationTests {
    @Test func soundWiringHasNoIssues() async throws {
        #expect(try await Container.shared.validate(\.validationGood).isEmpty)
        Container.shared.validationPromise.register { ValidationService() }
        // Validation resolves in a fresh container: registrations on this one do not count.
        #expect(try await Container.shared.validate(\.validationUsesPromise).count == 1)
    }

    @Test func reportsAnAsyncFactoryThatThrows() async throws {
        let issues = try await Container.shared.validate(\.validationThrows)
        #expect(
            issues == [
                ValidationIssue(
                    kind: .threw, factory: "Container.validationThrows<ValidationService>",
                    message: "Container.validationThrows<ValidationService> threw: disk full")
            ])
    }

    @Test func reportsAnAsyncCycleWithItsPath() async throws {
        let issues = try await Container.shared.validate(\.validationCycleA)
        #expect(issues.map(\.kind) == [.cycle])
        #expect(
            issues.first?.message.hasPrefix(
                "Dependency cycle: Container.validationCycleA<ValidationService> → Container.validationCycleB<ValidationService> → Container.validationCycleA<ValidationService>."
            ) == true)
    }

    @Test func reportsAPromiseNeverRegistered() async throws {
        let issues = try await Container.shared.validate(\.validationUsesPromise)
        #expect(
            issues == [
                ValidationIssue(
                    kind: .unregisteredPromise, factory: "Container.validationPromise<Optional<ValidationService>>",
                    message:
                        "Container.validationPromise<Optional<ValidationService>> was promised but never registered: register it, for example in autoRegister()."
                )
            ])
    }

    @Test func reportsASingletonCapturingAUniqueValue() async throws {
        let issues = try await Container.shared.validate(\.validationSingleton)
        #expect(
            issues == [
                ValidationIssue(
                    kind: .scopeSmell, factory: "Container.validationSingleton<ValidationService>",
                    message:
                        "Container.validationSingleton<ValidationService> is a singleton but depends on Container.validationGood<ValidationService>, which is unique: the singleton keeps the first one forever. Make Container.validationGood<ValidationService> a singleton too, or resolve it when it is needed."
                )
            ])
    }

    @Test func validationUsesItsOwnSingletonsAndContainer() async throws {
        // Each validation creates the singleton in its own singleton cache, and none of them is
        // the process's (here, the test's) singleton.
        _ = try await Container.shared.validate(\.validationCountedSingleton)
        _ = try await Container.shared.validate(\.validationCountedSingleton)
        #expect(validationIsolationCounter.count == 2)
        _ = Container.shared.validationCountedSingleton()
        #expect(validationIsolationCounter.count == 3)
    }

    @Test func withNoFactoriesListedValidatesEverythingRegistered() async throws {
        let mark = TestLog.mark()
        let issues = try await ValidationAutoContainer.shared.validate(in: ValidationAutoContainer())
        #expect(issues.map(\.factory) == ["ValidationAutoContainer.broken<String>"])
        #expect(issues.map(\.kind) == [.threw])
        // It says what it resolved and what it skipped.
        #expect(
            TestLog.lines(since: mark).contains(
                "FactoryKit: validate() resolved the 2 factories registered on ValidationAutoContainer: "
                    + "ValidationAutoContainer.broken, ValidationAutoContainer.fine; skipped 1 that take a parameter: "
                    + "ValidationAutoContainer.lookup."))
    }

    @Test func reportsASynchronousCycleWithItsPathInsteadOfStopping() async throws {
        let issues = try await Container.shared.validate(
            \.validationSyncCycleA, \.validationGood, \.validationSyncCycleB)
        #expect(issues.map(\.kind) == [.cycle, .cycle])
        #expect(
            issues.first?.message.hasPrefix(
                "Dependency cycle: Container.validationSyncCycleA<ValidationService> → Container.validationSyncCycleB<ValidationService> → Container.validationSyncCycleA<ValidationService>."
            ) == true)
        // Each factory is validated in a container of its own, so the cycle left half-created
        // by the first does not hold up the second, which finds the same cycle, entered from its
        // own side (validation checks for a cycle at every level).
        #expect(
            issues.map(\.factory) == [
                "Container.validationSyncCycleA<ValidationService>",
                "Container.validationSyncCycleB<ValidationService>",
            ])
    }

    @Test func reportsListedParameterFactoriesAsSkipped() async throws {
        let issues = try await Container.shared.validate(\.validationParameter, \.validationAsyncParameter)
        #expect(issues.map(\.kind) == [.skipped, .skipped])
        #expect(
            issues.first?.message
                == "Container.validationParameter<ValidationService> takes a parameter, so validate cannot resolve it "
                + "and skipped it. Validate the factories it resolves instead, or a Factory that calls it with a "
                + "typical parameter.")
    }
}
