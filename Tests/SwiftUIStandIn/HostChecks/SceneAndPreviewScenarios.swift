// Scene containers per window, and previews' registrations (issue 27, point 3).

import FactoryKit
import SwiftUI

@MainActor @ViewBuilder
func previewRegisteringInItsBody() -> some View {
    Container.shared.greeting { "registered in the preview" }
    Greeting()
}

@MainActor
func sceneAndPreviewScenarios(_ checks: Checks) {
    checks.run("each window of a group has its own scene container") {
        Session.made = 0
        let host = StandInHost()
        let group = WindowGroup { SessionView().withContainer { Container() } }
        let first = host.open(group)
        host.open(group)
        host.render()
        checks.expect(host.texts, ["session 1", "session 2"])
        host.render()
        let bothWindows = host.identities
        checks.expect(host.texts, ["session 1", "session 2"], "after a second update")
        checks.expect(Container.shared.session().id, 3, "Container.shared's own session")
        host.unmount(first)
        host.render()
        checks.expect(host.texts, ["session 2"])
        checks.expect(host.identities, bothWindows / 2, "identities with storage once a window closed")
    }

    checks.run("the views below follow a container passed in, when it is replaced") {
        Session.made = 0
        let account = Account()
        let host = StandInHost()
        host.mount(AccountRoot(account: account))
        host.render()
        checks.expect(host.texts, ["session 1"])
        account.container = Container()
        host.render()
        checks.expect(host.texts, ["session 1"], "the view keeps its object")
        host.mount(AccountRoot(account: account))
        host.render()
        checks.expect(host.texts, ["session 1", "session 2"], "a view created since resolves from the new one")
    }

    checks.run("a preview's withContainer registration does not reach another preview") {
        let first = StandInHost()
        first.mount(Greeting().withContainer(\.greeting) { "first preview's mock" })
        first.render()
        let second = StandInHost()
        second.mount(Greeting())
        second.render()
        checks.expect(first.texts, ["first preview's mock"])
        checks.expect(second.texts, ["live"])
    }

    checks.run("a registration statement in a preview's body registers before the views resolve") {
        let host = StandInHost()
        host.mount(previewRegisteringInItsBody())
        host.render()
        checks.expect(host.texts, ["registered in the preview"])
    }
}
