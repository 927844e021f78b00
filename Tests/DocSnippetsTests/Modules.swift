// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// The snippets of Modules.md; the app module's snippet is in Fixtures/Modules/Sources/AppCore.
// Services module: re-exports FactoryKit, so modules importing Services see it too.
@_exported public import FactoryKit

public protocol AccountLoading: Sendable {
    func accounts() -> [String]
}

extension Container {
    public var accountLoader: Factory<(any AccountLoading)?> { promised() }
}
