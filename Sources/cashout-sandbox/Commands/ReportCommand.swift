import Glibc
import SandboxWire
import SandboxSupport

/// `cashout-sandbox report URL [--account ID] [--follow-up-within D] [--polling-limit N] [--polling-per D] [--json]
/// [--admin-token TOKEN]`: the integration
/// report of a running sandbox (`GET /sandbox/report`), for a terminal or a CI job: the findings
/// per account and a last line `N errors, N warnings` (`ReportCommand+Summary`), or the JSON as
/// the sandbox answered it. Exit 0 when no finding is an error, 1 when one is, 2 (a `UsageError`:
/// its message, and where the help is) when the command line is wrong or there is no report to
/// read: the sandbox cannot be reached, or answers anything but a report (an unknown account's
/// 404, a 409 when its request log lost evidence, a 401 for the admin token).
enum ReportCommand: Command {
    static let name = "report"
    static let summary = "Print what the app gets wrong: a running sandbox's integration report"
    static let discussion = """
        Reads the integration report of the sandbox at URL (GET URL/sandbox/report): for each account, \
        what the app that called its payout APIs gets wrong, each finding with its severity, id, \
        occurrences, evidence and advice; then the checks that passed and those nothing exercised, and \
        "N errors, N warnings; N of N checks not exercised" (a clean report that exercised few checks judged \
        little). The thresholds are the suite's (its "report" key) unless --follow-up-within, --polling-limit or \
        --polling-per set them (default 1m, 10 per 1m). With --json, prints the report as the sandbox answered it. Exits 0 when \
        no finding is an error, 1 when one is, 2 when the sandbox cannot be reached or makes no report \
        (an account it never saw, a request journal that pushed out requests, a refused admin token).
        """

    static let options: [Arguments.Option] = [
        .value("account", "ID", "Only this account's report, by its id in its API (GET /sandbox/accounts lists them)"),
        .value("follow-up-within", "DURATION", "How long after a notification the app has to ask for the status, such as 2m (D24)"),
        .value("polling-limit", "N", "The most status queries of one cashout --polling-per allows"),
        .value("polling-per", "DURATION", "The window --polling-limit counts in, such as 1m"),
        .flag("json", "Print the report's JSON as the sandbox answers it"),
        .value("admin-token", "TOKEN", "Send 'Authorization: Bearer TOKEN' to the admin API (default: $\(ServeCommand.adminTokenVariable))"),
    ]

    static let positional: Positional? = Positional(
        synopsis: "URL", help: "The sandbox's base URL, such as http://127.0.0.1:8080", completion: .nothing)

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        guard let given = arguments.positional.first else { throw UsageError("report needs the sandbox's URL, such as http://127.0.0.1:8080") }
        guard arguments.positional.count == 1 else { throw UsageError("unexpected argument '\(arguments.positional[1])' for report") }
        guard let base = Arguments.baseURL(given), base.lowercased().hasPrefix("http://") else {
            throw UsageError("expected the sandbox's URL, an http URL such as http://127.0.0.1:8080 (it serves no TLS), got '\(given)'")
        }
        let token = try ServeCommand.adminToken(arguments) { getenv($0).map { String(cString: $0) } }
        let parameters = [("account", "account"), ("follow-up-within", "follow_up_within"), ("polling-limit", "polling_limit"),
                          ("polling-per", "polling_per")].compactMap { option, name in arguments.value(option).map { (name, $0) } }
        let query = parameters.isEmpty ? "" : "?" + FormURLEncoding.encode(parameters, spaceAsPlus: false)
        // A report lists every occurrence with its evidence: a long run's is larger than a request.
        var limits = HTTPLimits()
        limits.maxBodyBytes = 1 << 30
        let response: HTTPResponse
        do {
            response = try HTTPClient.send(method: "GET", url: base + "/sandbox/report" + query,
                                           headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:], timeout: .seconds(30), limits: limits)
        } catch {
            throw UsageError("cannot reach the sandbox at \(base): \(error) (is 'cashout-sandbox serve' running there?)")
        }
        let json = try? JSON.parse(response.body)
        if arguments.has("json") { StandardOutput.writeLine(response.bodyText) }
        guard response.status == 200, let report = json, let ok = report["ok"]?.boolValue, report["accounts"]?.arrayValue != nil else {
            throw UsageError(refusal(response, json: json, token: token))
        }
        if !arguments.has("json") { StandardOutput.writeLine(summary(of: report)) }
        return ok ? 0 : 1
    }

    /// Why an answer is no report: the sandbox's own message, and what to do about a 401.
    private static func refusal(_ response: HTTPResponse, json: JSON?, token: String?) -> String {
        let message = json?["message"]?.stringValue
        switch response.status {
        case 200: return "the answer of GET /sandbox/report is not a CashoutSandbox report; is the URL the sandbox's?"
        case 401 where token == nil:
            return "the sandbox wants its admin token (HTTP 401): pass --admin-token TOKEN or set $\(ServeCommand.adminTokenVariable)"
        default: return "no report (HTTP \(response.status)): \(message ?? String(response.bodyText.prefix(200)))"
        }
    }
}
