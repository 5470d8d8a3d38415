import SandboxBank
import SandboxContract
import SandboxWire
import SandboxSupport

// PayoutService's part of the scenario format (scenarios/schema.json, `cashout-sandbox schema`):
// its merchants, its step `grpc_call` (`PrismSteps`), the fields its rules test, its status words.

extension PrismDialect {
    static let scenarioFormat = ScenarioVocabulary.Format(
        definitions: [("prism_merchant", merchantFormat), ("grpcCall", PrismSteps.callFormat), ("grpcExpectation", PrismSteps.expectationFormat)],
        ruleFields: [
            (PrismPayout.Field.connector, "PayoutService: matches the x-connector named, lowercase (sandbox, stripe, adyen...)."),
            (PrismPayout.Field.tenant, "PayoutService: matches the x-tenant-id (default public)."),
            (PrismPayout.Field.recipientName, """
                PayoutService: matches the recipient's name: the payout method's holder name, else the customer's name.
                """),
            (PrismPayout.Field.destinationCurrency, "PayoutService: matches destination_currency (USD...)."),
            (PrismPayout.Field.priority, "PayoutService: matches the priority (INSTANT, FAST, REGULAR...)."),
            (PrismPayout.Field.method, """
                PayoutService: the payout method type (card, ach, bacs, sepa, pix, paypal, venmo, interac...; for a \
                connector_payout_method_id, the enrolled method's type).
                """),
            (PrismPayout.Field.amount, nil),
            (PrismPayout.Field.currency, nil),
        ],
        steps: [
        ("grpc_call", .ref("grpcCall", """
        PayoutService: one unary call of types.PayoutService, made in process as a Connect JSON client (POST \
        /types.PayoutService/METHOD, application/json, the metadata as headers).
        """)),
        ],
        stepExpectations: [(PrismSteps.action, .ref("grpcExpectation"))],
        statusWords: statusWords)

    /// Its words for statuses, in lifecycle order (`PrismPayout.status`).
    static let statusWords = PayoutStatus.allCases.map(PrismPayout.status).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }

    /// The scenario file's `prism_merchants`.
    static let merchantsFormat: KeySpec = .array("""
        PayoutService (Hyperswitch Prism gRPC) merchants, called with x-merchant-id; one with the same \
        merchant_id as an earlier layer replaces it.
        """, of: .ref("prism_merchant"))

    static let merchantFormat: KeySpec = .object("""
        A PayoutService merchant: its x-merchant-id, API key (x-api-key or the connector config's api_key), \
        optional key1 and secret, balance and limits. Added to the default merchant DefaultMerchantId (API \
        key sandbox_prism_key).
        """, [
        ("merchant_id", .string("What x-merchant-id names it by.", minLength: 1)),
        ("api_key", .string("What x-api-key (or x-connector-config's api_key) must be.", minLength: 1)),
        ("key1", .string("What x-key1 must be (x-auth body-key, signature-key).", minLength: 1)),
        ("api_secret", .string("What x-api-secret must be (x-auth signature-key).", minLength: 1)),
        ("balance", .ref("balance")),
        ("limits", .ref("limits")),
        ("require_auth", .boolean("""
            false: calls naming this merchant (or none, for DefaultMerchantId) need no x-connector, x-auth or \
            keys; the connector is the one named, else sandbox (default true).
            """)),
    ], required: ["merchant_id", "api_key"])
}

extension PrismSteps {
    /// Each method by its name, its full name and its path (`Create`, `types.PayoutService/Create`, `/types.PayoutService/Create`).
    static let methodNames = methods + methods.map { "\(PrismProtos.serviceName)/\($0)" } + methods.map { "/\(PrismProtos.serviceName)/\($0)" }

    static let callFormat: KeySpec = .object("""
        A unary call of types.PayoutService. The metadata sent is the merchant's credentials (x-connector \
        sandbox, x-auth header-key, x-api-key, and x-merchant-id for a merchant other than \
        DefaultMerchantId) with the step's metadata on top (null drops one).
        """, [
        ("method", KeySpec("The method: \(methods.dropLast().joined(separator: ", ")) or \(methods.last ?? ""), or its full name "
                           + "\(PrismProtos.serviceName)/\(PrismOperation.create.grpcMethod ?? "").")
                .with("enum", .array(methodNames.map { .string($0) }))),
        ("merchant", .string("The PayoutService merchant whose credentials the call carries (default DefaultMerchantId).", minLength: 1)),
        ("metadata", KeySpec("Metadata name (lowercase) -> value, over the merchant's credentials; null drops one.")
            .with("type", "object")
            .with("propertyNames", KeySpec()
            .with("pattern", "^[^A-Z]+$"))
            .with("additionalProperties", KeySpec()
            .with("type", ["string", "null"]))),
        ("message", KeySpec("""
            The request message in proto3 JSON (proto field names or lowerCamelCase); default {}. Strings may \
            hold templates.
            """).with("type", "object")),
    ], required: ["method"])

    static let expectationFormat: KeySpec = .object("How a grpc_call must end.", [
        ("status", KeySpec("""
            The gRPC status code's name (default OK); Connect's answer is mapped back (HTTP 200 is OK, else its \
            code).
            """).with("enum", .array(GRPCStatus.Code.allCases.map { .string($0.name) }))),
        ("fields", KeySpec("""
            A subset of the response message in proto3 JSON (keys: proto field names or lowerCamelCase; 64-bit \
            integers compared by text); checked when the call ends OK.
            """).with("type", "object")),
        ("error", .string("The exact grpc-message of a call that fails.")),
    ])
}
