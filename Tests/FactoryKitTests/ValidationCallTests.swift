import FactoryKit
import FactoryTesting
import Foundation
import Testing

// Which call a child process of `validate` answers, and what runs before validation's
// protection is in place.

/// Whether this process is a child process of `validate`.
var isValidationChild: Bool { ProcessInfo.processInfo.environment["FACTORYKIT_VALIDATE_CHILD"] != nil }

extension Container {
    var callFirst: Factory<Int> { self { 1 } }
    var callSecond: Factory<Int> { self { 2 } }
    var callCycleA: Factory<Int> { self { self.callCycleB() }.cached }
    var callCycleB: Factory<Int> { self { self.callCycleA() }.cached }
}

/// Every validation of the tests below that lists factories goes through this one call site.
func validateAtOneSite(_ factories: [PartialKeyPath<Container>]) async throws -> [ValidationIssue] {
    try await Container.shared.validate(factories, in: Container())
}

/// Registers a different factory in a child process of `validate` than here: a cycle there, a
/// plain value here.
final class ListingContainer: SharedContainer, AutoRegistering, @unchecked Sendable {
    static let shared = ListingContainer()
    let manager = ContainerManager()
    var plain: Factory<Int> { self { 1 } }
    var cycleA: Factory<Int> { self { self.cycleB() }.cached }
    var cycleB: Factory<Int> { self { self.cycleA() }.cached }
    func autoRegister() {
        if isValidationChild {
            cycleA.register { self.cycleB() }
        } else {
            plain.register { 2 }
        }
    }
}

/// Whether validation is running, for `SetUpConfig`: on only in
/// `autoRegisterRunsWithValidationsSingletons`.
let validatingSetUp = ValidationFlag(false)

final class SetUpConfig: Sendable {
    let madeWhileValidating = validatingSetUp.isOn
}

/// Resolves a singleton in `autoRegister()`, as apps do to configure themselves.
final class SetUpContainer: SharedContainer, AutoRegistering, @unchecked Sendable {
    static let shared = SetUpContainer()
    let manager = ContainerManager()
    var config: Factory<SetUpConfig> { self { SetUpConfig() }.singleton }
    var service: Factory<Int> { self { 1 } }
    func autoRegister() {
        _ = config()
        service.register { 2 }
    }
}

/// Reaches a dependency cycle from `autoRegister()`. Its `shared` is never touched.
final class SetUpCycleContainer: SharedContainer, AutoRegistering, @unchecked Sendable {
    static let shared = SetUpCycleContainer()
    let manager = ContainerManager()
    var service: Factory<Int> { self { 1 } }
    var cycleA: Factory<Int> { self { self.cycleB() }.cached }
    var cycleB: Factory<Int> { self { self.cycleA() }.cached }
    func autoRegister() {
        service.register { 2 }
        _ = cycleA()
    }
}

@Suite(.container)
struct ValidationCallTests {
    /// In the child, another task's call with another list reached the call site first: the
    /// child answers the call with this list, not the first to arrive (it answered the other,
    /// and a cycle of that list was reported for `callFirst`).
    @Test func aChildAnswersTheCallWithTheSameListNotTheFirstToArrive() async throws {
        if isValidationChild {
            _ = try await validateAtOneSite([\.callCycleA, \.callFirst])
        }
        #expect(try await validateAtOneSite([\.callFirst, \.callSecond]).isEmpty)
    }

    /// Two calls at one site at once, with different lists, each get the answer for their own
    /// list (the child answered whichever reached the site first there, which crashed this
    /// process on a cycle or reported one for a factory that has none).
    @Test func concurrentCallsAtOneSiteEachGetTheAnswerForTheirList() async throws {
        async let first = validateAtOneSite([\.callFirst, \.callCycleA])
        async let second = validateAtOneSite([\.callCycleA, \.callSecond])
        let (firstIssues, secondIssues) = try await (first, second)
        #expect(firstIssues.map(\.factory) == ["Container.callCycleA<Int>"])
        #expect(secondIssues.map(\.factory) == ["Container.callCycleA<Int>"])
        #expect((firstIssues + secondIssues).allSatisfy { $0.kind == .cycle })
    }

    /// With no factories listed, a child that found other factories registered than this process
    /// did is not trusted (its cycle, in the factory it listed first, was reported for this
    /// process's first, `plain`).
    @Test func anAnswerForAnotherListOfRegisteredFactoriesIsNotTrusted() async throws {
        #expect(try await ListingContainer.shared.validate(in: ListingContainer()).isEmpty)
    }

    /// A singleton that `autoRegister()` resolves is validation's own, not the process's (with no
    /// factories listed, the fresh container's `autoRegister()` ran before validation's
    /// protection was in place, and left the singleton it made to the app).
    @Test func autoRegisterRunsWithValidationsSingletons() async throws {
        validatingSetUp.isOn = true
        defer { validatingSetUp.isOn = false }
        #expect(try await SetUpContainer.shared.validate(in: SetUpContainer()).isEmpty)
        #expect(try await SetUpContainer.shared.validate(\.service, in: SetUpContainer()).isEmpty)
        #expect(
            try await Container.shared.validateAll([.factory(\SetUpContainer.service, in: { SetUpContainer() })]).issues
                .isEmpty)
        validatingSetUp.isOn = false
        #expect(!SetUpContainer.shared.config().madeWhileValidating)
    }

    /// A cycle reached from `autoRegister()` of the fresh container is reported (it stopped this
    /// process).
    @Test func aCycleReachedFromAutoRegisterIsReported() async throws {
        let issues = try await SetUpCycleContainer.shared.validate(in: SetUpCycleContainer())
        #expect(issues.map(\.kind) == [.cycle])
        #expect(issues.first?.factory == "SetUpCycleContainer.cycleA<Int>")
    }
}
