import FactoryKit
import Foundation
import Testing

// What a new user trips on in the first hour, each fixed where it happens.

@Suite
struct DiagnosticsOutputTests {
    @Test func warningsGoToStandardErrorNotStandardOutput() async {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            Container().manager.pop()  // a warning: nothing to pop
            print("program output")
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output == "program output\n")
        #expect(errors.contains("FactoryKit: pop() without a matching push()"))
    }
}
