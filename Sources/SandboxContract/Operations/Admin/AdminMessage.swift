import SandboxBank

/// The messages of the admin API's own errors, each written once: the handlers answer them
/// (`Router.error(404, AdminMessage.noCashout(id))`) and the OpenAPI document shows them, with
/// example values.
package enum AdminMessage {
    /// 400: a body that had to be a JSON object (an action, a clock move, an account's `PUT`...).
    package static let notAnObject = "the body must be a JSON object"

    /// 404: `GET /sandbox/cashouts/{id}` and its actions.
    package static func noCashout(_ id: String) -> String { "no cashout with id \(id)" }

    /// 404: a webhook's redelivery or chaos copy.
    package static func noWebhook(_ id: String) -> String { "no webhook with id \(id)" }

    /// 409: a redelivery or chaos copy of a notification that has nowhere to go.
    package static func noNotificationURL(_ webhook: Int) -> String { "webhook \(webhook) has no notification URL" }

    /// 400: `POST /sandbox/clock/advance` with none of its three forms, or more than one member.
    package static let advanceForms = #"expected one of "by", "to" or "to_next_event": true"#

    /// 400: `POST /sandbox/clock/advance` `{"by"}` that is not a duration.
    package static let advanceBy = #"by: expected a duration such as "30s", "1h5m" or "2d""#

    /// 400: `POST /sandbox/clock/advance` `{"to"}` that is not a time.
    package static let advanceTo = #"to: expected a UTC time such as "2026-01-05T09:00:00Z""#

    /// 400: `GET /sandbox/cashouts?status=` a word no status has, `known` the ones that are.
    package static func statusFilter(_ known: [String]) -> String { "status: expected one of \(known.sorted().joined(separator: ", "))" }

    /// 400: a forced action's `rejection_code` that is not a whole number.
    package static let rejectionCode = "rejection_code: expected a whole number"

    /// 400: a forced action that is none of them.
    package static let forcedAction = "action: expected \(ForcedAction.list)"

    /// 400: `PUT /sandbox/sinks/{name}/script` with a body that is not a script.
    package static let sinkScript = #"expected {"answers": [500, 500, 200], "check_signatures": true, "deduplicate": true}, each optional: "#
        + "answers are HTTP statuses 200 to 599, one per request processed"

    /// 400: a member that must be a string (a forced action's `status_reason`...) given another value.
    package static func expectedString(_ key: String) -> String { "\(key): expected a string" }

    /// 409: `POST /sandbox/clock/advance` `{"to"}` a time before now.
    package static func clockInThePast(_ time: String) -> String { "to: \(time) is in the past; the clock only moves forward" }

    /// 409: `POST /sandbox/scenario` changing the currency of an account that has cashouts.
    package static func currencyKept(_ account: String) -> String { "merchants: \(account) has cashouts and keeps its settlement currency" }

    /// 400: `POST /sandbox/webhooks/{id}/chaos` without a kind it sends.
    package static let chaosKind = #"expected {"kind": "duplicate"}, "forged" or "replay""#

    /// 400: `PUT /sandbox/webhooks/chaos` with a body that is not an array of rules.
    package static let chaosRules = #"expected a scenario's webhooks.chaos: a JSON array of rules, such as [{"kind": "duplicate", "every": 2}]"#

    /// 400: an account's `PUT` whose path's id is empty or longer than its API takes.
    static func accountID(_ name: String, limit: Int) -> String { "\(name): 1 to \(limit) characters" }

    /// 400: an account's `PUT` whose body's id member (`merchant_id`) is not the path's.
    package static func idMember(_ member: String, id: String) -> String { "\(member): expected the path's id, \(id), or none" }

    /// 400: an account's `PUT` for an id another API's account has.
    package static func otherAPIsAccount(_ id: String, of dialect: String) -> String { "\(id) is an account of \(dialect)" }

    /// 400: an account's `PUT` with a member its API does not take.
    package static func unknownField(_ key: String) -> String { "\(key): unknown field" }

    /// 400: an account's member that must be a non-empty string.
    package static func expectedNonEmptyString(_ key: String) -> String { "\(key): expected a non-empty string" }

    /// 400: an account's amount (`balance`) that is not a decimal amount.
    package static func expectedAmount(_ key: String) -> String { #"\#(key): expected a decimal amount such as "5000.00""# }

    /// 400: an account's member that must be `true` or `false`.
    package static func expectedBool(_ key: String) -> String { "\(key): expected true or false" }

    /// 404: `GET /sandbox/suite` of a sandbox that runs no suite's steps (`serve`).
    package static let noSuite = "no suite is running: GET /sandbox/suite answers while 'cashout-sandbox test SUITE --serve' runs a suite's steps"

    /// 400: `GET /sandbox/requests?limit=` that is not a count.
    package static let requestLimit = "limit: expected a whole number of at least \(AdminLimits.requestLimitMinimum)"

    /// 400: `GET /sandbox/report?follow_up_within=` (or `polling_per`) not a duration of the range.
    package static func reportDuration(_ name: String, _ value: String) -> String {
        "\(name): \(ReportThresholds.durationExpected), got \"\(value)\""
    }

    /// 400: `GET /sandbox/report?polling_limit=` not a count of the range.
    package static func reportLimit(_ value: String) -> String { "polling_limit: \(ReportThresholds.limitExpected), got \"\(value)\"" }

    /// 404: `GET /sandbox/report?account=` an account the sandbox neither has nor saw.
    package static func noReportAccount(_ account: String) -> String {
        "no account \"\(account)\": the sandbox has none of that id, and no request named it"
    }

    /// `POST /sandbox/reconcile` with a body that is no JSON.
    package static let reconcileBody = #"expected the app's ledger as JSON, such as "#
        + #"{"payouts": [{"external_id": "order-1", "status": "COMPLETED", "amount": "100.00"}]}"#
}

/// Bounds the admin API's handlers check, each written once: the handlers check them and the
/// OpenAPI document shows them.
package enum AdminLimits {
    /// `GET /sandbox/requests?limit=`: the fewest requests asked for.
    package static let requestLimitMinimum = 1
}
