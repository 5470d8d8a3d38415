import SandboxContract
import SandboxSupport

// D24's part of the scenario format (scenarios/schema.json, `cashout-sandbox schema`): its
// merchants, the create fields its rules test, and what its declines say.

extension D24Dialect {
    /// Its merchants' definition, the fields its rules test, its declines' keys and check.
    static let scenarioFormat = ScenarioVocabulary.Format(
        definitions: [("merchant", merchantFormat), ("d24Decline", declineFormat)],
        ruleFields: createFields.map { field in
            (field, ruleFieldText[field] ?? "Matches the \(String(field.map { $0 == "_" ? " " : $0 })) create field.")
        },
        declineKeys: [
            ("reason", .ref("text", "D24: the error's reason text.")),
            ("reason_code", .ref("text", "D24: the error's reason code, e.g. 105.")),
        ],
        ruleChecks: [ScenarioFormat.declineCheck(dialect: name, checked: true, definition: "d24Decline",
                                                 "Unless the rule names one dialect other than d24, its decline meets D24's check.")])

    /// The create request's fields (wire names of D24's "Cashout Creation Endpoint"), which rules
    /// test. `on_hold` and `type` were accepted in rules before the seam; they never reach a
    /// payout's fields, so a rule on them matches nothing (kept so that such files still load).
    static let createFields = D24Field.allCases.map(\.jsonKey) + ["on_hold", "type"]

    /// What a rule's field says where "Matches the FIELD create field." would not say enough.
    static let ruleFieldText = [
        "amount": "Matches the amount in the currency's major unit, for every API: D24's amount create field (\"150.00\");",
        "email": "Matches D24's email create field;",
    ]

    /// The scenario file's `merchants`.
    static let merchantsFormat: KeySpec = .array("D24 merchant accounts; one with the same login as an earlier layer replaces it.",
                                                 of: .ref("merchant"))

    static let merchantFormat: KeySpec = .object("A merchant account: credentials, settlement balance, limits.", [
        ("login", .string("The merchant's login (X-Login); also how steps and rules name it.", minLength: 1)),
        ("pass", .string("The merchant's password (X-Trans-Key).", minLength: 1)),
        ("secret", .string("The secret key that signs requests and notifications.", minLength: 1)),
        ("read_only_key", .string("The read-only API key (default: none).")),
        ("balance", .ref("balance")),
        ("limits", .ref("limits")),
        ("minimum_amounts", KeySpec("Country code -> the smallest payout amount accepted there, e.g. {\"BR\": \"10.00\"}.")
            .with("type", "object")
            .with("additionalProperties", KeySpec.ref("amount", "The smallest amount accepted in this country."))),
        ("allowed_ips", .array("The client addresses the merchant may call from (absent: any).", of: .string("An IPv4 or IPv6 address."))),
        ("notification_url", .string("The default notification (webhook) URL for the merchant's payouts.")),
    ], required: ["login", "pass", "secret"])

    static let declineFormat: KeySpec = KeySpec("""
        What D24's check adds to a decline (a rule that names no one dialect, or names d24): code 100 to 999 \
        and reason_code 0 to 99999, each a whole number or a string of its digits.
        """).with("properties", named: [
        ("code", .oneOf("""
            An error code from 100 to 999 (D24 spec §7.3), e.g. 504. The HTTP status is 400 for 504 and 502, 401 \
            for 401/402/302/524, and 412 otherwise.
            """, [.integer(100 ... 999), .string(pattern: "^\\+?0*[1-9][0-9]{2}$")])),
        ("reason_code", .oneOf("A reason code from 0 to 99999, e.g. 105 (with 504: the KYC shape).", [
            .integer(0 ... 99999), .string(pattern: "^(\\+?0*[0-9]{1,5}|-0+)$"),
        ])),
    ])
}
