import SandboxContract
import SandboxSupport
import SandboxBank

// The D24 Cashouts API v3 endpoints as Sources/Dialects/D24/API serves them (D24API, D24Error,
// D24Status): four signed cashout endpoints and two read-only lookups. Codes and messages are
// those of D24Error; HTTP statuses follow its table (401 for 401/402/302/524, 400 for 502 and
// 504, 412 for every other refusal).

extension OpenAPIDocument {
    /// Its endpoints, each declared once: route, description and handler (the router serves
    /// them in this order).
    static var d24Endpoints: [Endpoint<D24API>] {
        [createCashout, getCashoutStatus, updateCashoutStatus, cancelCashout, listBanks, getExchangeRate]
    }

    static var createCashout: Endpoint<D24API> {
        Endpoint<D24API>(D24Operation.create, OpenAPI.operation(
            tag: "D24", summary: "Create a cashout",
            description: """
                Creates a cashout for the merchant named by `login`/`pass`. Fields are checked in the \
                documented order and the first bad one is reported (code 300); then 511 (duplicate \
                `external_id`), 526, 533, 508 and 514. A scenario rule may decline with any code.
                """,
            body: OpenAPI.body(Schema.ref("CreateCashoutRequest"), examples: ["brazil": createExample]),
            security: ["PayloadSignature"],
            responses: [
                "200": OpenAPI.json("Accepted: the new cashout's id", Schema.ref("CreateCashoutResponse"),
                                    example: ["cashout_id": "1000001"], links: [
                                        "SandboxView": OpenAPI.link(to: "getCashout", ["id": "$response.body#/cashout_id"]),
                                        "ForceOutcome": OpenAPI.link(to: "forceCashoutAction", ["id": "$response.body#/cashout_id"]),
                                    ]),
                "400": OpenAPI.errors("Malformed JSON (502) or a KYC decline (504)", [
                    malformedBody,
                    D24Error.kycDeclined(reason: "Underage user detected", reasonCode: 105).body,
                ]),
                "401": authErrors,
                "412": OpenAPI.errors("A field, business or bank refusal", [
                    D24Error(D24FieldError.invalid(.bankAccount)).body,
                    D24Error(D24FieldError.invalidBankCode).body,
                    D24Error.limitExceeded(D24Error.word(.transaction)).body,
                    D24Error.duplicateExternalID.body,
                    D24Error.insufficientFunds.body,
                    D24Error(D24FieldError.countryNotAvailable).body,
                    D24Error(D24FieldError.invalidCurrency).body,
                    D24Error.minimumAmount(currency: "BRL", amount: "10.00").body,
                ]),
            ])) { api, request in api.answer(request, api.create) }
    }

    static var getCashoutStatus: Endpoint<D24API> {
        Endpoint<D24API>(D24Operation.status, OpenAPI.operation(
            tag: "D24", summary: "A cashout's status",
            description: "The cashout named by `cashout_id` (which decides when both are sent; an `external_id` beside it must still be "
                + "a string) or `external_id`.",
            body: OpenAPI.body(Schema.ref("CashoutStatusRequest"),
                               examples: ["by external_id": ["login": "sandbox_login", "pass": "sandbox_pass", "external_id": "order-1"]]),
            security: ["PayloadSignature"],
            responses: statusResponses([
                D24Error.invalidParam("cashoutId", "Cashout ID").body, notFound,
            ]))) { api, request in api.answer(request, api.status) }
    }

    static var updateCashoutStatus: Endpoint<D24API> {
        Endpoint<D24API>(D24Operation.updateStatus, OpenAPI.operation(
            tag: "D24", summary: "Hold or release a cashout",
            description: """
                `status` `ON_HOLD` (from PENDING) or `PENDING` (from ON_HOLD). Other known statuses are \
                510, unknown ones 521. Answers the status after the change.
                """,
            body: OpenAPI.body(Schema.ref("UpdateCashoutStatusRequest"), examples: [
                "hold": ["login": "sandbox_login", "pass": "sandbox_pass", "cashout_id": 1_000_001, "status": "ON_HOLD"],
            ]),
            security: ["PayloadSignature"],
            responses: statusResponses([
                D24Error.invalidParam("status", "Status").body, notFound, invalidTransition,
                D24Error.statusNotSupported("PAID").body,
            ]))) { api, request in api.answer(request, api.updateStatus) }
    }

    static var cancelCashout: Endpoint<D24API> {
        Endpoint<D24API>(D24Operation.cancel, OpenAPI.operation(
            tag: "D24", summary: "Cancel a cashout",
            description: "Both `cashout_id` and `external_id` are required; allowed from PENDING or ON_HOLD.",
            body: OpenAPI.body(Schema.ref("CancelCashoutRequest"), examples: [
                "cancel": ["login": "sandbox_login", "pass": "sandbox_pass", "cashout_id": 1_000_001, "external_id": "order-1"],
            ]),
            security: ["PayloadSignature"],
            responses: statusResponses([
                D24Error.invalidParam("cashoutId", "Cashout ID").body,
                D24Error.invalidParam("externalId", "External ID").body, notFound, invalidTransition,
            ]))) { api, request in api.answer(request, api.cancel) }
    }

    static var listBanks: Endpoint<D24API> {
        Endpoint<D24API>(D24Operation.banks, OpenAPI.operation(
            tag: "D24", summary: "Bank codes of a country",
            description: "The bank codes `bank_code` accepts for `country`; empty for countries without a list.",
            parameters: [countryParameter], security: ["ReadOnlyKey"],
            responses: [
                "200": OpenAPI.json("The banks", Schema.array(of: Schema.ref("Bank")),
                                    example: [["code": 1, "name": "Banco do Brasil"]]),
                "400": OpenAPI.empty("No or unknown `country` (an empty body, as the provider documents)"),
                "401": readOnlyKeyError,
            ])) { api, request in api.banks(request) }
    }

    static var getExchangeRate: Endpoint<D24API> {
        Endpoint<D24API>(D24Operation.exchangeRate, OpenAPI.operation(
            tag: "D24", summary: "The exchange rate of a country's currency",
            description: "The sandbox's fixed rate from USD to the country's local currency, and `amount` USD converted.",
            parameters: [
                countryParameter,
                OpenAPI.query("amount", Schema.string("A positive USD amount, at most two decimals", example: "10",
                                                     pattern: #"^(0|[1-9][0-9]{0,11})(\.[0-9]{1,2})?$"#)
                                  .merging(["not": ["pattern": #"^0(\.0{1,2})?$"#]]),
                              "USD to convert (default 1)"),
            ],
            security: ["ReadOnlyKey"],
            responses: [
                "200": OpenAPI.json("The rate", Schema.ref("ExchangeRate"),
                                    example: ["converted_amount": .number("58.829"), "currency": "BRL", "fx_rate": .number("5.8829")]),
                "400": OpenAPI.empty("No or unknown `country`, or a bad `amount` (an empty body)"),
                "401": readOnlyKeyError,
            ])) { api, request in api.exchangeRates(request) }
    }

    static var d24Schemas: [String: JSON] {
        let status = Schema.integer("0 Pending, 1 Completed, 2 Canceled, 3 Rejected, 4 Delivered, 5 On Hold")
        return [
            "CreateCashoutRequest": Schema.object(createFields, required: createRequired, open: true,
                                                  description: "Country pages add required fields (bank details, document type...)."),
            "CreateCashoutResponse": Schema.object(["cashout_id": Schema.string("The cashout's id, as text", example: "1000001")],
                                                   required: ["cashout_id"]),
            "CashoutStatusRequest": Schema.object(credentials.merging(ids) { $1 }, required: ["login", "pass"], open: true),
            "UpdateCashoutStatusRequest": Schema.object(
                credentials.merging(ids) { $1 }.merging(["status": Schema.string("`ON_HOLD` or `PENDING`", example: "ON_HOLD")]) { $1 },
                required: ["login", "pass", "status"], open: true),
            "CancelCashoutRequest": Schema.object(credentials.merging(ids) { $1 },
                                                  required: ["login", "pass", "cashout_id", "external_id"], open: true),
            "CashoutStatus": Schema.object([
                "cashout_status": status.merging(["enum": [0, 1, 2, 3, 4, 5]]),
                "cashout_status_description": Schema.oneOf(["Pending", "Completed", "Canceled", "Rejected", "Delivered", "On Hold"]),
                "rejection_code": Schema.integer("When rejected: the rejection code (800-826)", example: 801),
                "rejection_reason": Schema.string("When rejected", example: "ERROR_ACCOUNT_CLOSED"),
                "bank_reference_id": Schema.string("When the bank set one", example: "E2E-SANDBOX"),
            ], required: ["cashout_status", "cashout_status_description"]),
            "Bank": Schema.object(["code": Schema.integer(example: 1), "name": Schema.string(example: "Banco do Brasil")],
                                  required: ["code", "name"]),
            "ExchangeRate": Schema.object([
                "fx_rate": ["type": "number", "description": "Local currency per USD"],
                "currency": Schema.string(example: "BRL"),
                "converted_amount": ["type": "number", "description": "`amount` USD in `currency`"],
            ], required: ["fx_rate", "currency", "converted_amount"]),
            "Merchant": Schema.object(merchantMembers, required: merchantMembers.keys.sorted()),
            "MerchantUpdate": Schema.object(merchantUpdate, description: "Only the members given change."),
            "ReadOnlyKeyError": Schema.object(["code": Schema.integer(example: 100), "description": Schema.string(example: "Invalid credentials")],
                                              required: ["code", "description"]),
        ]
    }

    // MARK: - Parts

    /// D24's merchants in the admin API's older path (`D24Merchant.kind`).
    static var merchantEndpoints: [OpenAPIEndpoint] {
        [
            OpenAPIEndpoint(D24Merchant.kind.legacyOperations!.list, OpenAPI.operation(
                tag: "Sandbox", summary: "Merchants", description: "With their credentials and balances.",
                responses: ["200": OpenAPI.json("The merchants", Schema.object(["merchants": Schema.array(of: Schema.ref("Merchant"))],
                                                                               required: ["merchants"]))])),
            OpenAPIEndpoint(D24Merchant.kind.legacyOperations!.put, OpenAPI.operation(
                tag: "Sandbox", summary: "Create or update a merchant",
                description: "Only the fields given change; a new merchant needs `pass` and `secret`.",
                parameters: [OpenAPI.path("login", Schema.string("1 to \(D24Merchant.kind.idLimit) characters", example: "acme"),
                                          "The merchant's API key")],
                body: OpenAPI.body(Schema.ref("MerchantUpdate"), examples: [
                    "new": ["pass": "acme_pass", "secret": "acme_secret", "currency": "USD", "balance": "5000.00",
                            "limits": ["daily": "1000.00"], "minimum_amounts": ["BR": "10.00"]],
                ]),
                responses: [
                    "200": OpenAPI.json("Updated", Schema.ref("Merchant")),
                    "201": OpenAPI.json("Created", Schema.ref("Merchant")),
                    "400": OpenAPI.error(400, AdminMessage.notAnObject, D24Merchant.kind.idRefusal, AdminMessage.unknownField("limit"),
                                         D24Merchant.needsCredentials, AdminMessage.expectedAmount("balance")),
                    "409": OpenAPI.error(409, D24Merchant.kind.currencyKept),
                ])),
        ]
    }

    private static var merchantMembers: [String: JSON] {
        let limit = Schema.nullable("string").merging(["pattern": Schema.amount()["pattern"] ?? .null])
        return [
            "login": Schema.string(example: "sandbox_login"), "pass": Schema.string(), "secret": Schema.string(),
            "read_only_key": Schema.string(), "currency": Schema.string(example: "USD"), "balance": Schema.amount(),
            "limits": Schema.object(["transaction": limit, "daily": limit, "monthly": limit],
                                    required: ["transaction", "daily", "monthly"]),
            "minimum_amounts": Schema.map(of: Schema.amount(), description: "By country"),
            "allowed_ips": Schema.array(of: Schema.string()), "notification_url": Schema.nullable("string"),
        ]
    }

    private static var merchantUpdate: [String: JSON] {
        // As `Money` reads them: text of at most 15 whole digits and 2 decimals (zeros past them change nothing),
        // or a JSON number written so (a whole one, here: a fraction's binary float is not written back exactly).
        func decimal(negative: Bool, null: Bool = false) -> JSON {
            let text = Schema.string(pattern: "^\(negative ? "-?" : "")[0-9]{1,15}(\\.[0-9]{1,2}0*)?$")
            let whole = Schema.integer(minimum: negative ? -999_999_999_999_999 : 0, maximum: 999_999_999_999_999)
            return ["anyOf": .array([text, whole] + (null ? [["type": "null"]] : [])), "examples": ["5000.00"]]
        }
        let amount = decimal(negative: true)
        let limit = decimal(negative: true, null: true)
        var members: [String: JSON] = [
            "login": ["description": "Ignored, whatever its value: the path names the merchant"],
            "pass": Schema.string(), "secret": Schema.string(), "read_only_key": Schema.string(),
            "currency": Schema.string(example: "USD"), "balance": decimal(negative: false),
            "limits": Schema.object(["transaction": limit, "daily": limit, "monthly": limit], open: true),
            "minimum_amounts": Schema.map(of: amount, description: "By country"),
            "allowed_ips": Schema.array(of: Schema.string()), "notification_url": Schema.nullable("string"),
        ]
        for key in D24Merchant.textKeys { members[key] = members[key]?.merging(["minLength": 1]) }
        return members
    }


    private static let credentials: [String: JSON] = [
        "login": Schema.string("The merchant's API key", example: "sandbox_login"),
        "pass": Schema.string("The merchant's passphrase", example: "sandbox_pass"),
    ]

    /// A status query's, cancel's or update's ids; null is absent.
    private static let ids: [String: JSON] = [
        "cashout_id": Schema.either(["integer", "string", "null"], "The id `POST /v3/cashout` answered", example: 1_000_001),
        "external_id": orNull(Schema.string("The merchant's own id", example: "order-1", minLength: 1)),
    ]

    /// The create fields every country requires.
    private static let createRequired = ["login", "pass", "external_id", "country", "amount", "document_id", "beneficiary_name"]

    /// `schema` that may also be `null`, which D24 reads as absent (Behaviour and choices).
    private static func orNull(_ schema: JSON) -> JSON {
        if let values = schema["enum"]?.arrayValue { return schema.merging(["enum": .array(values + [.null])]) }
        let types = schema["type"]?.arrayValue ?? [schema["type"] ?? "string"]
        return schema.merging(["type": .array(types + ["null"])])
    }

    /// The create fields in the documented order, with the lengths the sandbox enforces
    /// (`D24Field.maxLength`, the longest of any country: `email` is longer in Colombia).
    private static var createFields: [String: JSON] {
        var fields = credentials
        let texts: [(D24Field, String)] = [
            (.externalID, "Unique per merchant"), (.documentID, "The beneficiary's document number"),
            (.documentType, "CPF, CNPJ, DNI, RUT, CURP... (per country)"), (.beneficiaryID, ""),
            (.beneficiaryName, "Magic values in the default bank: `REJECT 801`, `KYC 105`, `STUCK`, `NEVER`, `SLOW`..."),
            (.beneficiaryLastname, ""), (.email, "At most 100 characters outside Colombia"), (.phone, ""),
            (.bankAccount, ""), (.bankBranch, ""), (.accountType, "`C` checking, `S` savings..."),
            (.address, ""), (.city, ""), (.postalCode, ""),
            (.beneficiaryBirthdate, "`YYYY-MM-DD`"), (.notificationURL, "Absolute http(s) URL for status notifications"),
            (.comments, ""),
        ]
        for (field, description) in texts {
            let longest = [nil, "CO"].compactMap { field.maxLength(country: $0) }.max() ?? 0
            fields[field.jsonKey] = Schema.string(description.isEmpty ? nil : description).merging(["maxLength": .number(longest)])
        }
        // A blank required field counts as absent, and is refused as missing (Behaviour and choices, "Field validation").
        for name in [D24Field.externalID, .documentID, .beneficiaryName].map(\.jsonKey) {
            fields[name] = fields[name]?.merging(["minLength": 1, "pattern": #"\S"#])
        }
        fields["country"] = Schema.string("ISO 3166-1 alpha-2, uppercase", example: "BR")
        fields["currency"] = Schema.string("ISO 4217, uppercase; the country's local currency when absent", example: "BRL")
        fields["amount"] = Schema.either(["string", "number"], "Up to two decimals", example: "100.00")
        fields["bank_code"] = Schema.either(["string", "integer"], "A code of `GET /v3/banks`", example: "001")
        fields["on_hold"] = ["enum": [true, false, "true", "false"], "description": "Create the cashout ON_HOLD (`true`, or the string)"]
        for (name, schema) in fields where !createRequired.contains(name) { fields[name] = orNull(schema) }  // null is absent
        return fields
    }

    private static let createExample = JSON.object(D24Dialect.exampleFields(country: "BR").merging([
        "login": "sandbox_login", "pass": "sandbox_pass", "external_id": "order-1",
        "notification_url": "http://localhost:8080/sandbox/sink/orders",
    ]) { $1 })

    private static let countryParameter = OpenAPI.query(
        "country", Schema.oneOf(D24Countries.allCountries, "ISO 3166-1 alpha-2: a country of the currency table"), "The country", required: true)

    private static let malformedBody = D24Error.malformedBody.body
    private static let notFound = D24Error.notFound.body
    private static let invalidTransition = D24Error.invalidTransition.body

    /// 401 of the signed endpoints: credentials, signature, IP allow-list.
    private static let authErrors = OpenAPI.errors("Bad credentials (401), signature (302) or client address (402)", [
        D24Error.invalidCredentials.body,
        D24Error.invalidSignature.body,
        D24Error.unregisteredIP.body,
    ])

    private static let readOnlyKeyError = OpenAPI.errors("No `Authorization: Bearer <read-only key>` of a merchant",
                                                         schema: "ReadOnlyKeyError", [D24API.invalidReadOnlyKeyBody])

    /// The responses of the endpoints that answer a cashout's status.
    private static func statusResponses(_ refusals: [JSON]) -> [String: JSON] {
        [
            "200": OpenAPI.json("The cashout's status", Schema.ref("CashoutStatus"),
                                example: ["cashout_status": 0, "cashout_status_description": "Pending"]),
            "400": OpenAPI.errors("Malformed JSON", [malformedBody]),
            "401": authErrors,
            "412": OpenAPI.errors("A bad parameter, an unknown cashout, or a change the lifecycle forbids", refusals),
        ]
    }
}
