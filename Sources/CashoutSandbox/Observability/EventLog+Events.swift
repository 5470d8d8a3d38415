import SandboxBank
import SandboxWire
import SandboxSupport

// What each event's line says. Times named `at`, `from`, `to` and `next_attempt_at` are on the
// virtual clock; `time` (added by the log) is the wall clock. Amounts are strings, as in the API.
extension EventLog {
    /// The event's name and fields, in the order text lines show them.
    static func describe(_ event: BankEvent) -> (String, Fields) {
        switch event {
        case .created(let payout):
            return ("cashout.created", [
                ("cashout_id", .number(payout.id)), ("merchant", .string(payout.account)),
                ("external_id", AdminJSON.optional(payout.reference)), ("country", AdminJSON.optional(payout.country)),
                ("currency", .string(payout.currency)), ("amount", .string(payout.amount.description)),
                ("status", .string(payout.status.name)), ("at", .string(payout.createdAt.iso8601)),
            ])
        case .statusChanged(let payout, let from, let actor, let at):
            var fields: Fields = [
                ("cashout_id", .number(payout.id)), ("merchant", .string(payout.account)),
                ("external_id", AdminJSON.optional(payout.reference)), ("from", .string(from.name)),
                ("to", .string(payout.status.name)), ("by", .string(actor)),
            ]
            if payout.status == .rejected || payout.status == .returned, payout.reasonCode != nil {
                fields.append(("rejection_code", AdminJSON.code(payout.reasonCode)))
                if let reason = payout.reason { fields.append(("rejection_reason", .string(reason))) }
            }
            fields.append(("at", .string(at.iso8601)))
            return ("cashout.status_changed", fields)
        case .deliveryAttempt(let notification, let attempt):
            var fields: Fields = [
                ("notification_id", .number(notification.id)), ("cashout_id", .number(notification.payoutID)),
                ("cashout_status", .string(notification.status.name)), ("url", .string(notification.url ?? "")),
                ("attempt", .number(attempt.number)),
            ]
            if let status = attempt.outcome.status { fields.append(("response_status", .number(status))) }
            if let error = attempt.outcome.error { fields.append(("error", .string(error))) }
            fields.append(("outcome", .string(outcome(of: notification, attempt))))
            if let next = notification.nextAttemptAt { fields.append(("next_attempt_at", .string(next.iso8601))) }
            if attempt.manual { fields.append(("manual", .bool(true))) }
            if let chaos = attempt.chaos { fields.append(("chaos", .string(chaos.kind.rawValue))) }
            fields.append(("at", .string(attempt.at.iso8601)))
            return ("webhook.attempt", fields)
        case .clockAdvanced(let from, let to, let applied):
            return ("clock.advanced", [("from", .string(from.iso8601)), ("to", .string(to.iso8601)),
                                       ("events_applied", .number(applied))])
        }
    }

    /// `delivered`, `retrying` (another attempt is scheduled), `exhausted` (no more), or `failed`
    /// (a manual redelivery or a chaos copy that failed, leaving the schedule as it was).
    private static func outcome(of notification: StatusNotification, _ attempt: DeliveryAttempt) -> String {
        if attempt.outcome.succeeded { return "delivered" }
        if attempt.manual || attempt.chaos?.kind.isCopy == true { return "failed" }
        return notification.state == .exhausted ? "exhausted" : "retrying"
    }

    /// `scenario.loaded`: its name, how many rules are now in force, and the merchants.
    func scenarioLoaded(name: String, rules: Int, merchants: [String]) {
        event("scenario.loaded", [("name", .string(name)), ("rules", .number(rules)), ("merchants", .array(merchants.map(JSON.string)))])
    }

    /// `auth.refused`: a payout API refused a request's credentials; the check that failed, what it
    /// compared (the diagnosis's plain details: lists and objects are in the request log) and why.
    /// A gRPC call's answer is HTTP 200 whatever its outcome, so its `grpc_status` comes too.
    func authRefused(method: String, path: Substring, response: HTTPResponse, _ diagnosis: Diagnosis) {
        var fields: Fields = [("method", .string(method)), ("path", .string(String(path))), ("status", .number(response.status))]
        if let code = response.grpcStatus { fields.append(("grpc_status", .string(code.name))) }
        fields.append(("check", .string(diagnosis.check)))
        for (key, value) in diagnosis.details.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .string, .number, .bool: fields.append((key, value))
            default: continue
            }
        }
        fields.append(("message", .string(diagnosis.message)))
        event("auth.refused", fields)
    }

    /// `sandbox.reset`: everything forgotten but the clock, which stays at `clock`.
    func reset(clock: VirtualTime) {
        event("sandbox.reset", [("clock", .string(clock.iso8601))])
    }

    /// `sandbox.restored`: a snapshot put in force (`PUT /sandbox/snapshot`).
    func restored(cashouts: Int, clock: VirtualTime) {
        event("sandbox.restored", [("cashouts", .number(cashouts)), ("clock", .string(clock.iso8601))])
    }
}
