import SandboxContract
import SandboxWire
import SandboxSupport

// PayoutService's eight methods as Connect's unary JSON serves them (`POST /types.PayoutService/<Method>`),
// for the OpenAPI document. The schemas come from PrismProtos (OpenAPI.connect), the requests
// from PrismExample, the statuses' messages from PrismMessage; what is said here is what each
// method does and which statuses it ends with. The answers shown are a fresh sandbox's to the
// examples sent in this order (PrismDocsTests replays them).

extension PrismDocs {
    /// The endpoints and the schemas they reference.
    static let connect: (endpoints: [OpenAPIEndpoint], schemas: [String: JSON]) = {
        let registry = ProtoRegistry(PrismProtos.files)
        guard let service = registry.service(PrismProtos.serviceName) else { preconditionFailure("no \(PrismProtos.serviceName)") }
        return OpenAPI.connect(service, registry: registry, tag: "PayoutService", parameters: metadata,
                               headers: [PrismCaller.Header.requestID: [
                                   "description": "The call's `x-request-id`, or one made for it (not for a request that does not decode)",
                                   "schema": ["type": "string"],
                               ]],
                               methods: methods)
    }()

    /// The call's metadata, as headers (`PrismCaller`), with the default merchant's as examples.
    private static let metadata: [JSON] = {
        typealias Header = PrismCaller.Header
        return [
            OpenAPI.header(Header.connector, "`sandbox`, or any connector of Prism's list (case-insensitive); or give `x-payout-connector`, "
                               + "or a connector config", example: PrismConnector.sandbox),
            OpenAPI.header(Header.auth, "Which keys follow: `header-key` `x-api-key`; `body-key` and `x-key1`; `signature-key` and `x-api-secret`",
                           example: "header-key", schema: Schema.oneOf(["header-key", "body-key", "signature-key"])),
            OpenAPI.header(Header.apiKey, "The merchant's API key (`\(merchant.apiKey)` for `\(merchant.id)`)", example: merchant.apiKey),
            OpenAPI.header(Header.key1, "With `body-key` and `signature-key`: the merchant's key1, when it has one"),
            OpenAPI.header(Header.apiSecret, "With `signature-key`: the merchant's secret, when it has one"),
            OpenAPI.header(Header.connectorConfig, #"Instead of `x-auth` and the keys: `{"config":{"Sandbox":{"api_key":"\#(merchant.apiKey)"}}}`"#),
            OpenAPI.header(Header.merchantID, "The merchant (default `\(merchant.id)`)", example: merchant.id),
            OpenAPI.header(Header.tenantID, "The tenant (default `\(PrismCaller.defaultTenant)`), recorded on the payout"),
            OpenAPI.header(Header.requestID, "Echoed in the answer's headers; one is made when absent"),
        ]
    }()

    /// What every call can end with before its method runs: the metadata refused.
    private static let authentication: [GRPCStatus] = {
        typealias Header = PrismCaller.Header
        return [GRPCStatus(.invalidArgument, PrismMessage.missing(Header.connector)),
                GRPCStatus(.invalidArgument, PrismMessage.invalid(Header.connector)),
                GRPCStatus(.invalidArgument, PrismMessage.missing(Header.auth)), GRPCStatus(.invalidArgument, PrismMessage.invalid(Header.auth)),
                GRPCStatus(.invalidArgument, PrismMessage.missing(Header.apiKey)),
                GRPCStatus(.invalidArgument, PrismMessage.invalid(Header.connectorConfig)),
                GRPCStatus(.unauthenticated, PrismMessage.invalidCredentials)]
    }()

    /// Why an amount is refused.
    private static let amountErrors = [GRPCStatus(.invalidArgument, PrismMessage.missing(PrismAPI.amountField)),
                                       GRPCStatus(.invalidArgument, PrismMessage.missing("amount.currency")),
                                       GRPCStatus(.invalidArgument, PrismMessage.invalid("amount"))]

    /// Why a payout named by id is not there.
    private static let lookupErrors = [GRPCStatus(.invalidArgument, PrismMessage.missing("connector_payout_id")),
                                       GRPCStatus(.notFound, PrismMessage.payoutNotFound("999"))]

    /// A `connectorPayoutMethodId` the merchant did not enroll.
    private static let unknownMethod = GRPCStatus(.notFound, PrismMessage.payoutMethodNotFound("pm_999999"))

    private static let declines = """
        A decline by the simulated connector (the balance, a limit, a scenario's `decline`, a recipient named `DECLINE…`) \
        is not an error: it is a 200 with `payoutStatus` `FAILED`, `error.connectorDetails` and `statusCode` 400.
        """

    private static let methods: [ConnectMethod] = [
        ConnectMethod(PrismOperation.create, summary: "Pay out now",
                      description: """
                          Debits `amount` and pays it to `payoutMethodData` (or an enrolled `connectorPayoutMethodId`): `PENDING`, \
                          `INITIATED` after 5 s and `SUCCESS` 10 s later on the default bank; a recipient named `FAIL…`, `REVERSE…`, \
                          `STUCK…`, `DECLINE…` or `INELIGIBLE…` picks another outcome. \
                          `merchantPayoutId` is unique per merchant: a second Create \
                          with it answers the first payout as it stands and debits nothing. \(declines)
                          """,
                      examples: ["card": PrismExample.create()],
                      answer: ["merchantPayoutId": "order-1", "payoutStatus": "PENDING", "connectorPayoutId": "1000001", "statusCode": 200],
                      errors: authentication + amountErrors + [GRPCStatus(.invalidArgument, PrismMessage.missing("payout_method_data")),
                                                               unknownMethod],
                      links: byID(PrismOperation.get, PrismOperation.void), required: amountFields,
                      requiredOneOf: [[PrismAPI.payoutMethodField, "connector_payout_method_id"]]),
        ConnectMethod(PrismOperation.get, summary: "A payout as it stands",
                      description: "By `connectorPayoutId` (the sandbox's id), else `merchantPayoutId`.",
                      examples: ["by id": PrismExample.payout("1000001")],
                      answer: ["merchantPayoutId": "order-1", "payoutStatus": "PENDING", "connectorPayoutId": "1000001", "statusCode": 200],
                      errors: authentication + lookupErrors, requiredOneOf: [payoutIDs]),
        ConnectMethod(PrismOperation.void, summary: "Cancel a payout not yet sent",
                      description: """
                          A `PENDING` payout becomes `CANCELLED` and is refunded (one staged or awaiting its details too, \
                          without a debit to refund); a `CANCELLED` one answers as it is; any other is `failed_precondition`.
                          """,
                      examples: ["by id": PrismExample.payout("1000001")],
                      answer: ["merchantPayoutId": "order-1", "payoutStatus": "CANCELLED", "connectorPayoutId": "1000001", "statusCode": 200],
                      errors: authentication + lookupErrors + [GRPCStatus(.failedPrecondition, PrismMessage.forbidden("void", status: "SUCCESS"))],
                      requiredOneOf: [payoutIDs]),
        ConnectMethod(PrismOperation.stage, summary: "Stage a payout, without a debit",
                      description: """
                          `REQUIRES_FULFILLMENT`; Transfer executes it. `merchantQuoteId` is its reference, answered as \
                          `merchantPayoutId`, and unique per merchant as Create's id is. \(declines)
                          """,
                      examples: ["quote": PrismExample.stage()],
                      answer: ["merchantPayoutId": "quote-1", "payoutStatus": "REQUIRES_FULFILLMENT", "connectorPayoutId": "1000002",
                               "statusCode": 200],
                      errors: authentication + amountErrors, links: byID(PrismOperation.transfer), required: amountFields),
        ConnectMethod(PrismOperation.transfer, summary: "Execute a staged payout",
                      description: """
                          The payout named by `connectorPayoutId`, else `connectorQuoteId`, else `merchantPayoutId` (the \
                          Stage's ids) is debited and goes on as a Create's: `PENDING`, then the bank's timeline. One that is \
                          not staged is `failed_precondition`. A debit the balance or a limit refuses is a decline, and the \
                          payout stays staged.
                          """,
                      examples: ["by id": PrismExample.payout("1000002")],
                      answer: ["merchantPayoutId": "quote-1", "payoutStatus": "PENDING", "connectorPayoutId": "1000002", "statusCode": 200],
                      errors: authentication + lookupErrors + [unknownMethod, GRPCStatus(.failedPrecondition, PrismMessage.notStaged("PENDING"))],
                      requiredOneOf: [["connector_payout_id", "connector_quote_id", "merchant_payout_id"]]),
        ConnectMethod(PrismOperation.createLink, summary: "A payout the recipient completes on a page",
                      description: """
                          `REQUIRES_PAYOUT_METHOD_DATA`, without a debit; the answer's header `x-payout-link` is a page of this \
                          sandbox (`GET /prism/payout-links/{token}`) where the recipient enters a method, which executes the \
                          payout as a Create. `EXPIRED` after 24 h of virtual time. Idempotent on `merchantPayoutId`.
                          """,
                      examples: ["link": PrismExample.createLink()],
                      answer: ["merchantPayoutId": "link-1", "payoutStatus": "REQUIRES_PAYOUT_METHOD_DATA", "connectorPayoutId": "1000003",
                               "statusCode": 200],
                      headers: [PrismLinks.header: [
                          "description": .string("The recipient's page; absent when the answer has none: a decline, or a replay "
                              + "(the same `merchantPayoutId`) of a payout made without a link, by Create or Stage"),
                          "required": false, "schema": ["type": "string", "format": "uri"],
                      ]],
                      errors: authentication + amountErrors, required: amountFields),
        ConnectMethod(PrismOperation.createRecipient, summary: "Register a recipient",
                      description: """
                          `REQUIRES_VENDOR_ACCOUNT_CREATION`; `connectorPayoutId` is the recipient's id (`rcp_000001`, counted \
                          per merchant), which EnrollDisburseAccount takes as `customer.connectorCustomerId`.
                          """,
                      examples: ["individual": PrismExample.createRecipient()],
                      answer: ["merchantPayoutId": "recipient-1", "payoutStatus": "REQUIRES_VENDOR_ACCOUNT_CREATION",
                               "connectorPayoutId": "rcp_000001", "statusCode": 200],
                      errors: authentication + [GRPCStatus(.resourceExhausted, PrismMessage.tooMany("recipients", PrismRecipients.limit))],
                      links: link(PrismOperation.enrollDisburseAccount, body: PrismExample.enrollDisburseAccount(
                          recipientID: "$response.body#/connectorPayoutId"))),
        ConnectMethod(PrismOperation.enrollDisburseAccount, summary: "Enroll a payout method",
                      description: """
                          `REQUIRES_CREATION`; `connectorPayoutId` is the method's id (`pm_000001`), which a later Create takes \
                          as `connectorPayoutMethodId` to pay out to it. `payoutMethodData` is required; the recipient, \
                          optional, is `customer.connectorCustomerId`.
                          """,
                      examples: ["sepa": PrismExample.enrollDisburseAccount(recipientID: "rcp_000001")],
                      answer: ["payoutStatus": "REQUIRES_CREATION", "connectorPayoutId": "pm_000001", "statusCode": 200],
                      errors: authentication + [GRPCStatus(.invalidArgument, PrismMessage.missing(PrismAPI.payoutMethodField)),
                                                GRPCStatus(.resourceExhausted, PrismMessage.tooMany("disburse accounts", PrismRecipients.limit))],
                      links: link(PrismOperation.create, body: PrismExample.create("order-2", methodID: "$response.body#/connectorPayoutId")),
                      required: [PrismAPI.payoutMethodField]),
    ]

    /// What `PrismAPI.amount(_:)` refuses as missing: the amount, its currency, its minor units (a zero
    /// amount is no amount; one its currency's decimals refuse is invalid, which no schema says).
    private static let amountFields = [PrismAPI.amountField, "\(PrismAPI.amountField).currency", "\(PrismAPI.amountField).minor_amount"]

    /// What `PrismAPI.payout(_:_:)` names a payout by, one of them.
    private static let payoutIDs = ["connector_payout_id", "merchant_payout_id"]

    /// Links, each to one of `operations` naming the answer's payout by its `connectorPayoutId`.
    private static func byID(_ operations: APIOperation...) -> [String: JSON] {
        operations.reduce(into: [:]) { links, operation in
            links.merge(link(operation, body: PrismExample.payout("$response.body#/connectorPayoutId"))) { $1 }
        }
    }

    /// A link, under its method's name, to `operation` with `body`.
    private static func link(_ operation: APIOperation, body: JSON) -> [String: JSON] {
        [operation.grpcMethod ?? operation.id: OpenAPI.connectLink(to: operation.id, body: body)]
    }
}
