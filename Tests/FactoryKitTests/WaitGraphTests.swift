import Foundation
import Testing

@testable import FactoryKit

/// A finished creation closes no cycle: a thread still leaving its wait for one must not be taken
/// for a thread blocked on it. Four threads register and resolve a small graph (a singleton, a
/// cached value that resolves it, unique values above) as fast as they can; before the wait graph
/// skipped finished creations, about one run in eight of the mixed benchmark stopped with
/// "Dependency cycle: Container.mixedConfig → Container.mixedConfig (across threads)".
@Suite
struct WaitGraphTests {
    final class Config: Sendable {}
    final class Store: Sendable {
        let config: Config
        init(config: Config) { self.config = config }
    }
    final class Root: Sendable {
        let store: Store
        let config: Config
        init(store: Store, config: Config) {
            self.store = store
            self.config = config
        }
    }

    final class RacingRegistersContainer: SharedContainer, @unchecked Sendable {
        static let shared = RacingRegistersContainer()
        let manager = ContainerManager()

        var config: Factory<Config> { self { Config() }.singleton }
        var store: Factory<Store> { self { Store(config: self.config()) }.cached }
        var root: Factory<Root> { self { Root(store: self.store(), config: self.config()) } }
    }

    /// The race the stress below provokes, built by hand: thread X waits for a creation of
    /// thread Y's, and Y is still registered as waiting for one of X's that has finished.
    @Test func aWaitForAFinishedCreationClosesNoCycle() {
        let x = ResolutionChain()
        let y = ResolutionChain()
        let finishedOfX = InFlight(owner: x, frameIndex: 0, label: "Container.config<Config>")
        finishedOfX.finish(Config())
        let inProgressOfY = InFlight(owner: y, frameIndex: 0, label: "Container.store<Store>")
        // Y has been woken by `finish` but has not yet left the graph.
        WaitGraph.enter(y, waitingFor: finishedOfX)
        // Reported a cycle, and stopped the program, before finished creations were skipped.
        WaitGraph.enter(x, waitingFor: inProgressOfY)
        #expect(x.waitingFor === inProgressOfY)
        WaitGraph.leave(x)
        WaitGraph.leave(y)
    }

    @Test func registersRacingCreationsReportNoCycle() async {
        let container = RacingRegistersContainer()
        let singletons = Scope.Singleton()
        let rounds = await withTaskGroup(of: Int.self) { group in
            for lane in 0..<4 {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        Thread.detachNewThread {
                            // Timed from the thread's own start, and at least a few rounds: on a
                            // loaded machine a thread may start late.
                            let deadline = Date().addingTimeInterval(1)
                            var rounds = 0
                            Scope.$singleton.withValue(singletons) {
                                while rounds < 50 || Date() < deadline {
                                    switch (rounds + lane) % 2 {
                                    case 0: container.register(\.config) { _ in Config() }
                                    default: container.register(\.store) { Store(config: $0.config()) }
                                    }
                                    for _ in 0..<4 { _ = container.root() }
                                    rounds += 1
                                }
                            }
                            continuation.resume(returning: rounds)
                        }
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(rounds > 0)
    }
}
