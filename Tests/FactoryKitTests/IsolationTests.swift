import FactoryKit
import FactoryTesting
import Foundation
import Testing

final class IsolationService: @unchecked Sendable {
    let owner: Int
    init(owner: Int) { self.owner = owner }
}

final class IsolationConsumer: @unchecked Sendable {
    let service: IsolationService
    init(service: IsolationService) { self.service = service }
}

final class IsolationHolder: @unchecked Sendable {
    @Injected(\.isolationService) var service
    @LazyInjected(\.isolationService) var lazyService
}

extension Container {
    var isolationService: Factory<IsolationService> { self { IsolationService(owner: -1) } }
    var isolationConsumer: Factory<IsolationConsumer> { self { IsolationConsumer(service: self.isolationService()) } }
    var isolationSingleton: Factory<IsolationService> { self { IsolationService(owner: -2) }.singleton }
}

/// Every case registers its own mock for the same factory, then lets the others run (so that with
/// one shared container their registrations would land in between), then checks that it sees its
/// own mock everywhere a dependency can be resolved from.
///
/// Without the `.container` trait this suite fails: the cases overwrite each other's registration.
@Suite(.container)
struct IsolationTests {
    @Test(arguments: 0..<120)
    func eachTestSeesOnlyItsOwnMock(owner: Int) async throws {
        Container.shared.isolationService { IsolationService(owner: owner) }
        try await Task.sleep(for: .milliseconds(Int.random(in: 1...15)))
        await Task.yield()

        #expect(Container.shared.isolationService().owner == owner)
        #expect(dependency(\.isolationService).owner == owner)
        #expect(Container.shared.isolationConsumer().service.owner == owner)
        let holder = IsolationHolder()
        #expect(holder.service.owner == owner)
        #expect(holder.lazyService.owner == owner)

        // Child tasks, task groups and unstructured tasks inherit the test's container.
        async let child = Container.shared.isolationService().owner
        #expect(await child == owner)
        let unstructured = await Task { Container.shared.isolationService().owner }.value
        #expect(unstructured == owner)
        let fromGroup = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<3 { group.addTask { Container.shared.isolationService().owner } }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(fromGroup == [owner, owner, owner])
    }

    @Test(arguments: 0..<20)
    func singletonsCreatedInATestStayInIt(owner: Int) async throws {
        let mine = Container.shared.isolationSingleton()
        try await Task.sleep(for: .milliseconds(Int.random(in: 1...10)))
        #expect(Container.shared.isolationSingleton() === mine)
    }

    @Test func detachedTasksThreadsAndQueuesDoNotInheritTheContainer() async {
        let mine = Container.shared
        let detached = await Task.detached { Container.shared }.value
        #expect(detached !== mine)
        let fromThread = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Container.shared) }
        }
        #expect(fromThread !== mine)
        let fromQueue = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Container.shared) }
        }
        #expect(fromQueue !== mine)
        // The documented remedy: rebind the captured container where the work runs.
        let rebound = await Task.detached { Container.$shared.withValue(mine) { Container.shared } }.value
        #expect(rebound === mine)
    }
}

final class IsolationCustomContainer: SharedContainer {
    @TaskLocal static var shared = IsolationCustomContainer()
    let manager = ContainerManager()
    var greeting: Factory<String> { self { "default" } }
}

extension Trait where Self == ContainerTrait<IsolationCustomContainer> {
    static var isolationCustom: ContainerTrait<IsolationCustomContainer> {
        .init(shared: IsolationCustomContainer.$shared, container: .init())
    }
}

@Suite(.container, .isolationCustom)
struct CustomContainerTraitTests {
    @Test(arguments: 0..<10)
    func customContainerIsFreshInEveryTest(index: Int) async throws {
        #expect(IsolationCustomContainer.shared.greeting() == "default")
        IsolationCustomContainer.shared.greeting { "test \(index)" }
        try await Task.sleep(for: .milliseconds(Int.random(in: 1...5)))
        #expect(IsolationCustomContainer.shared.greeting() == "test \(index)")
    }

    @Test(.container { $0.isolationService { IsolationService(owner: 7) } })
    func traitConfigurationAppliesBeforeTheTest() {
        #expect(Container.shared.isolationService().owner == 7)
    }
}

@Suite(.container.singletons(.empty))
struct SingletonIsolationTests {
    @Test func clonedStartsWithExistingSingletonsAndEmptyWithNone() {
        let base = Scope.Singleton()
        let existing = Scope.$singleton.withValue(base) { Container.shared.isolationSingleton() }
        Scope.$singleton.withValue(base) {
            let cloned = SingletonIsolation.cloned.makeSingletons()
            let empty = SingletonIsolation.empty.makeSingletons()
            Scope.$singleton.withValue(cloned) {
                #expect(Container.shared.isolationSingleton() === existing)
            }
            Scope.$singleton.withValue(empty) {
                #expect(Container.shared.isolationSingleton() !== existing)
            }
        }
    }

    @Test func aSuiteWithEmptySingletonsGivesEachTestItsOwnCache() {
        #expect(Scope.singleton !== SingletonIsolation.empty.makeSingletons())
        let mine = Container.shared.isolationSingleton()
        #expect(Container.shared.isolationSingleton() === mine)
    }
}

struct WithTestContainerTests {
    @Test func bindsAFreshContainerAndRestoresTheOldOne() {
        let outside = Container.shared
        withTestContainer {
            #expect(Container.shared !== outside)
            Container.shared.isolationService { IsolationService(owner: 3) }
            #expect(Container.shared.isolationService().owner == 3)
        }
        #expect(Container.shared === outside)
    }

    @Test func asyncFormAndCustomContainers() async {
        let outside = IsolationCustomContainer.shared
        await withTestContainer(IsolationCustomContainer.$shared, IsolationCustomContainer()) {
            await Task.yield()
            #expect(IsolationCustomContainer.shared !== outside)
        }
        let value = await withTestContainer { () async -> Int in
            Container.shared.isolationService { IsolationService(owner: 9) }
            await Task.yield()
            return Container.shared.isolationService().owner
        }
        #expect(value == 9)
    }
}
