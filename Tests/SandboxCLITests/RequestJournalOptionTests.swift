@testable import CashoutSandbox
@testable import cashout_sandbox
import Testing

/// `serve --request-journal N`: how many requests the request log keeps (RequestLogTests has what it keeps).
@Suite struct RequestJournalOptionTests {
    @Test func serveTakesTheBoundAsAnOption() throws {
        func configuration(_ words: [String]) throws -> Sandbox.Configuration {
            try ServeCommand.configuration(from: Arguments(words, options: ServeCommand.options, command: "serve"))
        }
        #expect(try configuration([]).requestJournalCapacity == 1000)
        #expect(try configuration(["--request-journal", "0"]).requestJournalCapacity == 0)
        #expect(try configuration(["--request-journal=50"]).requestJournalCapacity == 50)
        #expect(throws: UsageError("option '--request-journal' expects a number of requests (0-1000000), got '-1'")) {
            try configuration(["--request-journal", "-1"])
        }
    }
}
