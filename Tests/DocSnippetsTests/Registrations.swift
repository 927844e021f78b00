// The snippets of Registrations.md.
import FactoryKit
import Testing

func registerAMock() {
    Container.shared.api.register { MockAPIClient() }
    Container.shared.api { MockAPIClient() }
}

func registerCapturingTheContainer(_ container: Container) {
    container.api.register { LiveAPIClient(session: container.session()) }  // container never deinits
}

func registerWithoutCapturing(_ container: Container) {
    container.register(\.api) { container in LiveAPIClient(session: container.session()) }
}

func overrideInAContext() {
    Container.shared.analytics.onDebug { StubAnalytics() }
    Container.shared.api.onArg("-mock-api") { MockAPIClient() }
}

// swift-format-ignore: AllPublicDeclarationsHaveDocumentation
extension Container {
    public var crashReporter: Factory<CrashReporting?> { promised() }
}

@Suite(.container)
struct RegistrationsArticleTests {
    @Test func registeringReplacesEvenACachedSingleton() {
        #expect(Container.shared.api() is LiveAPIClient)
        registerAMock()
        #expect(Container.shared.api() is MockAPIClient)
    }

    @Test func aClosureThatCapturesItsContainerKeepsItAlive() {
        weak var released: Container?
        do {
            let container = Container()
            released = container
            registerCapturingTheContainer(container)
        }
        #expect(released != nil)
        // Break the cycle the snippet builds, which also shows it was the only thing keeping the
        // container, and keeps the AddressSanitizer run (`.ci/check-asan`) free of leaks.
        released?.manager.reset(options: .registration)
        #expect(released == nil)
    }

    @Test func aClosureThatIsHandedItsContainerLetsItGo() {
        weak var released: Container?
        do {
            let container = Container()
            released = container
            registerWithoutCapturing(container)
            #expect(container.api() is LiveAPIClient)
        }
        #expect(released == nil)
    }

    @Test func aPromiseIsFilledInByARegistration() {
        Container.shared.crashReporter.register { ConsoleCrashReporter() }
        #expect(Container.shared.crashReporter() is ConsoleCrashReporter)
    }
}

/// What a module needs and cannot build, promised in the article.
public protocol CrashReporting: Sendable {
    /// Reports an error.
    func report(_ error: any Error)
}

struct ConsoleCrashReporter: CrashReporting {
    func report(_ error: any Error) {}
}
