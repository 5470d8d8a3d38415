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
