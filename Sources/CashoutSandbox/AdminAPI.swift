import Dispatch
import SandboxBank
import SandboxHTTP
import SandboxJSON

/// The sandbox's own endpoints under `/sandbox/` (DESIGN.md, "Admin API"): health, the clock,
/// cashouts and forced outcomes, webhooks and the sink, merchants and the ledger. Errors use the
/// same `{"code": <HTTP status>, "message": "..."}` shape as the router's.
///
/// Moving the clock and redelivering send webhooks, which may take seconds or be addressed to this
/// very server: that work runs on `worker`, one job at a time, never on an event-loop thread.
struct AdminAPI: Sendable {
    let bank: Bank
    let sinks: SinkStore
    let worker = DispatchQueue(label: "cashout-sandbox.admin")

    func register(in router: inout Router) {
        router.add("GET /sandbox/health") { _ in health() }
        router.add("GET /sandbox/clock") { _ in .json(clockJSON()) }
        router.add("POST /sandbox/clock/advance") { request in .later(on: worker) { advanceClock(request) } }
        registerCashouts(in: &router)
        registerMerchants(in: &router)
        registerWebhooks(in: &router)
    }

    /// `{"clock":{"mode":"real","now":"…"},"status":"ok","version":"0.1.0"}`
    private func health() -> HTTPResponse {
        .json([
            "status": "ok",
            "version": .string(Sandbox.version),
            "clock": ["mode": .string(bank.clock.mode.rawValue), "now": .string(bank.clock.now.iso8601)],
        ])
    }

    private func clockJSON(applied: Int? = nil) -> JSON {
        var json: [String: JSON] = [
            "mode": .string(bank.clock.mode.rawValue), "now": .string(bank.clock.now.iso8601),
            "next_event_at": AdminJSON.optional(bank.nextEventAt?.iso8601),
        ]
        if let applied { json["events_applied"] = .number(applied) }
        return .object(json)
    }

    /// `{"by":"2d"}`, `{"to":"2026-01-07T00:00:00Z"}` or `{"to_next_event":true}`.
    private func advanceClock(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = Self.object(request) else { return Self.badBody }
        let applied: Int
        if let by = body["by"] {
            guard let text = by.stringValue, let duration = DurationText.parse(text) else {
                return Router.error(400, "by: expected a duration such as \"30s\", \"1h5m\" or \"2d\"")
            }
            applied = bank.advance(by: duration)
        } else if let to = body["to"] {
            guard let text = to.stringValue, let time = VirtualTime(iso8601: text) else {
                return Router.error(400, "to: expected a UTC time such as \"2026-01-05T09:00:00Z\"")
            }
            guard time >= bank.clock.now else { return Router.error(409, "to: \(text) is in the past; the clock only moves forward") }
            applied = bank.advance(to: time)
        } else if body["to_next_event"] == .bool(true) {
            applied = bank.advanceToNextEvent()
        } else {
            return Router.error(400, "expected one of \"by\", \"to\" or \"to_next_event\": true")
        }
        return .json(clockJSON(applied: applied))
    }

    /// The request body as a JSON object, or nil.
    static func object(_ request: HTTPRequest) -> [String: JSON]? {
        guard case .object(let object)? = try? JSON.parse(request.body) else { return nil }
        return object
    }

    static let badBody = Router.error(400, "the body must be a JSON object")
}
