import SandboxSupport

// A cashout's timeline as `GET /sandbox/cashouts/{id}/timeline` answers it, member for member as
// Sources/CashoutSandbox/Observability/Timeline.swift writes it (`Timeline.json`).

extension OpenAPIDocument {
    static var timelineSchema: JSON {
        let lane = Schema.oneOf(["app", "api", "bank", "clock"])
        let ids = Schema.array(of: Schema.integer(example: 1000001))
        return Schema.object([
            "title": Schema.string(example: "cashout 1000001"),
            "started_at": Schema.time("When the sandbox started, on the wall clock: `real_ms` counts from it"),
            "findings": Schema.array(of: Schema.object([
                "id": Schema.string(example: "late_rejection_missed"), "text": Schema.string(), "cashouts": ids,
            ], required: ["id", "text", "cashouts"]), description: "The integration report's error findings that name the cashout"),
            "cashouts": Schema.array(of: Schema.object([
                "cashout_id": Schema.integer(example: 1000001), "name": Schema.nullable("string", "What explore calls it"),
                "api": Schema.string(example: "d24"), "account": Schema.string(example: "sandbox_login"),
                "reference": Schema.nullable("string", "The merchant's own id for it"), "amount": Schema.amount(),
                "currency": Schema.string(example: "USD"), "status": Schema.string(example: "COMPLETED"),
            ], required: ["cashout_id", "name", "api", "account", "reference", "amount", "currency", "status"])),
            "entries": Schema.array(of: Schema.object([
                "kind": Schema.oneOf(["request", "notification", "ledger", "status", "clock_stop", "finding"]),
                "at": Schema.time("On the virtual clock"),
                "real_ms": Schema.nullable("integer", "Milliseconds of real time since `started_at`; null when no longer kept"),
                "text": Schema.string(example: "POST /v3/cashout/status: 200"),
                "cashouts": ids, "injected": Schema.boolean("An injected fault or webhook chaos: the sandbox's own doing"),
                "from": lane, "to": lane, "lane": lane,
                "details": Schema.map(of: Schema.string(), description: "The request and its answer, as the request log keeps them"),
                "ended": Schema.oneOf(["quiet", "answered", "settled", "limit"], "A clock stop's: how it ended"),
                "lasted_ms": Schema.integer("A clock stop's real length", minimum: 0),
            ], required: ["kind", "at", "real_ms", "text", "cashouts", "injected"]), description: "Oldest first"),
        ], required: ["title", "started_at", "findings", "cashouts", "entries"])
    }
}
