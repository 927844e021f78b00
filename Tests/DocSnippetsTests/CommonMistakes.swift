// The snippets of CommonMistakes.md, and the messages the article quotes, checked word for word.
import FactoryKit
import FactoryTesting
import Foundation
import Testing

protocol Mailer: Sendable {
    func send(_ text: String) -> Bool
}

struct SMTPMailer: Mailer {
    func send(_ text: String) -> Bool { true }
}

struct RecordingMailer: Mailer {
    func send(_ text: String) -> Bool { true }
}

struct FailingMailer: Mailer {
    func send(_ text: String) -> Bool { false }
}

extension Container {
    var mailer: Factory<any Mailer> {
        self { SMTPMailer() }
            .onTest { RecordingMailer() }
    }
}

extension Container {
    var receiptMailer: Factory<any Mailer> {
        self { SMTPMailer() }
            .onTest { RecordingMailer() }
            .once()
    }
}

func replaceTheTestOverride() {
    Container.shared.receiptMailer.onTest { FailingMailer() }
}

extension Container {
    var mailLog: Factory<MailLog?> { promised() }
}

final class MailLog: Sendable {}

final class ReceiptSender: Sendable {
    let mailer = dependency(\.mailer)
    let log: MailLog?

    init() {
        log = Container.shared.mailLog()
    }
}

/// The article's messages, as FactoryKit writes them.
enum CommonMistakesMessages {
    static let shadowed =
        "FactoryKit: Container.mailer<Mailer> has a registration, but its .onTest override applies here and wins, "
        + "so the registration is not used. To replace the factory in this context, register for the context "
        + "(`Container.shared.mailer.onTest { ... }`) and end the definition with .once(), so that it does not put "
        + "its own override back."
    static let promise =
        "Container.mailLog<Optional<MailLog>> was promised but never registered. Register it before resolving it "
        + "(for example `Container.shared.mailLog.register { ... }` or in autoRegister()), or set "
        + "manager.promiseTriggersError = false to resolve it to nil."
}

@Suite
struct CommonMistakesArticleTests {
    #if DEBUG
        @Test func aShadowedRegistrationIsLoggedToStandardError() async {
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                FactoryContext.current.isTest = true
                Container.shared.mailer.register { FailingMailer() }
                _ = Container.shared.mailer()
                _ = Container.shared.mailer()
            }
            let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errors == CommonMistakesMessages.shadowed + "\n")
        }

        @Test(.container) func theFixWorks() {
            replaceTheTestOverride()
            #expect(Container.shared.receiptMailer().send("receipt") == false)
        }
    #endif

    @Test(.container) func aForgottenPromiseFailsTheTest() {
        Container.shared.manager.promiseTriggersError = true
        withKnownIssue("expected: the unregistered promise's issue, as the article prints it") {
            #expect(ReceiptSender().log == nil)
        } matching: { issue in
            issue.comments.contains { $0.rawValue == CommonMistakesMessages.promise }
        }
    }
}

final class Orders: Sendable {
    let payments: Payments
    init(payments: Payments) { self.payments = payments }
}

final class Payments: Sendable {
    let orders: Orders
    init(orders: Orders) { self.orders = orders }
}

struct Refund: Sendable {
    let orderID: Int
}

extension Container {
    var orders: Factory<Orders> { self { Orders(payments: self.payments()) } }
    var payments: Factory<Payments> { self { Payments(orders: self.orders()) } }
    var refund: ParameterFactory<Int, Refund> { self { Refund(orderID: $0) } }
}

func validateTheOrders() async throws -> [ValidationIssue] {
    let issues = try await Container.shared.validate(\.orders, \.refund)
    for issue in issues { print(issue) }
    return issues
}

extension CommonMistakesMessages {
    static let cycle =
        "Dependency cycle: Container.orders<Orders> → Container.payments<Payments> → Container.orders<Orders>. "
        + "Break the cycle by resolving one side later (@LazyInjected, or a closure that resolves on first use), "
        + "by passing the value in as a parameter (ParameterFactory), or by registering it after both exist "
        + "through a promised() factory."
    static let skipped =
        "Container.refund<Refund> takes a parameter, so validate cannot resolve it and skipped it. Validate the "
        + "factories it resolves instead, or a Factory that calls it with a typical parameter."
}

@Suite(.container)
struct CommonMistakesValidationTests {
    @Test func validateReportsTheCycleAndWhatItSkipped() async throws {
        let issues = try await validateTheOrders()
        // The article shows the definitions' paths of an app's sources; here they are this file's.
        let defined =
            " Defined: Container.orders<Orders> at \(#filePath):115; Container.payments<Payments> at \(#filePath):116."
        #expect(issues.map(\.description) == [CommonMistakesMessages.cycle + defined, CommonMistakesMessages.skipped])
    }
}
