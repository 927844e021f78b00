// The messages the articles print, checked against what FactoryKit records.
import FactoryKit
import FactoryTesting
import Foundation
import Testing

/// The user of a request, for the task-bound message the article prints.
struct RequestUser: Sendable {
    let name: String
}

extension Container {
    var requestUser: Factory<RequestUser> { self { RequestUser(name: "guest") }.scope(.request) }
}

/// The messages Testing.md prints are the ones FactoryKit records.
@Suite
struct TestingArticleMessageTests {
    static let article: String = {
        let path = "\(#filePath)".replacingOccurrences(
            of: "Tests/DocSnippetsTests/ArticleMessages.swift", with: "Sources/FactoryKit/FactoryKit.docc/Testing.md")
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }()

    @Test(.container) func aTaskBoundFactoryOutsideItsBlockIsTheArticlesIssue() {
        let recorded = RecordedComments()
        withKnownIssue("expected: the task-bound factory's issue, as the article prints it") {
            _ = Container.shared.requestUser()
        } matching: { issue in
            recorded.append(issue.comments.map(\.rawValue).joined())
            return true
        }
        let message = recorded.text
        #expect(message.hasPrefix("Container.requestUser<RequestUser> is scoped to a task-bound scope"))
        // The article names the type `User`; everything else is as printed.
        let printed = message.replacingOccurrences(of: "<RequestUser>", with: "<User>")
        #expect(Self.article.contains(printed), "Testing.md does not print: \(printed)")
    }
}

/// What a `matching:` closure saw, which may run on another thread.
final class RecordedComments: @unchecked Sendable {
    private let lock = NSLock()
    private var texts: [String] = []

    func append(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        texts.append(text)
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return texts.joined()
    }
}
