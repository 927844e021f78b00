// The snippets of Resolutions.md.
import FactoryKit
import Testing

@MainActor
func resolveEachKindOfFactory(for user: User) async throws -> (ContentModel, ProfileModel, Database) {
    let model = Container.shared.contentModel()
    let profile = Container.shared.profile(user.id)  // a ParameterFactory
    let database = try await Container.shared.database()  // an AsyncFactory
    return (model, profile, database)
}

enum ResolutionsArticle {
    final class ContentModel {
        private let api: APIClient
        init(container: Container) { api = container.api() }
    }
}

@Suite(.container)
struct ResolutionsArticleTests {
    @Test @MainActor func callingAFactoryResolvesIt() async throws {
        let (model, profile, database) = try await resolveEachKindOfFactory(for: User(id: 7))
        #expect(model.api is LiveAPIClient)
        #expect(profile.id == 7)
        #expect(database.path == "app.sqlite")
    }

    @Test func aContainerCanBePassedIn() {
        _ = ResolutionsArticle.ContentModel(container: Container.shared)
    }
}
