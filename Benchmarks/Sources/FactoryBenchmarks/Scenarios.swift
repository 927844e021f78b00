import Dispatch
import FactoryKit

/// One scenario: the same work written by hand and through FactoryKit, each as a loop of `count`
/// operations.
struct Scenario: Sendable {
    let id: String
    let title: String
    let handWritten: @Sendable (Int, Sink) -> Void
    let factoryKit: @Sendable (Int, Sink) -> Void
    /// Whether `run` does 100 operations before the measured ones; S11 measures first uses.
    var warmsUp = true
}

let handContainer = HandContainer()

/// The single-threaded scenarios, in the order of the issue that defined them.
let scenarios: [Scenario] = [
    Scenario(
        id: "S1", title: "unique resolve",
        handWritten: { count, sink in for _ in 0..<count { sink.keep(SmallService()) } },
        factoryKit: { count, sink in for _ in 0..<count { sink.keep(Container.shared.smallService()) } }
    ),
    Scenario(
        id: "S2", title: "singleton resolve (hit)",
        handWritten: { count, sink in for _ in 0..<count { sink.keep(handWiredShared()) } },
        factoryKit: { count, sink in for _ in 0..<count { sink.keep(Container.shared.sharedService()) } }
    ),
    Scenario(
        id: "S3", title: "graph of 10, mixed scopes",
        handWritten: { count, sink in for _ in 0..<count { sink.keep(handContainer.graphRoot()) } },
        factoryKit: { count, sink in for _ in 0..<count { sink.keep(Container.shared.graphRoot()) } }
    ),
    Scenario(
        id: "S4", title: "parameter factory",
        handWritten: { count, sink in for index in 0..<count { sink.keep(ParameterService(id: index)) } },
        factoryKit: { count, sink in for index in 0..<count { sink.keep(Container.shared.parameterService(index)) } }
    ),
    Scenario(
        id: "S6", title: "override + decorator",
        handWritten: { count, sink in
            for _ in 0..<count {
                let greeting: any Greeting = MockGreeting()
                decorate(greeting)
                sink.keep(greeting)
            }
        },
        factoryKit: { count, sink in for _ in 0..<count { sink.keep(Container.shared.greeting()) } }
    ),
    Scenario(
        id: "S7", title: "@Injected construction",
        handWritten: { count, sink in for _ in 0..<count { sink.keep(HandInjectedHolder()) } },
        factoryKit: { count, sink in for _ in 0..<count { sink.keep(InjectedHolder()) } }
    ),
    Scenario(
        id: "S8", title: "async singleton resolve (hit)",
        handWritten: { count, sink in
            blocking {
                for _ in 0..<count { sink.keep(await handWiredAsyncShared()) }
            }
        },
        factoryKit: { count, sink in
            blocking {
                for _ in 0..<count { sink.keep(try! await Container.shared.asyncSharedService()) }
            }
        }
    ),
    Scenario(
        id: "S9", title: "new container + 10 overrides",
        handWritten: { count, sink in
            for _ in 0..<count {
                let container = HandOverrides()
                for index in 0..<10 { container.overrides[index] = { SmallService(value: -1) } }
                sink.keep(container)
            }
        },
        factoryKit: { count, sink in
            for _ in 0..<count {
                let container = Container()
                container.override0.register { SmallService(value: -1) }
                container.override1.register { SmallService(value: -1) }
                container.override2.register { SmallService(value: -1) }
                container.override3.register { SmallService(value: -1) }
                container.override4.register { SmallService(value: -1) }
                container.override5.register { SmallService(value: -1) }
                container.override6.register { SmallService(value: -1) }
                container.override7.register { SmallService(value: -1) }
                container.override8.register { SmallService(value: -1) }
                container.override9.register { SmallService(value: -1) }
                sink.keep(container)
            }
        }
    ),
    Scenario(
        id: "S10", title: "singleton with onArg (hit)",
        handWritten: { count, sink in for _ in 0..<count { sink.keep(handWiredShared()) } },
        factoryKit: { count, sink in for _ in 0..<count { sink.keep(Container.shared.argumentSingleton()) } }
    ),
    Scenario(
        id: "S12", title: "register, mixed workload's",
        handWritten: { count, _ in for index in 0..<count { Mixed.baselineRegister(index, registerBaseline) } },
        factoryKit: { count, _ in for index in 0..<count { Mixed.factoryKitRegister(index, registerContainer) } }
    ),
    // The mixed workload's round (a register, then four resolutions of its graph) on one
    // thread: its instructions, without the queues and the contention of `mixed`.
    Scenario(
        id: "S13", title: "mixed round, one thread",
        handWritten: { count, sink in for index in 0..<count { Mixed.baselineRound(index, registerBaseline, sink) } },
        factoryKit: { count, sink in for index in 0..<count { Mixed.factoryKitRound(index, registerContainer, sink) } }
    ),
]

/// S12's containers: the mixed workload's registers (a singleton's, a cached and a unique
/// factory's in turn), without its resolutions and threads, against its global-lock baseline.
let registerBaseline = GlobalLockContainer()
let registerContainer = Container()

/// What S6 needs registered before it runs: an override (the decorator is in the definition).
func prepareScenarios() {
    Container.shared.greeting.register { MockGreeting() }
}

/// The hand-written counterpart of `InjectedHolder`.
final class HandInjectedHolder: @unchecked Sendable {
    let service = SmallService()
}

/// Runs an async loop to completion on a task and waits for it. The task's start and the wait are
/// the same for `count` and `2 × count` operations, so they cancel out of instruction counts.
func blocking(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    done.wait()
}

/// The floor the API sets for S5: only the read of `Container.shared`, beside hand-written S1. The
/// read is a task-local that hands out a retained reference, so every read writes the reference
/// count of the one container all threads share.
let sharedReadFloor = Scenario(
    id: "S5", title: "Container.shared read only",
    handWritten: { count, sink in for _ in 0..<count { sink.keep(SmallService()) } },
    factoryKit: { count, sink in for _ in 0..<count { sink.keep(Container.shared) } }
)

/// S11: the first resolution of each of `count` distinct types (ColdStart.swift), which a process
/// can do only once, so it is measured by instructions alone: resolving types 0 ..< 2 × count
/// against 0 ..< count, in fresh processes, leaves the cost of `count` first uses.
let coldStart = Scenario(
    id: "S11", title: "cold start, first resolution",
    handWritten: { count, sink in for index in 0..<count { coldHandWritten[index](sink) } },
    factoryKit: { count, sink in for index in 0..<count { coldFactoryKit[index](sink) } },
    warmsUp: false
)
