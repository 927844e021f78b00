// The models, factories and views the scenarios render.

import FactoryKit
import Observation
import SwiftUI

extension Container {
    var greeting: Factory<String> { self { "live" } }
    @MainActor var greetingModel: Factory<GreetingModel> { self { GreetingModel() } }
    var session: Factory<Session> { self { Session() }.cached }
    @MainActor var sessionModel: Factory<SessionModel> { self { SessionModel() } }
    @MainActor var theme: Factory<Theme> { self { Theme() }.cached }
    @MainActor var themedModel: Factory<ThemedModel> { self { ThemedModel() } }
    @MainActor var themedObject: Factory<ThemedObject> { self { ThemedObject() } }
}

/// What the scenarios toggle; root views read it in `body`.
@MainActor @Observable
final class Switches {
    var first = true
    var second = true
    var later = false
    var flag = true
    var tick = 0
}

@MainActor @Observable
final class GreetingModel {
    @ObservationIgnored @Injected(\.greeting) var greeting: String
}

struct Greeting: View {
    @InjectedObservable(\.greetingModel) var model
    var body: some View { Text(model.greeting) }
}

/// Reads the container it resolves from, as a view resolving a parameterized factory would.
struct SceneGreeting: View {
    @SceneContainer var container
    var body: some View { Text(container.greeting()) }
}

/// Counts its instances, to tell how many times a view made one.
final class CountingObject: ObservableObject {
    nonisolated(unsafe) static var made = 0
    nonisolated(unsafe) static weak var last: CountingObject?
    @Published var value = 0
    init() {
        Self.made += 1
        Self.last = self
    }
}

final class Session: Sendable {
    nonisolated(unsafe) static var made = 0
    let id: Int
    init() {
        Self.made += 1
        id = Self.made
    }
}

final class SessionModel: ObservableObject {
    @Injected(\.session) var session: Session
}

@MainActor @Observable
final class Theme {
    var name = "light"
}

/// Reads an observable property while it is created, as a model's `init` might.
@MainActor @Observable
final class ThemedModel {
    let initialTheme: String
    init() { initialTheme = Container.shared.theme().name }
}

@MainActor
final class ThemedObject: ObservableObject {
    let initialTheme: String
    init() { initialTheme = Container.shared.theme().name }
}

struct SessionView: View {
    @InjectedObject(\.sessionModel) var model
    var body: some View { Text("session \(model.session.id)") }
}

/// A container the app owns and may replace.
@MainActor @Observable
final class Account {
    var container = Container()
}

struct AccountRoot: View {
    let account: Account
    var body: some View {
        SessionView().withContainer(account.container)
    }
}

final class FeatureContainer: SharedContainer {
    @TaskLocal static var shared = FeatureContainer()
    let manager = ContainerManager()

    var heading: Factory<String> { self { "live heading" } }
    var headingModel: Factory<HeadingModel> { self { HeadingModel(text: self.heading()) } }
}

/// An object whose initializer resolves from `FeatureContainer`.
final class HeadingModel: ObservableObject {
    let text: String
    init(text: String) { self.text = text }
}

/// Resolves its heading in `body`, through `SceneContainer`'s projected value, which applies the
/// subtree's registrations as object creation does.
struct Heading: View {
    @SceneContainer(FeatureContainer.self) var features
    var body: some View { Text($features { $0.heading() }) }
}

/// Resolves its heading in `body` from the container itself, outside any subtree's routing.
struct PlainHeading: View {
    @SceneContainer(FeatureContainer.self) var features
    var body: some View { Text(features.heading()) }
}

/// Shows an object created from `FeatureContainer`.
struct ModelHeading: View {
    @InjectedObject(\FeatureContainer.headingModel) var model
    var body: some View { Text(model.text) }
}
