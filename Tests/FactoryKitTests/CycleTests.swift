import FactoryKit
import Foundation
import Testing

final class CycleA: @unchecked Sendable { init(_ b: CycleB) {} }
final class CycleB: @unchecked Sendable { init(_ a: CycleA) {} }

/// Where `cycleA` is defined: a cycle's stop names each factory's definition.
private let cycleALine = #line + 4
private let cycleFile = #filePath

extension Container {
    var cycleA: Factory<CycleA> { self { CycleA(self.cycleB()) } }
    var cycleB: Factory<CycleB> { self { CycleB(self.cycleA()) } }
    var cycleSingletonA: Factory<CycleA> { self { CycleA(self.cycleSingletonB()) }.singleton }
    var cycleSingletonB: Factory<CycleB> { self { CycleB(self.cycleSingletonA()) }.singleton }
    var cycleRoot: Factory<CycleA> { self { self.cycleA() } }
    var cycleCountdown: ParameterFactory<Int, Int> { self { $0 <= 0 ? 0 : self.cycleCountdown($0 - 1) + 1 } }
    var cycleSelf: ParameterFactory<Int, Int> { self { self.cycleSelf($0) } }
    var cycleAcrossThreadsA: Factory<CycleA> {
        self {
            Thread.sleep(forTimeInterval: 0.2)
            return CycleA(self.cycleAcrossThreadsB())
        }.cached
    }
    var cycleAcrossThreadsB: Factory<CycleB> {
        self {
            Thread.sleep(forTimeInterval: 0.2)
            return CycleB(self.cycleAcrossThreadsA())
        }.cached
    }
}

final class CycleOther: SharedContainer {
    static let shared = CycleOther()
    let manager = ContainerManager()
    // API.md D3: the same key on another container is not a cycle.
    var api: Factory<Int> { self { Container.shared.cycleAPI() + 1 } }
}

extension Container {
    var cycleAPI: Factory<Int> { self { 41 } }
    var api: Factory<Int> { self { CycleOther.shared.api() } }
}

/// Reads what an exit test's child process wrote to standard error.
private func standardError(_ result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

@Suite
struct CycleTests {
    @Test func uniqueCycleStopsWithItsPath() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container.shared.cycleRoot()
        }
        let message = standardError(result)
        #expect(
            message.contains(
                "Dependency cycle: Container.cycleA<CycleA> → Container.cycleB<CycleB> → Container.cycleA<CycleA>"),
            "\(message)")
        #expect(message.contains("@LazyInjected"))
        #expect(message.contains("promised()"))
        // Each factory's definition, the first's before the message (issue 38, item 5).
        #expect(message.contains("\(cycleFile):\(cycleALine): Dependency cycle: "), "\(message)")
        #expect(
            message.contains(
                "Defined: Container.cycleA<CycleA> at \(cycleFile):\(cycleALine); "
                    + "Container.cycleB<CycleB> at \(cycleFile):\(cycleALine + 1)."), "\(message)")
    }

    @Test func scopedCycleIsCaughtAtOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container.shared.cycleSingletonA()
        }
        #expect(
            standardError(result).contains(
                "Dependency cycle: Container.cycleSingletonA<CycleA> → Container.cycleSingletonB<CycleB> → Container.cycleSingletonA<CycleA>"
            ))
    }

    @Test func parameterFactoryCyclingOnTheSameParameter() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container.shared.cycleSelf(3)
        }
        #expect(
            standardError(result).contains(
                "Dependency cycle: Container.cycleSelf<Int> → Container.cycleSelf<Int>"))
    }

    @Test func cycleAcrossThreadsIsReportedInsteadOfHanging() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = Container()
            DispatchQueue.global().async { _ = container.cycleAcrossThreadsA() }
            _ = container.cycleAcrossThreadsB()
        }
        let message = standardError(result)
        #expect(message.contains("Dependency cycle: "), "\(message)")
        #expect(message.contains("across threads"))
        #expect(message.contains("Container.cycleAcrossThreadsA<CycleA>"))
        #expect(message.contains("Container.cycleAcrossThreadsB<CycleB>"))
        #expect(message.contains("Container.cycleAcrossThreadsA<CycleA> at \(cycleFile):"), "\(message)")
        #expect(message.contains("Container.cycleAcrossThreadsB<CycleB> at \(cycleFile):"), "\(message)")
    }

    @Test func sameKeyOnAnotherContainerIsNotACycle() {
        #expect(Container().api() == 42)
    }

    @Test func deepRecursionWithDistinctParametersIsNotACycle() {
        #expect(Container().cycleCountdown(60) == 60)
    }

    @Test func twoContainersResolvingTheSameFactoryIsNotACycle() {
        let outer = Container()
        let inner = Container()
        let factory = Factory<Int>(outer, key: "cycleNested") {
            Factory<Int>(inner, key: "cycleNested") { 7 }()
        }
        #expect(factory() == 7)
    }
}
