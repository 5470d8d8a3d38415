import CashoutSandbox
package import SandboxContract
package import SandboxSupport
import SandboxWire

/// What the runner asks the app under test itself, beside what the sandbox sees of it: its word on whether it has work
/// pending (`app.settled`, the Testing your app guide, "Saying when your app is settled") and its ledger (`app.ledger`,
/// "Reconciliation"). One small face, so that the clock's waits (``AppSettled``, ``AppTurns``) and the reading of a
/// ledger are tested with answers a test gives, without sockets; ``AppOverHTTP`` asks a running app.
package protocol AppAnswers: Sendable {
    /// What `app.settled` at `url` (its `${NAME}`s expanded) answers.
    func settled(at url: String) -> SettledAnswer
    /// The ledger at `location` (a URL or a file, as `app.ledger` names it): its JSON, or what kept it from being read.
    func ledger(at location: String) -> Result<JSON, Reconciliation.Problem>
}

/// What an app's `app.settled` answered.
package enum SettledAnswer: Sendable, Equatable {
    /// `{"pending": N}`: this much work pending (0: settled).
    case pending(Int)
    /// Nothing the runner can read as a count: not served, refused, or not 200. The clock guesses.
    case notServed
    /// A 200 not in its form (the body, as the note quotes it, at most 60 characters). The clock guesses.
    case unreadable(String)
}

/// The app's answers over HTTP and from files: a GET of `app.settled` within ``AppSettled/timeout``, and the
/// sandbox's reading of a ledger (``Sandbox/readLedger(at:)``, which the admin API's reconciliation shares).
struct AppOverHTTP: AppAnswers {
    let sandbox: Sandbox

    init(sandbox: Sandbox) {
        self.sandbox = sandbox
    }

    func settled(at url: String) -> SettledAnswer {
        guard let response = try? HTTPClient.send(method: "GET", url: url, headers: ["Accept": "application/json"], timeout: AppSettled.timeout),
              response.status == 200 else { return .notServed }
        guard let json = try? JSON.parse(response.body), let number = json["pending"]?.numberText, let pending = Int(number), pending >= 0 else {
            return .unreadable(String(decoding: response.body.prefix(60), as: UTF8.self) + (response.body.count > 60 ? "..." : ""))
        }
        return .pending(pending)
    }

    package func ledger(at location: String) -> Result<JSON, Reconciliation.Problem> {
        sandbox.readLedger(at: location)
    }
}
