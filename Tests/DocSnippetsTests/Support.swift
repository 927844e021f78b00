import FactoryKit
import Foundation

// Types and factories that several articles use but none defines. Each article's own supporting
// types live at the end of its file.

protocol APIClient: Sendable {
    func fetch() -> String?
}

struct LiveAPIClient: APIClient {
    var session = Session()

    func fetch() -> String? { "live" }
}

struct MockAPIClient: APIClient {
    func fetch() -> String? { "mock" }
}

struct FailingAPIClient: APIClient {
    func fetch() -> String? { nil }
}

final class ContentModel {
    let api: APIClient

    init(api: APIClient = LiveAPIClient()) {
        self.api = api
    }

    func load() -> Bool { api.fetch() != nil }

    var errorMessage: String? { api.fetch() == nil ? "The server did not answer." : nil }
}

protocol Analytics: Sendable {
    func track(_ event: String)
}

struct LiveAnalytics: Analytics {
    func track(_ event: String) {}
}

struct StubAnalytics: Analytics {
    func track(_ event: String) {}
}

protocol NoteStore: AnyObject {
    var notes: [String] { get }
}

final class DiskNoteStore: NoteStore {
    var notes: [String] = []
}

final class InMemoryStore: NoteStore {
    var notes: [String] = []
}

protocol Clocking: Sendable {
    var now: Date { get }
}

struct SystemClock: Clocking {
    var now: Date { Date() }
}

struct FixedClock: Clocking {
    var date = Date.distantPast
    var now: Date { date }
}

final class AppModel {
    let content: ContentModel
    let analytics: Analytics

    init(content: ContentModel, analytics: Analytics) {
        self.content = content
        self.analytics = analytics
    }
}

struct User: Identifiable {
    let id: Int
}

extension Container {
    var store: Factory<NoteStore> { self { DiskNoteStore() } }
    var clock: Factory<Clocking> { self { SystemClock() } }
    var appModel: Factory<AppModel> { self { AppModel(content: self.model(), analytics: self.analytics()) } }
}
