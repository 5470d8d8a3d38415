import SandboxBank
import SandboxSupport

// The admin API's bodies, member for member as Sources/CashoutSandbox/Observability/AdminJSON.swift and
// AdminAPI*.swift write them. Response objects are closed, so a member added there without being
// documented here fails the schemathesis check (.ci/check-openapi).

extension OpenAPIDocument {
    static var adminSchemas: [String: JSON] {
        [
            "Error": Schema.object([
                "code": Schema.integer("The HTTP status, or the provider's error code on /v3/ endpoints", example: 404),
                "message": Schema.string(example: "No such endpoint: GET /v3/nothing"),
                "reason": Schema.string("KYC declines (504) only", example: "Underage user detected"),
                "reason_code": Schema.integer("KYC declines (504) only", example: 105),
            ], required: ["code", "message"]),
            "TransitionConflict": Schema.object([
                "code": Schema.integer(example: 409), "message": Schema.string(),
                "from": statusName, "to": statusName,
            ], required: ["code", "message", "from", "to"]),
            "Health": Schema.object([
                "status": Schema.oneOf(["ok", "failing"]), "version": Schema.string(example: SandboxVersion.current.description),
                "clock": Schema.object(["mode": clockMode, "now": Schema.time()], required: ["mode", "now"]),
                "journal": Schema.object([
                    "state": Schema.oneOf(["failing"]), "since": Schema.time(),
                    "error": Schema.string(example: "write state/journal.log: No space left on device (ENOSPC)"),
                ], required: ["state", "since", "error"]),
            ], required: ["status", "version", "clock"]),
            "Clock": Schema.object([
                "mode": clockMode, "now": Schema.time(),
                "next_event_at": Schema.nullable("string", "The next scheduled bank event or delivery"),
                "events_applied": Schema.integer("After an advance: how many events ran", example: 2),
            ], required: ["mode", "now", "next_event_at"]),
            "AdvanceClockRequest": Schema.exactlyOne([
                Schema.object(["by": Schema.string("A duration: `30s`, `1h5m`, `2d` (at most 100 years)", example: "2d",
                                                   pattern: DurationText.pattern)], required: ["by"]),
                Schema.object(["to": Schema.string("A UTC time, not in the past", example: "2026-01-07T00:00:00Z",
                                                   pattern: VirtualTime.iso8601Pattern)], required: ["to"]),
                Schema.object(["to_next_event": ["const": true, "description": "To the next scheduled event"]], required: ["to_next_event"]),
            ], description: "Exactly one of `by`, `to` or `to_next_event`, and nothing else."),
            "ScenarioLoaded": Schema.object([
                "loaded": Schema.string("The scenario's name"), "rules": Schema.integer("Rules now in force"),
                "merchants": Schema.array(of: Schema.string()),
            ], required: ["loaded", "rules", "merchants"]),
            "Reset": Schema.object(["status": Schema.oneOf(["reset"]), "clock": Schema.time()], required: ["status", "clock"]),
            "SnapshotRestored": Schema.object([
                "status": Schema.oneOf(["restored"]), "cashouts": Schema.integer("Cashouts restored", example: 4),
                "merchants": Schema.array(of: Schema.string(example: "sandbox_login")),
                "scenarios": Schema.integer("Scenarios loaded over the starting ones", example: 1), "clock": Schema.time(),
            ], required: ["status", "cashouts", "merchants", "scenarios", "clock"]),
            "CashoutSummary": Schema.object(cashoutMembers, required: required(cashoutMembers)),
            "Cashout": Schema.object(cashoutDetail, required: required(cashoutDetail)),
            "DecidedBy": decidedBy,
            "CashoutAction": Schema.object([
                "action": Schema.oneOf(forcedActions),
                "rejection_code": Schema.integer("For `reject`", example: 801),
                "rejection_reason": Schema.string("For `reject`; the code's name by default"),
                "bank_reference_id": Schema.string(), "status_reason": Schema.string(),
            ], required: ["action"], open: true),
            "Timeline": timelineSchema,
            "LedgerEntry": Schema.object([
                "id": Schema.integer(), "merchant": Schema.string(), "cashout_id": Schema.integer(),
                "kind": Schema.oneOf(["debit", "refund"]), "amount": Schema.amount(), "balance_after": Schema.amount(),
                "at": Schema.time(),
            ], required: ["id", "merchant", "cashout_id", "kind", "amount", "balance_after", "at"]),
            "Webhook": Schema.object(webhookMembers, required: required(webhookMembers)),
            "Sink": Schema.object([
                "name": Schema.string(), "answers": Schema.array(of: Schema.integer(), description: "The script still to use"),
                "check_signatures": Schema.boolean("It refuses a wrong signature or `control` with 401"),
                "deduplicate": Schema.boolean("It answers 200 to a notification it processed already, without processing it again"),
                "total": Schema.integer("How many requests it received in all; `requests` keeps the last 1,000"),
                "requests": Schema.array(of: Schema.object([
                    "at": Schema.time(), "method": Schema.string(example: "POST"), "path": Schema.string(),
                    "content_type": Schema.nullable("string"),
                    "headers": Schema.map(of: Schema.string(), description: "Header fields by lowercase name: all received over HTTP; "
                                              + "Content-Type and the signature of an in-process notification"),
                    "body": Schema.string(),
                    "form": Schema.map(of: Schema.string(), description: "The body decoded as a form"),
                    "answered": Schema.integer("The status the sink answered"),
                    "verdict": sinkVerdict,
                    "reason": Schema.nullable("string", "Why it was refused (the signature expected) or failed (a scripted answer)"),
                    "cashout_id": Schema.nullable("integer", "The cashout of the notification it is, as the sink read it"),
                    "status": Schema.nullable("string", "The status it reports (null when the sink cannot tell)"),
                ], required: ["at", "method", "path", "content_type", "headers", "body", "form", "answered", "verdict", "reason",
                              "cashout_id", "status"])),
            ], required: ["name", "answers", "check_signatures", "deduplicate", "total", "requests"]),
            "SinkScript": Schema.object([
                "answers": Schema.array(of: ["type": "integer", "minimum": 200, "maximum": 599]),
                "check_signatures": Schema.boolean("Refuse a wrong signature or `control` with 401 (default false)"),
                "deduplicate": Schema.boolean("Answer 200 to a notification processed already, and do not process it again (default false)"),
            ]),
            "SinkReceived": Schema.object([
                "received": ["type": "boolean", "const": true],
                "verdict": sinkVerdict, "reason": Schema.string("Why it was refused or failed"),
            ], required: ["received"]),
            "ChaosMark": Schema.object([
                "kind": chaosKind, "summary": Schema.string("One human line", example: "duplicate of attempt 1 (chaos rule 0 \"at least once\")"),
                "rule": Schema.nullable("string", "The name of the rule that asked for it"),
                "index": Schema.nullable("integer", "The rule's place in webhooks.chaos; null when sent by hand"),
                "copy_of": ["anyOf": [Schema.object(["webhook": Schema.integer(), "attempt": Schema.nullable("integer")],
                                                    required: ["webhook", "attempt"]),
                                      ["type": "null"]], "description": "A duplicate, forged copy or replay: the notification and attempt it copies"],
                "delay": Schema.nullable("string", "delayed: by how long; a rule's copy: how long after what set it off"),
                "after_webhook": Schema.nullable("integer", "out_of_order: the later notification that released it; "
                                                     + "replay: the one whose delivery set it off"),
            ], required: ["kind", "summary", "rule", "index", "copy_of", "delay", "after_webhook"]),
            "ChaosRequest": Schema.object(["kind": Schema.oneOf(["duplicate", "forged", "replay"])], required: ["kind"], open: true,
                                          description: "Other members are ignored"),
            "ChaosRule": Schema.object([
                "name": Schema.string(), "when": Schema.map(of: [:], description: "Field -> matcher, as a bank rule's, plus `status`"),
                "every": Schema.integer("Every Nth notification the rule matches"), "rate": ["type": "number", "minimum": 0, "maximum": 1],
                "kind": chaosKind,
                "after": durationOrRange, "delay": durationOrRange, "release_after": durationOrRange,
            ], required: ["kind"]),
        ]
    }

    private static let chaosKind = Schema.oneOf(["duplicate", "out_of_order", "delayed", "forged", "replay"])
    private static let sinkVerdict = Schema.oneOf(["processed", "failed", "duplicate", "refused"], "What the sink did with it")
    private static let durationOrRange = Schema.either(["string", "object"], #"A duration ("30s") or {"min", "max"}"#, example: "30s")

    private static let statusName = Schema.oneOf(PayoutStatus.allNames)
    /// Beside a status: the API's own word for it (absent for D24, whose words are the sandbox's).
    private static let apiStatus = Schema.string("The status in the words of the cashout's own API (Mannco's `completed`, PayoutService's "
                                                 + "`SUCCESS` or `REVERSED`); absent when they are the sandbox's (D24)", example: "SUCCESS")
    private static let reasonCode = Schema.either(["integer", "string", "null"], "A number (D24's 8xx) or a text code")

    /// Every member but `api_status`, which only some APIs' cashouts have.
    private static func required(_ members: [String: JSON]) -> [String] { members.keys.filter { $0 != "api_status" }.sorted() }
    private static let clockMode = Schema.oneOf(["real", "manual"])

    private static var cashoutMembers: [String: JSON] {
        [
            "cashout_id": Schema.integer(example: 1_000_001), "dialect": Schema.string("The payout API that created it", example: "d24"),
            "merchant": Schema.string("Its account"), "external_id": Schema.nullable("string", "The API's reference, if it has one"),
            "country": Schema.nullable("string"), "currency": Schema.string(), "amount": Schema.amount(),
            "settlement_amount": Schema.amount("In the merchant's settlement currency"), "status": statusName, "api_status": apiStatus,
            "returned_after_completion": Schema.boolean("REJECTED after COMPLETED (a late return, refunded)"),
            "created_at": Schema.time(), "rejection_code": reasonCode, "rejection_reason": Schema.nullable("string"),
            "bank_reference_id": Schema.nullable("string"), "status_reason": Schema.nullable("string"),
            "notification_url": Schema.nullable("string"), "decided_by": Schema.ref("DecidedBy"),
        ]
    }

    private static let forcedActions = ForcedAction.allCases.map(\.rawValue)

    /// What decided a cashout's fate: one object per kind, each with a `summary` for people.
    private static var decidedBy: JSON {
        let summary = Schema.string("One line for people (the dashboard shows it as it is)",
                                    example: #"magic value "REJECT 801" (bank.rules[1] of the built-in scenario "default bank")"#)
        let variants = [
            Schema.object([
                "kind": Schema.oneOf(["rule", "magic_value"], "A rule of a scenario loaded by the user, or of a built-in one (a magic value)"),
                "summary": summary, "scenario": Schema.string("The rule's scenario, by name", example: "default bank"),
                "rule": Schema.nullable("string", "The rule's name, if it has one", example: "REJECT 801"),
                "index": Schema.integer("Its place among its scenario's rules (`bank.rules[index]`)", example: 1),
                "outcome": Schema.nullable("integer", "The weighted outcome drawn (`outcomes[outcome]`); null for a rule of one timeline"),
            ], required: ["kind", "summary", "scenario", "rule", "index", "outcome"]),
            Schema.object([
                "kind": Schema.oneOf(["default"], "No rule matched: the default timeline"), "summary": summary,
                "scenario": Schema.nullable("string", "The scenario that set the default timeline, by name (the last one that set it)"),
            ], required: ["kind", "summary", "scenario"]),
            Schema.object([
                "kind": Schema.oneOf(["forced"], "The admin's last forced action (a release gives the timeline back)"), "summary": summary,
                "action": Schema.oneOf(forcedActions), "at": Schema.time(),
            ], required: ["kind", "summary", "action", "at"]),
            Schema.object([
                "kind": Schema.oneOf(["unknown"], "Journaled by a sandbox that did not record it"), "summary": summary,
            ], required: ["kind", "summary"]),
        ]
        return ["oneOf": .array(variants), "description": "What decided the cashout's fate (the Scenario files guide, \"Which rule decided\")"]
    }

    private static var cashoutDetail: [String: JSON] {
        cashoutMembers.merging([
            "fields": Schema.map(of: Schema.string(), description: "The create request's fields, by wire name"),
            "history": Schema.array(of: Schema.object([
                "status": statusName, "api_status": apiStatus, "at": Schema.time(), "by": Schema.string(example: "bank"),
                "rejection_code": reasonCode, "rejection_reason": Schema.nullable("string"),
            ], required: ["status", "at", "by", "rejection_code", "rejection_reason"])),
            "scheduled": Schema.array(of: Schema.object([
                "at": Schema.time(), "status": statusName, "api_status": apiStatus, "rejection_code": reasonCode,
            ], required: ["at", "status", "rejection_code"])),
            "webhooks": Schema.array(of: Schema.ref("Webhook")),
        ]) { $1 }
    }

    private static var webhookMembers: [String: JSON] {
        [
            "id": Schema.integer(), "cashout_id": Schema.integer(), "merchant": Schema.string(),
            "external_id": Schema.nullable("string", "The API's reference, if it has one"),
            "status": statusName, "api_status": apiStatus, "changed_at": Schema.time(), "url": Schema.nullable("string"),
            "state": Schema.oneOf(["pending", "delivered", "failed", "not_sent"]),
            "next_attempt_at": Schema.nullable("string"),
            "attempts": Schema.array(of: Schema.object([
                "number": Schema.integer(), "at": Schema.time(), "manual": Schema.boolean(),
                "retry": Schema.boolean("A scheduled retry after a failed attempt"),
                "chaos": ["anyOf": [Schema.ref("ChaosMark"), ["type": "null"]],
                          "description": "What webhook chaos made it; null for a plain attempt or retry"],
                "response_status": Schema.nullable("integer"), "error": Schema.nullable("string"),
                "response_body": Schema.nullable("string"),
            ], required: ["number", "at", "manual", "retry", "chaos", "response_status", "error", "response_body"])),
            "chaos_plan": Schema.either(["object", "null"], "What webhook chaos decided for it when its first attempt was due; null for nothing"),
        ]
    }
}
