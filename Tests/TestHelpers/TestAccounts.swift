package import SandboxBank

// The accounts the bank's and persistence's tests pay from: the bank names no API, so these are plain accounts
// of the tests' dialect "test", with credentials in their settings, as the first API keeps them.

extension Account {
    /// Like the sandbox's default merchant: `sandbox_login`, USD 1,000,000.00.
    package static let sandboxDefault = merchant(login: "sandbox_login", pass: "sandbox_pass", secret: "sandbox_secret",
                                         readOnlyKey: "sandbox_read_only", balance: Money(hundredths: 100_000_000))

    package static func merchant(login: String, pass: String, secret: String, readOnlyKey: String, currency: String = "USD",
                         balance: Money) -> Account {
        Account(id: login, dialect: "test", currency: currency, balance: balance,
                settings: ["pass": pass, "secret": secret, "read_only_key": readOnlyKey])
    }
}
