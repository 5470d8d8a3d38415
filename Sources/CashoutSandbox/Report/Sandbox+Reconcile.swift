import FoundationEssentials
import SandboxBank
public import SandboxContract
import SandboxWire
public import SandboxSupport

// Reconciliation (the Testing your app guide, "Reconciliation"): the app's own ledger of its
// payouts, read from a URL or a file, compared with the bank; the last one is kept for the
// integration report (`ledger_mismatch`).

extension Sandbox {
    /// How long a ledger URL has to answer, connection included.
    public static let ledgerTimeout = Duration.seconds(10)

    /// `text` with each `${NAME}` replaced by NAME's value in the environment an app run beside
    /// the sandbox gets: this process's own, then the sandbox's (``environment``), which wins.
    package func expandingVariables(_ text: String) -> Result<String, Reconciliation.Problem> {
        guard text.contains("${") else { return .success(text) }
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        var out = "", rest = Substring(text)
        while let start = rest.firstRange(of: "${") {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                return .failure(Reconciliation.Problem(text, "expected } after ${"))
            }
            let name = String(rest[start.upperBound ..< end])
            guard let value = variables[name] else {
                return .failure(Reconciliation.Problem(text, "${\(name)} is not set in the app's environment"))
            }
            out += value
            rest = rest[rest.index(after: end)...]
        }
        return .success(out + rest)
    }

    /// The ledger at `location` (`${NAME}` expanded first): the JSON an `http://` URL answers to
    /// a GET within ``ledgerTimeout``, or the JSON in a file.
    package func readLedger(at location: String) -> Result<JSON, Reconciliation.Problem> {
        let place: String
        switch expandingVariables(location) {
        case .success(let text): place = text
        case .failure(let problem): return .failure(problem)
        }
        let bytes: [UInt8]
        if place.lowercased().hasPrefix("http://") || place.lowercased().hasPrefix("https://") {
            guard place.lowercased().hasPrefix("http://") else {
                return .failure(Reconciliation.Problem(place, "expected an http:// URL (the sandbox reads no https)"))
            }
            let response: HTTPResponse
            do {
                response = try HTTPClient.send(method: "GET", url: place, headers: ["Accept": "application/json"], timeout: Self.ledgerTimeout)
            } catch .timedOut {
                return .failure(Reconciliation.Problem(place, "no answer within \(DurationText.format(Self.ledgerTimeout))"))
            } catch .refused(let why) {
                return .failure(Reconciliation.Problem(place, "no answer: \(HTTPClientError.refused(why))", unserved: true))
            } catch {
                return .failure(Reconciliation.Problem(place, "no answer: \(error)"))
            }
            guard response.status == 200 else {
                return .failure(Reconciliation.Problem(place, "answered \(response.status), expected 200 and the ledger as JSON"))
            }
            bytes = response.body
        } else {
            guard let data = FileManager.default.contents(atPath: place) else {
                return .failure(Reconciliation.Problem(place, "no such file, or it cannot be read"))
            }
            bytes = Array(data)
        }
        guard let json = try? JSON.parse(bytes) else {
            let text = String(decoding: bytes.prefix(60), as: UTF8.self)
            let shown = JSON.string(text + (bytes.count > 60 ? "..." : "")).serializedString()
            return .failure(Reconciliation.Problem(place, "expected JSON, got \(shown)"))
        }
        return .success(json)
    }

    /// Compares `ledger` (read from `source`) with the bank's payouts, of `account` alone when
    /// given, and keeps the reconciliation for the integration report (a problem keeps nothing).
    ///
    /// - Parameters:
    ///   - ledger: The app's ledger, as JSON (the Testing your app guide, "Reconciliation", gives its form).
    ///   - source: Where it was read, as the report names it; `"request body"` by default.
    ///   - account: The one account to compare (a merchant's, a user's); nil (the default): every account.
    /// - Returns: The reconciliation (no `mismatches` when the app and the bank agree), or the `Reconciliation.Problem` that
    ///   kept the ledger from being compared: not in its form, or naming a cashout the bank did not make.
    @discardableResult
    public func reconcile(ledger: JSON, source: String = "request body", account: String? = nil) -> Result<Reconciliation, Reconciliation.Problem> {
        reports.reconcile(ledger: ledger, source: source, account: account, bank: bank, requestLog: requestLog, sender: sender,
                          dialects: dialects)
    }

    /// Reads the ledger at `location` and reconciles it (`readLedger(at:)`, ``reconcile(ledger:source:account:)``).
    ///
    /// - Parameters:
    ///   - location: An `http://` URL it is fetched from (a GET, answered within ``ledgerTimeout``) or a file's path; each `${NAME}` is
    ///     replaced by that variable's value first.
    ///   - account: The one account to compare (a merchant's, a user's); nil (the default): every account.
    /// - Returns: The reconciliation, or the `Reconciliation.Problem` that kept it from being made: no answer, an answer other
    ///   than 200, no such file, not JSON, or a ledger not in its form.
    @discardableResult
    public func reconcile(ledgerAt location: String, account: String? = nil) -> Result<Reconciliation, Reconciliation.Problem> {
        reconcile(read: readLedger(at: location), from: location, account: account)
    }

    /// The ledger `read` from `location` (as ``readLedger(at:)`` reads it, or another reader) reconciled, the report naming
    /// `location` with its `${NAME}`s expanded.
    package func reconcile(read: Result<JSON, Reconciliation.Problem>, from location: String, account: String?)
        -> Result<Reconciliation, Reconciliation.Problem> {
        read.flatMap { reconcile(ledger: $0, source: (try? expandingVariables(location).get()) ?? location, account: account) }
    }
}
