import CashoutSandbox
import SandboxBank
import SandboxSupport
import SandboxContract
import FoundationEssentials

extension ServeCommand {
    /// A line `serve` prints once it listens: its text, and in `--log-format json` its event and fields.
    typealias StartupLine = (text: String, event: String, fields: EventLog.Fields)

    /// What a user needs to know before the first request, after the addresses: how the clock
    /// moves, which scenarios decide, and where the dashboard and the API docs are.
    static func startupLines(_ sandbox: Sandbox, scenarios: [Scenario]) -> [StartupLine] {
        let clock = sandbox.clock
        let now = clock.now.iso8601
        let clockLine: StartupLine = switch clock.mode {
        case .manual:
            ("clock: manual, now \(now) (it moves only when advanced: POST /sandbox/clock/advance)", "server.clock",
             [("mode", .string("manual")), ("now", .string(now))])
        case .real:
            ("clock: real, time scale \(number(clock.timeScale)) (virtual seconds per real second), now \(now)", "server.clock",
             [("mode", .string("real")), ("time_scale", .number(number(clock.timeScale))), ("now", .string(now))])
        }
        let scenarioLines: [StartupLine] = scenarios.isEmpty
            ? [("scenario: none (the built-in default bank and its magic values decide)", "server.scenario", [])]
            : scenarios.map { ("scenario: \($0.name) (\($0.file))", "server.scenario", [("name", .string($0.name)), ("file", .string($0.file))]) }
        // Listening on every address (0.0.0.0, [::]) is no address to open in a browser: localhost is.
        // (A prefix, not `replacing`: its first use in a process costs a start some 0.3M instructions.)
        var base = sandbox.baseURL.absoluteString
        for wildcard in ["http://0.0.0.0:", "http://[::]:"] where base.hasPrefix(wildcard) {
            base = "http://localhost:" + base.dropFirst(wildcard.count)
        }
        return [clockLine] + scenarioLines + [
            ("dashboard: \(base)/", "server.dashboard", [("url", .string("\(base)/"))]),
            ("docs: \(base)/openapi.json (OpenAPI 3.1), \(base)/postman.json (Postman collection)", "server.docs",
             [("openapi", .string("\(base)/openapi.json")), ("postman", .string("\(base)/postman.json"))]),
        ]
    }

    /// `60` rather than `60.0`; `0.5` as it is.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
