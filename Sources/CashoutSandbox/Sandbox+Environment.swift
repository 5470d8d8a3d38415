import SandboxBank
import SandboxContract
import SandboxWire
import FoundationEssentials
import Synchronization

/// The environment of an app run beside the sandbox (`cashout-sandbox test --serve --exec`): where
/// the sandbox is, and the accounts' credentials, so that the app needs no configuration of its own.
///
/// Each name its dialect gives an account's credential (`Dialect.environment`: `LOGIN`) comes
/// twice: under the dialect for the dialect's first account in the order the bank lists them,
/// which is its default account unless the configuration names others, since a scenario's
/// accounts join the defaults (`CASHOUT_SANDBOX_D24_LOGIN`: `sandbox_login`); and under the
/// dialect and the account's id for every account
/// (`CASHOUT_SANDBOX_D24_SANDBOX_LOGIN_LOGIN`), the id upper-cased with every character but ASCII
/// letters and digits as `_`. Two ids that read the same that way (`acme-1`, `acme_1`) give one
/// name: the first account's.
///
/// ```swift
/// sandbox.environment.first { $0.name == "CASHOUT_SANDBOX_D24_LOGIN" }?.value   // "sandbox_login"
/// ```
extension Sandbox {
    /// The variable holding the base URL, `http://127.0.0.1:PORT`.
    public static let urlVariable = "CASHOUT_SANDBOX_URL"

    /// The variable holding ``appPort``.
    public static let appPortVariable = "CASHOUT_SANDBOX_APP_PORT"

    /// A free TCP port on 127.0.0.1 for the app under test to listen on (as Heroku's `$PORT`),
    /// picked on first use and the same afterwards; 0 when none could be bound.
    public var appPort: Int {
        pickedAppPort.withLock { picked in
            if let picked { return picked }
            let port = SocketAddress.freePort() ?? 0
            picked = port
            return port
        }
    }

    /// What every variable's name starts with.
    static let environmentPrefix = "CASHOUT_SANDBOX_"

    /// `CASHOUT_SANDBOX_URL`, `CASHOUT_SANDBOX_APP_PORT`, then each account's credentials, each name once.
    public var environment: [(name: String, value: String)] {
        [(Self.urlVariable, baseURL.absoluteString), (Self.appPortVariable, String(appPort))]
            + Self.environment(of: bank.accounts, dialects: dialects)
    }

    /// The credentials of `accounts` as their `dialects` name them, the unqualified names first.
    static func environment(of accounts: [Account], dialects: [String: any Dialect]) -> [(name: String, value: String)] {
        var firsts: [(name: String, value: String)] = []
        var everyAccount: [(name: String, value: String)] = []
        var seenDialects = Set<String>()
        for account in accounts {
            guard let dialect = dialects[account.dialect] else { continue }
            let variables = dialect.environment(account)
            let prefix = environmentPrefix + word(dialect.name) + "_"
            if seenDialects.insert(dialect.name).inserted {
                firsts += variables.map { (prefix + $0.name, $0.value) }
            }
            everyAccount += variables.map { (prefix + word(account.id) + "_" + $0.name, $0.value) }
        }
        var seen = Set<String>()
        return (firsts + everyAccount).filter { seen.insert($0.name).inserted }
    }

    /// `text` as part of a variable's name: upper-cased ASCII letters and digits, anything else `_`.
    static func word(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            switch scalar {
            case "a" ... "z": Unicode.Scalar(scalar.value - 32)!
            case "A" ... "Z", "0" ... "9": scalar
            default: "_"
            }
        }))
    }
}
