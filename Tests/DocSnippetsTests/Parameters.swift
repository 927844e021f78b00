// The snippets of Parameters.md.
import FactoryKit
import Foundation
import Testing

extension Container {
    var profile: ParameterFactory<User.ID, ProfileModel> {
        self { id in ProfileModel(id: id, api: self.api()) }
    }
}

func resolveProfiles(of user: User) -> (ProfileModel, ProfileModel) {
    let model = Container.shared.profile(user.id)
    let same = dependency(\.profile, parameter: user.id)
    return (model, same)
}

extension Container {
    var thumbnail: ParameterFactory<URL, Thumbnail> {
        self { url in Thumbnail(url: url) }.cached.scopeOnParameters
    }
}

@Suite(.container)
struct ParametersArticleTests {
    @Test func theParameterReachesTheClosure() {
        let (model, same) = resolveProfiles(of: User(id: 42))
        #expect(model.id == 42)
        #expect(same.id == 42)
    }

    @Test func scopeOnParametersKeepsOneValuePerParameter() throws {
        let first = try #require(URL(string: "https://example.com/1.png"))
        let second = try #require(URL(string: "https://example.com/2.png"))
        let thumbnail = Container.shared.thumbnail(first)
        #expect(Container.shared.thumbnail(first) === thumbnail)
        #expect(Container.shared.thumbnail(second) !== thumbnail)
        #expect(Container.shared.thumbnail(second).url == second)
    }
}

struct ProfileModel {
    let id: User.ID
    let api: APIClient
}

final class Thumbnail {
    let url: URL

    init(url: URL) {
        self.url = url
    }
}
