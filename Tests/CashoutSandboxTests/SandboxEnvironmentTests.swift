@testable import CashoutSandbox
import Foundation
@testable import SandboxD24
@testable import SandboxContract
@testable import SandboxWire
@testable import SandboxMannco
import Testing
@testable import SandboxBank

/// The environment `test --serve --exec` gives the user's app: each dialect's names for an
/// account's credentials, under the dialect for its first account and under the account's id for
/// every one.
@Suite struct SandboxEnvironmentTests {
    private static func names(_ variables: [(name: String, value: String)]) -> [String] { variables.map(\.name) }

    @Test func eachDialectNamesItsCredentials() throws {
        #expect(Self.names(D24Dialect().environment(D24Merchant.sandboxDefault)) == ["LOGIN", "PASS", "SECRET_KEY", "READ_ONLY_KEY"])
        let noReadOnlyKey = D24Merchant.account(login: "acme", pass: "p", secret: "s", balance: .zero)
        #expect(D24Dialect().environment(noReadOnlyKey).map { "\($0.name)=\($0.value)" } == ["LOGIN=acme", "PASS=p", "SECRET_KEY=s"])
        #expect(ManncoDialect().environment(ManncoUser.sandboxDefault).map { "\($0.name)=\($0.value)" }
            == ["USER_ID=76561198000000001", "API_KEY=sandbox_mannco_key"])
        let prism = try #require(Sandbox.standardDialects.first { $0.name == "prism" })
        #expect(prism.environment(try #require(prism.defaultAccounts.first)).map { "\($0.name)=\($0.value)" }
            == ["MERCHANT_ID=DefaultMerchantId", "API_KEY=sandbox_prism_key"])
    }

    /// `CASHOUT_SANDBOX_APP_PORT`: a port nothing listens on yet, the same each time it is asked.
    @Test func theAppPortIsFreeAndStays() throws {
        let sandbox = try Sandbox.launch(Sandbox.Configuration())
        defer { sandbox.stop() }
        let port = sandbox.appPort
        #expect(port > 0 && port != sandbox.baseURL.port)
        #expect(sandbox.environment.first { $0.name == "CASHOUT_SANDBOX_APP_PORT" }?.value == String(port))
        let app = try HTTPServer.start(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: port)) { _ in HTTPResponse(status: 204) }
        app.stop()
        #expect(sandbox.appPort == port)
    }

    @Test func theDefaultAccountsAndTheURL() throws {
        let sandbox = try Sandbox.launch(Sandbox.Configuration())
        defer { sandbox.stop() }
        let variables = Dictionary(uniqueKeysWithValues: sandbox.environment.map { ($0.name, $0.value) })
        #expect(variables == [
            "CASHOUT_SANDBOX_URL": sandbox.baseURL.absoluteString, "CASHOUT_SANDBOX_APP_PORT": String(sandbox.appPort),
            "CASHOUT_SANDBOX_D24_LOGIN": "sandbox_login", "CASHOUT_SANDBOX_D24_PASS": "sandbox_pass",
            "CASHOUT_SANDBOX_D24_SECRET_KEY": "sandbox_secret", "CASHOUT_SANDBOX_D24_READ_ONLY_KEY": "sandbox_read_only",
            "CASHOUT_SANDBOX_D24_SANDBOX_LOGIN_LOGIN": "sandbox_login", "CASHOUT_SANDBOX_D24_SANDBOX_LOGIN_PASS": "sandbox_pass",
            "CASHOUT_SANDBOX_D24_SANDBOX_LOGIN_SECRET_KEY": "sandbox_secret",
            "CASHOUT_SANDBOX_D24_SANDBOX_LOGIN_READ_ONLY_KEY": "sandbox_read_only",
            "CASHOUT_SANDBOX_MANNCO_USER_ID": "76561198000000001", "CASHOUT_SANDBOX_MANNCO_API_KEY": "sandbox_mannco_key",
            "CASHOUT_SANDBOX_MANNCO_76561198000000001_USER_ID": "76561198000000001",
            "CASHOUT_SANDBOX_MANNCO_76561198000000001_API_KEY": "sandbox_mannco_key",
            "CASHOUT_SANDBOX_PRISM_MERCHANT_ID": "DefaultMerchantId", "CASHOUT_SANDBOX_PRISM_API_KEY": "sandbox_prism_key",
            "CASHOUT_SANDBOX_PRISM_DEFAULTMERCHANTID_MERCHANT_ID": "DefaultMerchantId",
            "CASHOUT_SANDBOX_PRISM_DEFAULTMERCHANTID_API_KEY": "sandbox_prism_key",
        ])
        #expect(sandbox.environment.first?.name == "CASHOUT_SANDBOX_URL")
    }

    /// The short names are each dialect's first account in the bank's order: its default one, as
    /// a scenario's accounts join the defaults. Every account has its names with its id, which
    /// reads upper-cased, anything but ASCII letters and digits as `_`; of two ids that read the
    /// same, the first account's name holds.
    @Test func aScenarioWithSeveralAccounts() throws {
        let text = #"""
        {"merchants": [{"login": "shop-eu", "pass": "p1", "secret": "s1"}, {"login": "shop.us", "pass": "p2", "secret": "s2"},
                       {"login": "shop_us", "pass": "p3", "secret": "s3"}],
         "prism_merchants": [{"merchant_id": "acme", "api_key": "k", "key1": "k1", "api_secret": "sec"}],
         "steps": [{"advance": "1s"}]}
        """#
        var configuration = Sandbox.Configuration()
        configuration.scenarios = [try ScenarioLoader.load(Array(text.utf8), file: "t.json", vocabulary: Sandbox.standardVocabulary)]
        let sandbox = try Sandbox.launch(configuration)
        defer { sandbox.stop() }
        let variables = sandbox.environment
        let value = { (name: String) in variables.first { $0.name == name }?.value }
        #expect(value("CASHOUT_SANDBOX_D24_LOGIN") == "sandbox_login")
        #expect(value("CASHOUT_SANDBOX_D24_SHOP_EU_LOGIN") == "shop-eu")
        #expect(value("CASHOUT_SANDBOX_D24_SHOP_EU_SECRET_KEY") == "s1")
        #expect(value("CASHOUT_SANDBOX_D24_SHOP_US_PASS") == "p2")
        #expect(value("CASHOUT_SANDBOX_PRISM_MERCHANT_ID") == "DefaultMerchantId")
        #expect(value("CASHOUT_SANDBOX_PRISM_ACME_MERCHANT_ID") == "acme")
        #expect(value("CASHOUT_SANDBOX_PRISM_ACME_KEY1") == "k1")
        #expect(value("CASHOUT_SANDBOX_PRISM_ACME_API_SECRET") == "sec")
        #expect(value("CASHOUT_SANDBOX_PRISM_KEY1") == nil)
        #expect(Set(variables.map(\.name)).count == variables.count)
    }
}
