// The snippets of FactoryKit.md, the landing page. `FactoryKit+Tests.swift` runs them.
import FactoryKit

extension Container {
    var api: Factory<APIClient> { self { LiveAPIClient() }.singleton }
    var model: Factory<ContentModel> { self { ContentModel(api: self.api()) } }
}

func resolveThenReplace() -> (resolved: ContentModel, replaced: ContentModel) {
    let model = Container.shared.model()
    Container.shared.api.register { MockAPIClient() }
    return (model, Container.shared.model())
}
