import SandboxBank
import SandboxWire
import SandboxSupport

// The scenario format's definitions (`#/$defs/...` of scenarios/schema.json) and top-level keys,
// each with the description the schema shows: the format of the Scenario files guide. Those that
// depend on the dialects (their fields, steps, codes, words) are functions of the vocabulary.

extension ScenarioFormat {
    static let duration: KeySpec = .string("""
        A duration: one or more number-unit pairs, units ms, s, m, h, d (e.g. "500ms", "30s", "1h5m", "2d"); \
        at most 12 digits per number and 100 years in all.
        """, pattern: "^([0-9]{1,12}(ms|s|m|h|d))+$").with("examples", ["30s", "5m", "1h5m", "2d"])

    static let businessDays: KeySpec = .string("""
        Whole business days, 0 to 3650 (Saturday and Sunday skipped), at the same time of day: e.g. "2bd".
        """, pattern: "^(\\+?0*([0-9]{1,3}|[12][0-9]{3}|3[0-5][0-9]{2}|36[0-4][0-9]|3650)|-0+)bd$").with("examples", ["1bd", "2bd"])

    static let delayRange: KeySpec = .object("""
        A delay chosen at random (seeded, per payout) between min and max inclusive; min must not be after \
        max.
        """, [
        ("min", .ref("duration", "The shortest delay.")),
        ("max", .ref("duration", "The longest delay (not before min).")),
    ], required: ["min", "max"])

    static let delay: KeySpec = .anyOf("""
        A timeline delay, relative to the previous step: a duration ("5m"), business days ("2bd"), or a \
        range {"min": "5m", "max": "30m"}.
        """, [.ref("duration"), .ref("businessDays"), .ref("delayRange")])

    static let latency: KeySpec = .anyOf("""
        How late the answer is: a fixed duration ("2s") or a range {"min": "1s", "max": "5s"} (business days \
        are not allowed here).
        """, [.ref("duration"), .ref("delayRange")])

    static let status: KeySpec = .string("A payout status as the APIs show it.", enum: PayoutStatus.names)

    static let amount: KeySpec = .anyOf("""
        A decimal amount, as a string ("5000.00", preferred: exact) or a JSON number: an optional -, 1 to 15 \
        integer digits, at most two decimals (zeros past the cents are allowed), no exponent.
        """, [
        .string(pattern: "^-?[0-9]{1,15}(\\.[0-9]{1,2}0*)?$"),
        .number().with("exclusiveMinimum", JSON.number("-1000000000000000.0")).with("exclusiveMaximum", JSON.number("1000000000000000.0")),
    ]).with("examples", ["5000.00", "100", "0.50"])

    static let text: KeySpec = KeySpec("""
        A value compared as text: a string, a number (compared exactly as a decimal, so 100 equals "100.00") \
        or a boolean ("true"/"false").
        """).with("type", ["string", "number", "boolean"])

    /// A matcher object, of at least one operator: `eq` and `in` over its own operand, and the text
    /// and amount operators every matcher has.
    static func operators(_ description: String? = nil, eq: KeySpec, in: KeySpec) -> KeySpec {
        .object(description, [
            ("eq", eq),
            ("in", `in`),
            ("prefix", .string("Starts with this text.")),
            ("suffix", .string("Ends with this text.")),
            ("regex", .string("The whole value matches this regular expression (Swift Regex syntax).", format: "regex")),
            ("gt", .ref("amount", "A decimal amount greater than this.")),
            ("gte", .ref("amount", "A decimal amount greater than or equal to this.")),
            ("lt", .ref("amount", "A decimal amount less than this.")),
            ("lte", .ref("amount", "A decimal amount less than or equal to this.")),
        ]).with("minProperties", JSON.number("1"))
    }

    /// A matcher object over statuses: `eq` one of the `definition`'s names, `in` a list of them.
    static func statusOperators(_ definition: String) -> KeySpec {
        operators(eq: .ref(definition, "Equals this status."), in: .array("Equals one of these statuses.", of: .ref(definition)))
    }

    static let matcherObject: KeySpec = operators("""
        An object of operators, all of which must hold: eq, in, prefix, suffix, regex, gt, gte, lt, lte (at \
        least one).
        """, eq: .ref("text", "Equals this value (as text; numbers compare as decimals: 100 equals \"100.00\")."),
        in: .array("Equals one of these values.", of: .ref("text")))

    static let matcher: KeySpec = .anyOf("""
        A test on one field: an exact value (string, number or boolean), or an object of operators eq, in, \
        prefix, suffix, regex, gt, gte, lt, lte (all must hold). A payout without the field never matches.
        """, [.ref("text"), .ref("matcherObject")])

    static let wholeOccurrence: KeySpec = .integer(1 ... 1000000)

    static let occurrence: KeySpec = .anyOf("""
        Which payout of its content the payout is, in the order the bank made them: 1 for the first payout of its \
        API, account, currency, amount and fields (but its reference and URLs, which an app makes anew), 2 for the \
        second such (the same create sent again under a new reference, a payment again after a rejection). A \
        whole number from 1, or an object of eq, in, gt, gte, lt, lte over whole numbers (all must hold), such as \
        {"gte": 2}.
        """, [
        .ref("wholeOccurrence"),
        .object([
            ("eq", .ref("wholeOccurrence")),
            ("in", .array(of: .ref("wholeOccurrence")).with("minItems", JSON.number("1"))),
            ("gt", .integer(0 ... 1000000)), ("gte", .integer(0 ... 1000000)),
            ("lt", .integer(0 ... 1000000)), ("lte", .integer(0 ... 1000000)),
        ]).with("minProperties", JSON.number("1")),
    ])

    static let balance: KeySpec = KeySpec("""
        The settlement currency and its starting balance, exactly one entry, such as {"USD": "5000.00"}.
        """)
            .with("type", "object")
            .with("propertyNames", KeySpec()
            .with("pattern", "^[A-Z]{3}$"))
            .with("additionalProperties", KeySpec.ref("amount", "The starting balance."))
            .with("minProperties", JSON.number("1"))
            .with("maxProperties", JSON.number("1"))

    static let limits: KeySpec = .object("""
        Amount limits in the settlement currency (days and months by the virtual clock's UTC date).
        """, [
        ("transaction", .ref("amount", "The most one payout may be.")),
        ("daily", .ref("amount", "The most all payouts of one day may add up to.")),
        ("monthly", .ref("amount", "The most all payouts of one month may add up to.")),
    ])

    static func cashoutStatus(_ vocabulary: ScenarioVocabulary) -> KeySpec {
        .anyOf("""
            A status by the sandbox's name, or by the word of the cashout's API: Mannco's pending, processing, \
            completed, failed or cancelled; PayoutService's REQUIRES_FULFILLMENT, REQUIRES_PAYOUT_METHOD_DATA, \
            PENDING, INITIATED, SUCCESS, FAILED, CANCELLED, REVERSED or EXPIRED.
            """, [
            .ref("status"),
        ] + statusWordSchemas(vocabulary))
    }

    static let statusMatcher: KeySpec = .anyOf("""
        A status name (PENDING, ON_HOLD, DELIVERED, COMPLETED, REJECTED, CANCELLED, or an API's own word \
        such as Mannco's completed or PayoutService's REVERSED), or a matcher object such as {"in": \
        ["DELIVERED", "COMPLETED"]} (an eq operand must be a status name).
        """, [
        .ref("cashoutStatus"),
        statusOperators("cashoutStatus"),
    ])

    static func timelineStep(_ vocabulary: ScenarioVocabulary) -> KeySpec {
        .object("One status change of a payout, after a delay relative to the previous step.", [
            ("after", .ref("delay", """
                The delay after the previous step (or after creation): a duration ("5m"), business days ("2bd") or \
                {"min", "max"}.
                """)),
            ("status", .anyOf("The status the payout moves to (PROCESSING is another name of DELIVERED).", [.ref("status"), .const("PROCESSING")])),
            ("rejection_code", .oneOf("""
                The rejection code (with status REJECTED), one an API the rule can reach answers: D24 one of its \
                codes (801 ERROR_ACCOUNT_CLOSED, 826 WITHDRAWAL_REVERSED...), Mannco and PayoutService a word code \
                such as payee_rejected or R01.
                """, rejectionCodeSchemas(vocabulary))),
            ("rejection_reason", .string("The rejection reason text, e.g. \"ERROR_ACCOUNT_CLOSED\".")),
            ("bank_reference_id", .string("The bank's reference for the payout, e.g. \"E2E123\".")),
            ("status_reason", .string("Free text explaining the status, shown by the APIs.")),
        ], required: ["after", "status"]).with("allOf", [
            KeySpec().with("if", KeySpec().with("not", KeySpec().with("properties", named: [
                ("status", .const("REJECTED")),
            ]))).with("then", KeySpec().with("not", KeySpec.anyOf([.requiring("rejection_code"), .requiring("rejection_reason")]))),
        ])
    }

    static let timeline: KeySpec = .array("The status changes of a payout, in order (may be empty: the payout stays PENDING).",
                                          of: .ref("timelineStep"))

    static func decline(_ vocabulary: ScenarioVocabulary) -> KeySpec {
        .object("""
            Refuse the payout at creation with the dialect's error. What it may say depends on the rule's \
            when.dialect: a rule for one named dialect ("dialect": "mannco" or {"eq": "mannco"}) meets only that \
            dialect's check (d24: d24Decline; mannco, see manncoDecline, and any other name: none); any other \
            rule meets D24's check (d24Decline).
            """, [
            ("code", .ref("text", """
                The dialect's error code: D24's 100 to 999 (e.g. 504), Mannco's HTTP status (300, 403, 429 or 500).
                """)),
            ("message", .string("The error message (default: the dialect's message for the code).")),
        ] + vocabulary.format.declineKeys + undeclaredDeclineKeys(vocabulary),
        required: ["code"])
    }

    static let weightedOutcome: KeySpec = .object("One timeline of a weighted choice.", [
        ("weight", .integer("The relative weight of this timeline (chosen at random, seeded, per payout).", 1 ... 1000000)),
        ("then", .ref("timeline", "The timeline when this outcome is chosen.")),
    ], required: ["weight", "then"])

    static func rule(_ vocabulary: ScenarioVocabulary) -> KeySpec {
        .object("""
            "When a payout looks like this, the bank does that." Rules are tried in order; the first whose \
            `when` matches decides. Exactly one of then, outcomes or decline.
            """, [
            ("name", .string("A name for the rule (for messages and the dashboard).")),
            ("when", .object("""
                Field -> matcher; all must match (absent or {}: every payout). Fields are D24's create request wire \
                names (e.g. country, amount, bank_account, beneficiary_name) and Mannco's cashout fields (user, \
                method, amount, email), plus merchant (the account), dialect and occurrence (which payout of its \
                content it is). A field the payout does not have never matches.
                """, [
                ("merchant", .ref("matcher", "Matches the payout's account: a D24 merchant's login, a Mannco user's id.")),
                ("dialect", .ref("matcher", """
                    Matches the API the payout came through: d24 or mannco. A rule whose dialect is one plain value (or \
                    {"eq": value} alone) has that dialect's decline.
                    """)),
                (Rule.occurrence, .ref("occurrence")),
            ] + ruleFieldSchemas(vocabulary))),
            ("then", .ref("timeline", "The timeline of matching payouts.")),
            ("outcomes", .array("Timelines chosen at random by weight (seeded, per payout).", of: .ref("weightedOutcome"))
                .with("minItems", JSON.number("1"))),
            ("decline", .ref("decline", "Refuse matching payouts at creation.")),
        ]).with("oneOf", [.requiring("then"), .requiring("outcomes"), .requiring("decline")]).with("allOf", vocabulary.format.ruleChecks)
    }

    static let fault: KeySpec = .object("""
        An HTTP fault: what it does (kind), to which requests (when) and how often (exactly one of every or \
        rate).
        """, [
        ("when", .object("""
            Which requests the fault acts on (absent: every request but the admin API's): a request pattern, as \
            expect_requests takes it, tested before the request is handled; endpoint is a shorthand for method \
            and path, not combined with them.
            """, [
            ("endpoint", .string("\"METHOD /path\" the request must have, such as \"POST /v3/cashout\".",
                                 pattern: "^( *[^ ]+ +/[^ ]* *| +/[^ ]* +[^ ]+ *)$")),
            ("method", .ref("matcher")),
            ("path", .ref("matcher")),
            ("dialect", .ref("matcher")),
            ("headers", KeySpec().with("$ref", "#/$defs/requestPattern/properties/headers")),
            ("body", KeySpec().with("$ref", "#/$defs/requestPattern/properties/body")),
            ("account", .ref("matcher", """
                The account the request names (a D24 login, a Mannco user, a PayoutService merchant), as the \
                integration report reads it.
                """)),
            ("payout", KeySpec("""
                The payout the request names (by the sandbox's id or the app's reference), tested as a bank \
                rule's when tests a payout: field (or merchant, dialect, occurrence): matcher. A request that names \
                none (a create, a listing) does not match: a create is told by its body and every (the 2nd create \
                of that body's amount and beneficiary: every 2, times 1).
                """).with("type", "object").with("properties", named: [(Rule.occurrence, .ref("occurrence"))])
                .with("additionalProperties", KeySpec.ref("matcher"))),
        ]).with("dependentSchemas", named: [
            ("endpoint", KeySpec().with("not", KeySpec.anyOf([.requiring("method"), .requiring("path")]))),
        ])),
        ("every", .integer("Act on every Nth matching request (the Nth, 2Nth...).", 1 ... 1000000)),
        ("rate", .number("""
            The chance, 0 to 1, that a matching request is hit, drawn from the seed and what the request is about \
            (its API, route, account, the payout it creates or names, and its occurrence among such requests), \
            never from the order requests arrive in.
            """)
            .with("minimum", JSON.number("0"))
            .with("maximum", JSON.number("1"))),
        ("times", .integer("Act at most this many times, as MockServer's remainingTimes (absent: no limit).", 1 ... 1000000)),
        ("kind", .string(FaultKind.allCases.map { "\($0.rawValue): \($0.about)" }.joined(separator: "; ") + ".",
                         enum: FaultKind.allCases.map(\.rawValue))),
    ] + FaultKind.allCases.flatMap { kind in
        kind.keys.map { key in
            (key.name, KeySpec("For kind \(kind.rawValue)\(key.required ? " (required there)" : ""): \(key.about); ignored for other kinds."))
        }
    }, required: ["kind"]).with("oneOf", [.requiring("every"), .requiring("rate")]).with("allOf", FaultKind.allCases.map(faultKindBlock))

    /// `if` the fault is of `kind`, `then` its keys' schemas, those it requires, and none of the other kinds' keys.
    private static func faultKindBlock(_ kind: FaultKind) -> KeySpec {
        let keys = kind.keys
        let others = FaultKind.allCases.flatMap(\.keyNames).filter { key in !keys.contains { $0.name == key } }
        var then = KeySpec()
        if !keys.isEmpty { then = then.with("properties", named: keys.map { ($0.name, $0.spec) }) }
        let required = keys.filter(\.required).map { JSON.string($0.name) }
        if !required.isEmpty { then = then.with("required", .array(required)) }
        if !others.isEmpty { then = then.with("not", others.count == 1 ? .requiring(others[0]) : .anyOf(others.map { .requiring($0) })) }
        return KeySpec().with("if", KeySpec().with("properties", named: [("kind", .const(.string(kind.rawValue)))]).with("required", ["kind"]))
            .with("then", then)
    }

    static let webhooks: KeySpec = .object("The webhook delivery policy and the built-in sinks' scripted answers.", [
        ("retry", .array("""
            The delays between delivery attempts after a non-2xx answer or a timeout, e.g. ["5m", "25m", \
            "125m"].
            """, of: .ref("duration"))),
        ("timeout", .ref("duration", "How long a delivery attempt waits for an answer.")),
        ("sinks", KeySpec("Sink name -> its script; the built-in sink /sandbox/sink/{name} answers with these.")
            .with("type", "object")
            .with("additionalProperties", KeySpec.object("A built-in sink's script.", [
            ("answers", .array("""
                The HTTP statuses the sink answers, one per request it processes, e.g. [500, 500, 200]; then 200.
                """, of: .integer("An HTTP status, 200 to 599 (a sink cannot answer 1xx: that is not a final answer).", 200 ... 599))),
            ("check_signatures", .boolean("""
                true: the sink acts as a webhook handler that refuses (401) a notification whose signature is wrong: \
                D24's control, PayoutService's X-Webhook-Signature (default false).
                """)),
            ("deduplicate", .boolean("""
                true: the sink answers 200 to a notification it processed already (a duplicate, a replay, a retry of \
                a processed one) without processing it again (default false).
                """)),
        ]))),
        ("chaos", .array("""
            Webhook chaos: what real providers do to notifications (duplicates, out-of-order, late, forged, \
            replayed), on the virtual clock and seeded. Every rule whose when matches a notification acts on it \
            when chosen (every / rate); replaces the chaos of earlier layers ([] ends it).
            """, of: .ref("chaosRule"))),
    ])

    static let request: KeySpec = .object("""
        A raw HTTP request to the sandbox. Strings may hold {{base_url}} and {{REF.cashout_id}} / \
        {{REF.external_id}}.
        """, [
        ("method", .string("The HTTP method, e.g. \"GET\".")),
        ("path", .string("The request target, starting with /.", pattern: "^/")),
        ("headers", KeySpec("Header name -> value.").with("type", "object").with("additionalProperties", KeySpec.string("The header's value."))),
        ("body", .string("The body, sent byte for byte (a signature written in the file stays valid). Not with json.")),
        ("json", KeySpec("A JSON body the runner serialises. Not with body.")),
    ], required: ["method", "path"]).with("not", KeySpec.requiring("body", "json"))

    static let expectation: KeySpec = .object("What the response must look like.", [
        ("status", .integer("The HTTP status.", 100 ... 599)),
        ("json", KeySpec("The whole body equals this JSON.")),
        ("json_contains", KeySpec("These keys equal, nested the same way; other keys may be there too.")),
        ("no_response", .boolean("true: the connection closed without an answer.")),
    ])

    static let createCashout: KeySpec = .object("""
        A signed create: the dialect's create fields (credentials left out) plus merchant; the runner adds \
        credentials and signs. For D24, the fields left out are those of the valid cashout of the step's \
        country (BR when absent; BR, MX, AR, CL, CO, PE and EC have one), and external_id and \
        notification_url are set when absent.
        """, [
        ("merchant", .string("The merchant's login (absent: the default merchant).")),
    ], closed: false).with("additionalProperties", KeySpec("A create field of the dialect, e.g. country, amount, currency."))

    static let expectCashout: KeySpec = .object("Checks a cashout created by an earlier step.", [
        ("ref", .string("The name given with \"as\" by a create_cashout step.")),
        ("status", .ref("statusMatcher", "The expected status, or a matcher such as {\"in\": [\"DELIVERED\", \"COMPLETED\"]}.")),
        ("rejection_code", .oneOf("The expected rejection code: a number, or a text code.", [
            .integer(0 ... 99999), .string(pattern: "[^0-9]", minLength: 1),
        ])),
        ("bank_reference_id", .string("The expected bank reference.")),
        ("decided_by", .ref("decidedBy", "What decided the cashout's fate, as the admin API's decided_by shows it.")),
    ], required: ["ref"])

    static let decidedBy: KeySpec = .anyOf("""
        What decided a cashout's fate (README, "Which rule decided"): the name of the rule (a scenario's, or \
        a magic value such as "REJECT 801"), a matcher on it such as {"prefix": "REJECT"}, or an object of \
        kind, rule, index and outcome, all of which must hold. A rule's name, index or outcome holds only \
        when a rule or a magic value decided.
        """, [
        .ref("matcher"),
        .object([
            ("kind", KeySpec("""
                rule (a scenario's), magic_value (a rule of an API's built-in scenario), default (no rule matched) \
                or forced (POST /sandbox/cashouts/{id}/actions; a release gives the timeline back).
                """).with("enum", .array(DecisionKind.allCases.filter { $0 != .unknown }.map { .string($0.rawValue) }))),
            ("rule", .ref("matcher", "The rule's name, or a matcher on it.")),
            ("index", .integer("The rule's place among its scenario's rules: bank.rules[index], from 0.", 0 ... 1000000)),
            ("outcome", .integer("The weighted outcome drawn: outcomes[outcome], from 0.", 0 ... 1000000)),
        ]).with("minProperties", JSON.number("1")),
    ])

    static let expectWebhooks: KeySpec = .object("Checks the notifications sent.", [
        ("ref", .string("The cashout (its \"as\" name); absent: all notifications.")),
        ("count", .integer("The number of notifications (one per status change).", 0 ... 100000000)),
        ("statuses", .array("""
            The statuses that caused them, in order: the sandbox's names, or the payout's API's own words \
            (PayoutService's INITIATED, SUCCESS, REVERSED).
            """, of: .ref("cashoutStatus"))),
        ("fields", KeySpec("Form field -> value each notification carries.")
            .with("type", "object")
            .with("additionalProperties", KeySpec.ref("text", "The field's expected value (compared as text)."))),
        ("attempts", .integer("The number of deliveries, retries included.", 0 ... 100000000)),
    ])

    static let notificationStatus: KeySpec = .oneOf(values: PayoutStatus.allNames.map { .string($0) },
                                                    "A status a notification reports, by the sandbox's name.")

    static let chaosDelay: KeySpec = .anyOf("A duration (\"30s\"), or a range {\"min\", \"max\"} drawn per notification from the seed.",
                                            [.ref("duration"), .ref("delayRange")])

    static func chaosRule(_ vocabulary: ScenarioVocabulary) -> KeySpec {
        .object("""
            A webhook chaos rule: to which notifications (when), how often (every or rate; neither: every one it \
            matches), and what (kind). A notification is decided on when its first attempt is due.
            """, [
            ("name", .string("A name for the rule (shown in the webhook journal).")),
            ("when", .object("""
                Field -> matcher; all must match (absent or {}: every notification): the bank rules' fields of the \
                payout (its create fields, merchant, dialect), and the notification's status.
                """, [
                ("status", .anyOf("""
                    The notification's status by the sandbox's name (STAGED, AWAITING_DETAILS, PENDING, ON_HOLD, \
                    DELIVERED, COMPLETED, REJECTED, CANCELLED, EXPIRED), or a matcher object whose eq and in operands \
                    are such names.
                    """, [
                    .ref("notificationStatus"),
                    statusOperators("notificationStatus"),
                ])),
                (Rule.occurrence, .ref("occurrence")),
            ], closed: false)
                .with("propertyNames", .oneOf(values: chaosFields(vocabulary).map { .string($0) }))
                .with("additionalProperties", KeySpec.ref("matcher"))),
            ("every", .integer("Every Nth notification the rule matches (the Nth, 2Nth...).", 1 ... 1000000)),
            ("rate", .number("The chance for each notification it matches, 0 to 1, drawn from the seed.")
                .with("minimum", JSON.number("0"))
                .with("maximum", JSON.number("1"))),
            ("kind", KeySpec("""
                duplicate: the same notification once more; forged: a copy with a wrong signature (D24's control, \
                PayoutService's X-Webhook-Signature); replay: the notification again after a later one of the same \
                cashout was delivered; delayed: its first attempt later; out_of_order: its first attempt held until \
                a later notification of the same cashout was sent.
                """).with("enum", .array(ChaosKind.allCases.map { .string($0.rawValue) }))),
            ("after", .ref("chaosDelay", """
                duplicate, forged, replay: how long after what sets it off it is sent (the first attempt; for a \
                replay, the later notification's delivery). Default 0s.
                """)),
            ("delay", .ref("chaosDelay", "delayed (required): how much later its first attempt is made.")),
            ("release_after", .ref("chaosDelay", "out_of_order: the longest it is held when no later notification comes (default 10m).")),
        ], required: ["kind"]).with("not", KeySpec.requiring("every", "rate")).with("allOf", [
            KeySpec().with("if", KeySpec().with("properties", named: [
                ("kind", .const("delayed")),
            ])).with("then", KeySpec().with("required", ["delay"]).with("properties", named: [
                ("after", .absent),
                ("release_after", .absent),
            ])),
            KeySpec().with("if", KeySpec().with("properties", named: [
                ("kind", .const("out_of_order")),
            ])).with("then", KeySpec().with("properties", named: [
                ("after", .absent),
                ("delay", .absent),
            ])),
            KeySpec().with("if", KeySpec().with("properties", named: [
                ("kind", KeySpec().with("enum", ["duplicate", "forged", "replay"])),
            ])).with("then", KeySpec().with("properties", named: [
                ("delay", .absent),
                ("release_after", .absent),
            ])),
        ])
    }

    static let answerMatcher: KeySpec = .anyOf("""
        A receiver's answer: an HTTP status (200), a class ("2xx", "4xx", "5xx"), "non-2xx" (anything but a \
        2xx, no answer included), or a matcher of the status such as {"gte": 400}.
        """, [
        .integer(100 ... 599),
        KeySpec().with("enum", ["1xx", "2xx", "3xx", "4xx", "5xx", "non-2xx"]),
        .ref("matcherObject"),
    ])

    static let expectDeliveries: KeySpec = .object("""
        Checks the delivery attempts of the notifications: those of one chaos kind (or none: plain attempts \
        and retries), how many, and what the receiver answered to every one. At least one of count or \
        answered.
        """, [
        ("ref", .string("The cashout (its \"as\" name); absent: every cashout's.")),
        ("chaos", KeySpec("Only deliveries of this chaos kind, or none (no chaos); absent: every delivery.")
            .with("enum", .array((["none"] + ChaosKind.allCases.map(\.rawValue)).map { .string($0) }))),
        ("status", .ref("cashoutStatus", "Only the notifications of this status.")),
        ("count", .integer("How many such deliveries.", 0 ... 1000000)),
        ("answered", .ref("answerMatcher", "What every such delivery was answered (at least one must exist).")),
    ]).with("anyOf", [.requiring("count"), .requiring("answered")])

    static let expectSink: KeySpec = .object("""
        Checks what a built-in sink did with the requests it received: how many it processed, ignored as \
        duplicates, refused or failed. At least one count.
        """, [
        ("name", .string("The sink's name (/sandbox/sink/NAME).", minLength: 1)),
        ("ref", .string("Only requests about this cashout (its \"as\" name).")),
        ("status", .ref("cashoutStatus", "Only requests about this status.")),
        ("received", .integer("How many requests.", 0 ... 1000000)),
        ("processed", .integer("How many it processed (answered 2xx and acted on).", 0 ... 1000000)),
        ("duplicates", .integer("How many it answered 200 without acting: processed already.", 0 ... 1000000)),
        ("refused", .integer("How many it refused with 401: a wrong signature.", 0 ... 1000000)),
        ("failed", .integer("How many it answered with a scripted non-2xx.", 0 ... 1000000)),
    ], required: ["name"]).with("anyOf", [
        .requiring("received"),
        .requiring("processed"),
        .requiring("duplicates"),
        .requiring("refused"),
        .requiring("failed"),
    ])

    static let requestPattern: KeySpec = .object("What a journaled request must be to count: each part optional, each a matcher.", [
        ("method", .ref("matcher")),
        ("path", .ref("matcher")),
        ("dialect", .ref("matcher")),
        ("headers", KeySpec("Header name (any case): matcher.").with("type", "object").with("additionalProperties", KeySpec.ref("matcher"))),
        ("body", KeySpec("""
            Body field: matcher, over the body as JSON (a JSON body, a form's fields, a gRPC or Connect message \
            as proto3 JSON). A nested object that is no matcher tests the fields inside; "a.b" reaches inside \
            too.
            """).with("type", "object")),
    ])

    static let ledgerLocation: KeySpec = .string("""
        Where the app shows its ledger: an http:// URL answering JSON (${NAME} expanded from the app's \
        environment, such as ${CASHOUT_SANDBOX_APP_PORT}), or a file path.
        """, minLength: 1).with("not", KeySpec().with("pattern", "^(?![hH][tT][tT][pP]://)[^/]*://"))

    static let waitForRequest: KeySpec = .object("""
        Wait (real time) for a request from the app under test matching a pattern, that no earlier \
        wait_for_request took; as names the cashout it created.
        """, [
        ("request", .ref("requestPattern")),
        ("timeout", .ref("duration", "How long to wait at most (default 30s, at most 1h).")),
    ], required: ["request"])

    static func expectReport(_ vocabulary: ScenarioVocabulary) -> KeySpec {
        let findings = KeySpec.oneOf(values: vocabulary.reportFindings.sorted().map { .string($0) })
        return .object("""
            What the integration report (GET /sandbox/report) must say: no finding of severity error, exactly \
            these findings, these checks exercised (any of them together).
            """, [
            ("account", .string("Only this account's findings (a D24 login, a Mannco user, a PayoutService merchant).")),
            ("no_errors", .boolean("true: no finding of severity error (warnings allowed).")),
            ("findings", .array("Exactly these findings' ids, in any order.", of: findings)),
            ("exercised", .oneOf("""
                These checks exercised (failed or passed, not not_exercised), or "all": every check of the account's \
                API; with no account, each check of the reported accounts' APIs exercised by one of them at least.
                """, [
                .const("all"),
                .array(of: findings),
            ])),
        ]).with("anyOf", [.requiring("no_errors"), .requiring("findings"), .requiring("exercised")])
    }

    static let expectRequests: KeySpec = .object("A request verification: request and count (default at least 1), or a sequence.", [
        ("request", .ref("requestPattern")),
        ("count", .object([
            ("exactly", .integer(0 ... 100000000)),
            ("at_least", .integer(0 ... 100000000)),
            ("at_most", .integer(0 ... 100000000)),
        ]).with("minProperties", JSON.number("1")).with("maxProperties", JSON.number("1"))),
        ("sequence", .array("Requests matching these came in this order (others may come between).", of: .ref("requestPattern"))
            .with("minItems", JSON.number("1"))),
    ]).with("not", KeySpec.anyOf([.requiring("sequence", "request"), .requiring("sequence", "count")]))

    static let expectBalance: KeySpec = .object("""
        Checks an account's balance: {"account": ID, "USD": "0.00"}, {"merchant": LOGIN, "USD": "0.00"} or \
        {"user": ID, "cents": 5000}: exactly one of account, merchant or user, and at least one amount (by \
        currency, or cents, also spelled balance).
        """, [
        ("account", .string("""
            Any API's account by its id, as GET /sandbox/accounts/{dialect} lists it: a D24 login, a Mannco \
            user's id, a PayoutService merchant_id.
            """)),
        ("merchant", .string("A D24 merchant's login (any account's id).")),
        ("user", .string("A Mannco user's id (any account's id).")),
        ("cents", .integer("""
            The expected balance in hundredths of the account's currency, a whole number (a Mannco balance is in \
            cents).
            """, 0 ... 9223372036854775807)),
        ("balance", .integer("The same as cents, by the name Mannco's GET /user/balance gives it.", 0 ... 9223372036854775807)),
    ], closed: false)
        .with("additionalProperties", KeySpec.ref("amount", "Currency (the account's, e.g. USD) -> the expected balance."))
        .with("oneOf", [.requiring("account"), .requiring("merchant"), .requiring("user")])
        .with("minProperties", JSON.number("2"))

    static let expectLedger: KeySpec = .object("Checks the number of ledger entries (debits and refunds) of an account.", [
        ("merchant", .string("The account: a D24 merchant's login, or a Mannco user's id.")),
        ("count", .integer("The expected number of entries.", 0 ... 100000000)),
    ], required: ["merchant", "count"])

    static func step(_ vocabulary: ScenarioVocabulary) -> KeySpec {
        let description = """
            One step of a test: exactly one action (request, create_cashout, create_cashouts, advance, \
            advance_to_next_event, settle, expect_cashout, expect_webhooks, expect_balance, expect_ledger, \
            expect_requests, wait_for_request, expect_report, expect_reconciled, expect_deliveries, expect_sink, \
            Mannco's login, process_cashout, link, expect_emails, and PayoutService's grpc_call), plus expect \
            (with request, create_cashout, wait_for_request (its status only), a Mannco step or grpc_call: a \
            gRPC expectation), save (with request) and as (with create_cashout, a Mannco step or grpc_call).
            """
        let properties = stepProperties
        // A dialect's step it declares no schema for takes any body.
        let steps = vocabulary.format.steps + vocabulary.stepActions.keys.sorted().filter { action in
            !vocabulary.format.steps.contains { $0.0 == action }
        }.map { ($0, KeySpec()) }
        let dialectActions = steps.map(\.0)
        let actions = coreActions.map(\.0) + dialectActions
        let others = properties.filter { stepModifiers.contains($0.0) }
        var spec = KeySpec.object(description, coreActions + steps + others).with("oneOf", actions.map { .requiring($0) })
        spec = spec.withExpectations(vocabulary.format.stepExpectations)
        return spec.with("dependentSchemas", named: [
            ("expect", .anyOf((["request", "create_cashout", "wait_for_request"] + dialectActions).map { .requiring($0) })),
            ("save", .requiring("request")),
            ("as", .anyOf((["create_cashout", "wait_for_request"] + dialectActions).map { .requiring($0) })),
        ])
    }

    /// The core actions (the dialects add theirs).
    static var coreActions: [(String, KeySpec)] { stepProperties.filter { !stepModifiers.contains($0.0) } }

    /// The keys a step may have besides its action.
    static let stepModifiers = ["expect", "save", "as", "case", "comment"]

    /// A step's keys but the dialects' actions.
    static let stepProperties: [(String, KeySpec)] = [
        ("request", .ref("request", "Send a raw HTTP request.")),
        ("create_cashout", .ref("createCashout", "Create a cashout, signed, for a merchant.")),
        ("create_cashouts", .ref("createCashouts", """
            Create COUNT cashouts with the same fields (external ids PREFIX-1...), signed, through the sandbox's \
            handler in-process: for load scenarios. Each must succeed.
            """)),
        ("advance", .ref("duration", "Move the virtual clock forward by this duration, applying due events.")),
        ("advance_to_next_event", .const(true, "true: move the virtual clock to the next scheduled event.")),
        ("settle", .ref("duration", """
            Wait in real time until the app under test has made no request to a payout API and been sent no \
            notification for this quiet period (1ms to 1m), at most the run's quiet limit (test --quiet-limit, \
            default 10s); the virtual clock does not move.
            """)),
        ("expect_cashout", .ref("expectCashout", "Check a cashout's status and fields.")),
        ("expect_webhooks", .ref("expectWebhooks", "Check the notifications sent.")),
        ("expect_balance", .ref("expectBalance", "Check an account's balance (any API's).")),
        ("expect_ledger", .ref("expectLedger", "Check an account's ledger.")),
        ("expect_requests", .ref("expectRequests", """
            Verify what the sandbox received (as POST /sandbox/requests/verify): how many journaled requests \
            match a pattern, or that requests matching these came in this order.
            """)),
        ("wait_for_request", .ref("waitForRequest", """
            Wait for the app under test to send a request matching a pattern (timeout default 30s); as names the \
            cashout it created.
            """)),
        ("expect_report", .ref("expectReport", "Check the integration report: no errors, or exactly these findings.")),
        ("expect_reconciled", .object("""
            Read the app's ledger (ledger, else app.ledger) and compare it with the bank's cashouts (of account \
            alone when given): fails with every mismatch.
            """, [
            ("account", .string()),
            ("ledger", .ref("ledgerLocation")),
        ])),
        ("expect_deliveries", .ref("expectDeliveries", """
            Check the delivery attempts of a cashout's notifications: of one chaos kind, how many, what the \
            receiver answered.
            """)),
        ("expect_sink", .ref("expectSink", """
            Check what a built-in sink did with what it received: processed, duplicates ignored, refused, \
            failed.
            """)),
        ("expect", KeySpec("""
            What the response must look like (with request, create_cashout, or a Mannco step: its call, POST \
            /user/login for login, the endpoint for the others; default status 200). With grpc_call: a gRPC \
            expectation (default status OK).
            """)),
        ("save", KeySpec("With request: name -> JSON key of the response whose value later strings can use.")
            .with("type", "object")
            .with("additionalProperties", KeySpec.string("The JSON key of the response body whose value is saved under this name."))),
        ("as", .string("""
            With create_cashout, wait_for_request (the cashout the request created), process_cashout or \
            grpc_call (the payout of the answer's connectorPayoutId): the name later steps use for this cashout \
            (ref, {{NAME.cashout_id}}); with login: the name of the saved JWT ({{NAME}}, default jwt). Allowed \
            and unused with link and expect_emails.
            """)),
        ("case", .string("""
            The case of the suite's report this step belongs to (test prints a PASS, FAIL or SKIP line per case, JUnit a \
            testcase per case): with as, the payout's case, and with it every later step, finding and ledger line about \
            that payout. Without it, a step is in the case of the payout it names (as, ref, {{NAME.cashout_id}}), else \
            in the case of the steps about no payout.
            """, minLength: 1)),
        ("comment", KeySpec("Free text for readers; ignored.")),
    ]

    static let createCashouts: KeySpec = .object("A bulk of signed creates.", [
        ("count", .integer("How many cashouts (1 to 10,000,000).", 1 ... 10000000)),
        ("fields", KeySpec("""
            Create fields, as in create_cashout (the fields left out are those of the country's valid cashout, \
            BR when absent); no external_id, which each create gets (PREFIX-1...).
            """).with("type", "object")),
        ("merchant", .string("The merchant's login (default: the default merchant).")),
        ("external_id_prefix", .string("External ids are PREFIX-1, PREFIX-2... (default bulk).")),
    ], required: ["count"])

    static let topSchema: KeySpec = .string("The schema this file follows (for editors): scenarios/schema.json or its $id.")

    static let topName: KeySpec = .string("The scenario's name (default: the file name without .json).")

    static let topDescription: KeySpec = KeySpec("Free text for readers; ignored by the loader.")

    static let topWrittenFor: KeySpec = .string("""
        The version of cashout-sandbox the suite was written for (MAJOR.MINOR.PATCH, from 0.2.0 to this build's). \
        "exercised": "all" asks for that version's checks; a check or a default that came later is a NOTE, not a \
        failure (the Changes guide). A file without it is read as written for 0.2.0.
        """, pattern: "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$")

    static let topExpectFailure: KeySpec = .string("""
        Marks a test expected to fail (like pytest's xfail), saying why: it passes when a step fails (test \
        prints XFAIL and the failure), and fails when every step passes. Only in a file with steps.
        """, minLength: 1)

    static let topNeedsApp: KeySpec = .boolean("""
        true: the steps wait for an app under test (wait_for_request), so `cashout-sandbox test` runs the \
        file only with --serve (the app started by --exec or by other means) and skips it otherwise (SKIP). \
        Only in a file with steps.
        """)

    static let topSeed: KeySpec = .integer("Fixes every random choice (delay ranges, weighted outcomes, fault rates).")
        .with("minimum", JSON.number("0"))
        .with("maximum", JSON.number("18446744073709551615"))

    static let topClock: KeySpec = .object("The virtual clock.", [
        ("mode", .string("real: runs with wall time (scaled); manual: moves only when told.", enum: VirtualClock.Mode.allCases.map(\.rawValue))),
        ("start", .string("""
            The start time, UTC, such as "2026-01-05T09:00:00Z" (milliseconds optional: \
            "2026-01-05T09:00:00.250Z").
            """, pattern: """
    ^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{3})?Z$
    """)),
    ])

    static let topBank: KeySpec = .object("How the bank treats payouts: rules tried in order, and the default timeline.", [
        ("rules", .array("Tried in order; the first whose when matches decides.", of: .ref("rule"))),
        ("default", .ref("timeline", "The timeline of payouts no rule matches (absent: keep the current default).")),
    ])

    static let topFaults: KeySpec = .array("""
        HTTP faults on the payout APIs' operations (one without a path never touches the admin API, the dashboard or the \
        documents): latency, errors, closed connections, responses lost after commit. A later file's replace those in \
        force; [] ends them.
        """, of: .ref("fault"))

    static let topWebhooks: KeySpec = .ref("webhooks", "The webhook policy.")

    static let topApp: KeySpec = .object("""
        The app under test: where it shows its ledger, reconciled with the bank after the last step and by \
        expect_reconciled, and where it says whether it has work pending.
        """, [
        ("ledger", .ref("ledgerLocation")),
        ("settled", .string("""
            Where the app says whether it has work pending: an http:// URL (${NAME} expanded from the app's \
            environment, such as ${CASHOUT_SANDBOX_APP_PORT}) answering {"pending": N}, N its requests queued or in \
            flight, retries scheduled and follow-ups not yet made. The clock's stops for the app end when it says 0, \
            instead of waiting for real-time quiet; an app that does not serve it (refused, 404) is waited for as \
            without it.
            """, minLength: 1).with("pattern", "^[hH][tT][tT][pP]://")),
    ])

    static let topExplore: KeySpec = .object("""
        The space `cashout-sandbox explore` draws each run from (a key left out keeps the standard space's; \
        `{}` is the standard space). Ignored by `test`.
        """, [
        ("outcomes", .array("""
            Weighted timelines, as a rule's outcomes; the first is the usual fate (what a shrunk file gives the \
            payouts it does not pin).
            """, of: .object([
            ("weight", .integer(1 ... 10000)),
            ("then", .ref("timeline")),
        ], required: ["weight", "then"])).with("minItems", JSON.number("1"))),
        ("late_reversal", .number("""
            The chance that a payout whose outcome ends COMPLETED is rejected late_reversal_after later (default \
            0.15).
            """).with("minimum", JSON.number("0")).with("maximum", JSON.number("1"))),
        ("late_reversal_after", .ref("duration", "How long after completing a late reversal comes (default 30s).")),
        ("chaos", .object("""
            A rate per chaos kind (default: duplicate and forged 0.15; replay, delayed and out_of_order 0.1); a kind \
            left out keeps its default, 0 switches it off.
            """, [
            ("duplicate", .number().with("minimum", JSON.number("0")).with("maximum", JSON.number("1"))),
            ("forged", .number().with("minimum", JSON.number("0")).with("maximum", JSON.number("1"))),
            ("replay", .number().with("minimum", JSON.number("0")).with("maximum", JSON.number("1"))),
            ("delayed", .number().with("minimum", JSON.number("0")).with("maximum", JSON.number("1"))),
            ("out_of_order", .number().with("minimum", JSON.number("0")).with("maximum", JSON.number("1"))),
        ])),
        ("faults", .object("""
            A rate per fault kind, on every API request (default: \
            \(ExploreSpace.standard.faults.map { "\($0.kind.rawValue) \($0.rate)" }.joined(separator: ", ")), any other kind 0); \
            a kind left out keeps its default, 0 switches it off.
            """, FaultKind.allCases.map { kind in
            (kind.rawValue, .number().with("minimum", JSON.number("0")).with("maximum", JSON.number("1")))
        })),
    ])

    static let topReport: KeySpec = .object("""
        The thresholds the integration report (GET /sandbox/report, expect_report) judges by; a GET \
        /sandbox/report query overrides them. Defaults: follow_up_within 1m, status_polling 10 per 1m.
        """, [
        ("follow_up_within", KeySpec("""
            D24: how long after acknowledging a notification the app has to ask POST /v3/cashout/status \
            (notification_not_followed_up, late_rejection_missed); from 1s to 7d.
            """).with("$ref", "#/$defs/duration").with("examples", ["2m"])),
        ("status_polling", .object("status_polling_excessive: at most limit status queries of one cashout within per.", [
            ("limit", .integer("The most status queries of one cashout a window allows.", 1 ... 1000000)),
            ("per", KeySpec("The window, from 1s to 7d.").with("$ref", "#/$defs/duration").with("examples", ["1m"])),
        ]).with("minProperties", JSON.number("1"))),
    ])

    static let topSteps: KeySpec = .array("The steps that make the file a test (run by `cashout-sandbox test`).", of: .ref("step"))

}
