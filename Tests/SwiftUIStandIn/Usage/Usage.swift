// Uses every public declaration of FactoryKit's `#if canImport(SwiftUI)` files, the way an app
// would, so that `.ci/check-swiftui` type-checks each against the SwiftUI stand-in.

import FactoryKit
import Observation
import SwiftUI

final class CounterModel: ObservableObject {
    @Published var count = 0
    @Published var title = ""
}

@MainActor @Observable
final class NotesModel {
    var text = ""
    @ObservationIgnored @Injected(\.greeting) var greeting
}

final class FeatureContainer: SharedContainer {
    @TaskLocal static var shared = FeatureContainer()
    let manager = ContainerManager()

    var counter: Factory<CounterModel> { self { CounterModel() } }
    @MainActor var notes: Factory<NotesModel> { self { NotesModel() } }
}

extension Container {
    var greeting: Factory<String> { self { "hello" } }
    var counter: Factory<CounterModel> { self { CounterModel() } }
    var title: ParameterFactory<Int, String> { self { "title \($0)" } }
    @MainActor var notes: Factory<NotesModel> { self { NotesModel() } }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct EveryWrapper: View {
    @InjectedObject(\.counter) var counter
    @InjectedObject(\FeatureContainer.counter) var featureCounter
    @InjectedObject(CounterModel()) var localCounter
    @InjectedObservable(\.notes) var notes
    @InjectedObservable(\FeatureContainer.notes) var featureNotes
    @InjectedObservable(NotesModel()) var localNotes
    @InjectedObject var initialCounter = CounterModel()
    @InjectedObservable var initialNotes = NotesModel()
    @SceneContainer var container
    @SceneContainer(FeatureContainer.self) var features

    var body: some View {
        VStack {
            Text("\(counter.count) \(featureCounter.count) \(localCounter.count)")
            TextField("Title", text: $counter.title)
            TextField("Notes", text: $notes.text)
            Text(featureNotes.text + localNotes.text + container.title(1) + features.notes().text)
            Text($features { $0.counter().title } + $container { $0.title(2) })
        }
    }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
func everyModifier() -> some View {
    EveryWrapper()
        .withContainer(\.greeting) { "mock" }
        .withContainer(\FeatureContainer.counter) { CounterModel() }
        .withContainer(Container())
        .withContainer(FeatureContainer())
        .withContainer { Container() }
        .withContainer { FeatureContainer() }
}

@MainActor @ViewBuilder
func everyRegistrationInAViewBuilder() -> some View {
    Container.shared.greeting { "preview" }
    Container.shared.greeting.preview { "preview" }
    Container.shared.title { "mock \($0)" }
    Container.shared.title.preview { "mock \($0)" }
    Container.shared { $0.greeting { "batch" } }
}

@available(*, deprecated)
@MainActor @ViewBuilder
func everyDeprecatedPreview() -> some View {
    Container.shared.preview { $0.greeting { "old" } }
    Container.preview { $0.greeting { "old" } }
}

// The registration sugar still works as a statement outside views, off the main actor.
nonisolated func registersAnywhere() {
    Container.shared.greeting { "plain" }
    Container.shared.title { "plain \($0)" }
    Container.shared { $0.greeting { "batch" } }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
func sendable<T: Sendable>(_: T.Type) {}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct SendableModel: Sendable, Observation.Observable {}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
func wrappersAreSendableForSendableValues() {
    sendable(InjectedObservable<SendableModel>.self)
}
