@testable import CashoutSandbox
import Testing
@testable import cashout_sandbox
@testable import SandboxBank
@testable import SandboxWire

@Suite struct CommandLineTests {
    private func configuration(_ words: [String]) throws -> Sandbox.Configuration {
        try ServeCommand.configuration(from: Arguments(words, options: ServeCommand.options, command: "serve"))
    }

    private func usageError(_ words: [String]) -> String? {
        do { _ = try configuration(words); return nil } catch { return (error as? UsageError)?.message ?? "\(error)" }
    }

    @Test func serveDefaultsAreLoopbackPort8080RealClockTextLog() throws {
        let c = try configuration([])
        #expect(c.server.host == "localhost")
        #expect(c.server.port == 8080)
        #expect(c.clockMode == nil)  // the scenario's clock, else real
        #expect(c.timeScale == 1)
        #expect(c.server.accessLog?.format == .text)
        #expect(c.server.limits.maxBodyBytes == 1 << 20)
    }

    @Test func serveOptionsAreReadInBothSpellings() throws {
        let c = try configuration(["--host", "0.0.0.0", "--port=0", "--clock", "manual", "--time-scale=60",
                                   "--log-format", "json", "--threads", "3", "--max-body", "2048"])
        #expect(c.server.host == "0.0.0.0")
        #expect(c.server.port == 0)
        #expect(c.clockMode == .manual)
        #expect(c.timeScale == 60)
        #expect(c.server.accessLog?.format == .json)
        #expect(c.server.threads == 3)
        #expect(c.server.limits.maxBodyBytes == 2048)
        #expect(try configuration(["--log-format", "off"]).server.accessLog == nil)
        #expect(c.eventLog?.format == .json)
        #expect(try configuration(["--log-format", "off"]).eventLog == nil)
        #expect(try configuration(["--seed", "42"]).seed == 42)
        #expect(try configuration([]).seed == nil)
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus' for serve"),
        (["-p", "80"], "unknown option '-p' for serve"),
        (["--port", "http"], "option '--port' expects a port number (0-65535), got 'http'"),
        (["--port", "70000"], "option '--port' expects a port number (0-65535), got '70000'"),
        (["--port"], "option '--port' needs a value (PORT)"),
        (["--port", "--host"], "option '--port' needs a value (PORT)"),
        (["--clock", "fast"], "option '--clock' expects real or manual, got 'fast'"),
        (["--time-scale", "-1"], "option '--time-scale' expects a number from 0.001 to 1000000, got '-1'"),
        (["--time-scale", "1e300"], "option '--time-scale' expects a number from 0.001 to 1000000, got '1e300'"),
        (["--time-scale", "nan"], "option '--time-scale' expects a number from 0.001 to 1000000, got 'nan'"),
        (["--log-format", "xml"], "option '--log-format' expects text, json or off, got 'xml'"),
        (["--threads", "0"], "option '--threads' expects a thread count (1-256), got '0'"),
        (["--help=yes"], "option '--help' takes no value"),
        (["--seed", "-1"], "option '--seed' expects a whole number ≥ 0, got '-1'"),
    ])
    func badServeOptionsAreUsageErrors(words: [String], message: String) {
        #expect(usageError(words) == message)
    }

    @Test func exitStatusesAre0ForHelpAndVersionAnd2ForUsageErrors() {
        #expect(CLI.run(["--version"]) == 0)
        #expect(CLI.run(["--help"]) == 0)
        #expect(CLI.run(["help", "serve"]) == 0)
        #expect(CLI.run(["serve", "--help"]) == 0)
        #expect(CLI.run([]) == 2)
        #expect(CLI.run(["launch"]) == 2)
        #expect(CLI.run(["serve", "--port", "x"]) == 2)
        #expect(CLI.run(["serve", "extra"]) == 2)
    }

    private func configuration(_ words: [String], environment: [String: String]) throws -> Sandbox.Configuration {
        try ServeCommand.configuration(from: Arguments(words, options: ServeCommand.options, command: "serve")) { environment[$0] }
    }

    @Test func theAdminTokenComesFromTheOptionElseTheEnvironmentVariable() throws {
        let variable = "CASHOUT_SANDBOX_ADMIN_TOKEN"
        #expect(try configuration([], environment: [:]).adminToken == nil)
        #expect(try configuration([], environment: [variable: ""]).adminToken == nil)
        #expect(try configuration([], environment: [variable: "from-env"]).adminToken == "from-env")
        #expect(try configuration(["--admin-token", "from-option"], environment: [:]).adminToken == "from-option")
        #expect(try configuration(["--admin-token=from-option"], environment: [variable: "from-env"]).adminToken == "from-option")
        #expect(ServeCommand.usage.contains("--admin-token TOKEN"))
        #expect(ServeCommand.usage.contains("$CASHOUT_SANDBOX_ADMIN_TOKEN"))
    }

    @Test(arguments: [
        (["--admin-token="], [:], "option '--admin-token' expects a token of visible ASCII characters without spaces, got ''"),
        (["--admin-token", "two words"], [:], "option '--admin-token' expects a token of visible ASCII characters without spaces, got 'two words'"),
        (["--admin-token", "tøken"], [:], "option '--admin-token' expects a token of visible ASCII characters without spaces, got 'tøken'"),
        (["--admin-token"], [:], "option '--admin-token' needs a value (TOKEN)"),
        ([], ["CASHOUT_SANDBOX_ADMIN_TOKEN": "two words"],
         "environment variable CASHOUT_SANDBOX_ADMIN_TOKEN must be a token of visible ASCII characters without spaces"),
    ] as [([String], [String: String], String)])
    func badAdminTokensAreUsageErrors(words: [String], environment: [String: String], message: String) {
        #expect(throws: UsageError(message)) { try configuration(words, environment: environment) }
    }

    @Test func serveHelpListsEveryOption() {
        for option in ServeCommand.options { #expect(ServeCommand.usage.contains("--\(option.name)")) }
    }
}
