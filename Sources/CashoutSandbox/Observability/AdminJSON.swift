import SandboxContract
package import SandboxBank
package import SandboxSupport

// How the admin API shows the bank's records. Statuses use `PayoutStatus.name`, the names
// integrators know from the D24 API; a payout returned after completion shows as REJECTED with
// `"returned_after_completion": true`. Beside each status, `api_status` is the word of the
// payout's own API for it (`Dialect.statusWord`: Mannco's `completed`, PayoutService's
// `REVERSED` for a return), absent for an API whose words are the sandbox's (D24).

package enum AdminJSON {
    /// The word of a dialect's API for a status (`Dialect.statusWord`), by the dialect's name.
    package typealias StatusWords = @Sendable (_ dialect: String, _ status: PayoutStatus) -> String?
    /// The code and reason a dialect's API answers for a rejection (`Dialect.answeredRejection`), by the dialect's name.
    package typealias Rejections = @Sendable (_ dialect: String, _ code: String?, _ reason: String?) -> (code: String?, reason: String?)

    package static func optional(_ text: String?) -> JSON { text.map { .string($0) } ?? .null }
    package static func optional(_ number: Int?) -> JSON { number.map { .number($0) } ?? .null }
    /// A reason code: a number when it is one (D24's 8xx), else text.
    package static func code(_ text: String?) -> JSON { text.map { code in Int(code).map { .number($0) } ?? .string(code) } ?? .null }

    /// `rejections`: what the payout's API answers for a rejection, which its record shows (a code the bank did not set).
    package static func payout(_ payout: Payout, bank: Bank, detailed: Bool, words: StatusWords, rejections: Rejections) -> JSON {
        func word(_ status: PayoutStatus) -> String? { words(payout.dialect, status) }
        func rejection(_ status: PayoutStatus, _ code: String?, _ reason: String?) -> (code: JSON, reason: JSON) {
            let (code, reason) = status == .rejected || status == .returned ? rejections(payout.dialect, code, reason) : (code, reason)
            return (Self.code(code), optional(reason))
        }
        let rejected = rejection(payout.status, payout.reasonCode, payout.reason)
        var json: [String: JSON] = [
            "cashout_id": .number(payout.id), "dialect": .string(payout.dialect), "merchant": .string(payout.account),
            "external_id": optional(payout.reference),
            "country": optional(payout.country), "currency": .string(payout.currency), "amount": .string(payout.amount.description),
            "settlement_amount": .string(payout.settlementAmount.description), "status": .string(payout.status.name),
            "returned_after_completion": .bool(payout.status == .returned), "created_at": .string(payout.createdAt.iso8601),
            "rejection_code": rejected.code, "rejection_reason": rejected.reason,
            "bank_reference_id": optional(payout.bankReference), "status_reason": optional(payout.statusDetail),
            "notification_url": optional(payout.callbackURL),
        ]
        json["api_status"] = word(payout.status).map(JSON.string)
        json["decided_by"] = DecidedBy(payout, timeline: bank.decision(payoutID: payout.id) ?? .unknown).json
        guard detailed else { return .object(json) }
        json["fields"] = .object(Dictionary(payout.fields.map { ($0.name, .string($0.value)) }) { $1 })
        json["history"] = .array(payout.history.map { change in
            let rejected = rejection(change.status, change.reasonCode, change.reason)
            var entry: [String: JSON] = ["status": .string(change.status.name), "at": .string(change.at.iso8601), "by": .string(change.by),
                                         "rejection_code": rejected.code, "rejection_reason": rejected.reason]
            entry["api_status"] = word(change.status).map(JSON.string)
            return .object(entry)
        })
        // A scheduled rejection of a payout that will have completed by then is a return.
        var before = payout.status
        json["scheduled"] = .array(bank.scheduledSteps(payoutID: payout.id).map { scheduled in
            let status: PayoutStatus = scheduled.step.status == .rejected && before == .completed ? .returned : scheduled.step.status
            before = status
            var entry: [String: JSON] = ["at": .string(scheduled.at.iso8601), "status": .string(status.name),
                                         "rejection_code": code(scheduled.step.reasonCode)]
            entry["api_status"] = word(status).map(JSON.string)
            return .object(entry)
        })
        json["webhooks"] = .array(bank.notifications(payoutID: payout.id).map { notification($0, words: words) })
        return .object(json)
    }

    package static func notification(_ notification: StatusNotification, words: StatusWords) -> JSON {
        let state: String = switch notification.state {
        case .pending: "pending"
        case .delivered: "delivered"
        case .exhausted: "failed"
        case .noURL: "not_sent"
        }
        var json: [String: JSON] = [
            "id": .number(notification.id), "cashout_id": .number(notification.payoutID),
            "merchant": .string(notification.account), "external_id": optional(notification.reference),
            "status": .string(notification.status.name), "changed_at": .string(notification.changedAt.iso8601),
            "url": optional(notification.url), "state": .string(state),
            "next_attempt_at": optional(notification.nextAttemptAt?.iso8601),
            "attempts": .array(notification.attempts.map { attempt in
                ["number": .number(attempt.number), "at": .string(attempt.at.iso8601), "manual": .bool(attempt.manual),
                 "retry": .bool(attempt.isRetry(in: notification)), "chaos": chaos(attempt.chaos, of: notification),
                 "response_status": optional(attempt.outcome.status), "error": optional(attempt.outcome.error),
                 "response_body": optional(attempt.outcome.body)]
            }),
            "chaos_plan": chaosPlan(notification.chaos),
        ]
        json["api_status"] = words(notification.dialect, notification.status).map(JSON.string)
        return .object(json)
    }

    static func ledgerEntry(_ entry: LedgerEntry) -> JSON {
        [
            "id": .number(entry.id), "merchant": .string(entry.account), "cashout_id": .number(entry.payoutID),
            "kind": .string(entry.kind.rawValue), "amount": .string(entry.amount.description),
            "balance_after": .string(entry.balanceAfter.description), "at": .string(entry.at.iso8601),
        ]
    }
}
