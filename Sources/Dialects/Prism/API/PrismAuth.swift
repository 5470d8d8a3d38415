import SandboxBank
import SandboxWire
import SandboxSupport

/// Who is calling, read from a call's metadata as Prism reads it (the PayoutService guide, "The default merchant and
/// the metadata"): the connector (`x-connector`, or newer clients' `x-payout-connector`), the
/// credentials (`x-auth` with `x-api-key`, `x-key1`, `x-api-secret`, or `x-connector-config`
/// instead), the merchant (`x-merchant-id`, default `DefaultMerchantId`), the tenant
/// (`x-tenant-id`, default `public`) and the request id (`x-request-id`, generated when absent).
///
/// ```swift
/// let caller = try PrismCaller(context.metadata, bank: bank, requestID: { "req_1" })
/// caller.merchant.id   // "DefaultMerchantId"
/// ```
struct PrismCaller {
    /// The connector named, lowercase (`sandbox`, `stripe`...): scenario rules match it.
    let connector: String
    let merchant: PrismMerchant
    let tenant: String
    let requestID: String

    /// The metadata's names.
    enum Header {
        static let connector = "x-connector", payoutConnector = "x-payout-connector", auth = "x-auth", apiKey = "x-api-key",
                   key1 = "x-key1", apiSecret = "x-api-secret", connectorConfig = "x-connector-config",
                   merchantID = "x-merchant-id", tenantID = "x-tenant-id", requestID = "x-request-id"
    }

    /// The tenant of a call that names none.
    static let defaultTenant = "public"

    /// The request id a call carries (so that even a refused call's answer echoes it), or a new one.
    static func requestID(_ metadata: GRPCMetadata, generate: () -> String) -> String {
        metadata[Header.requestID].flatMap { $0.isEmpty ? nil : $0 } ?? generate()
    }

    /// A refused call: its status, and why (never sent: the request log and the log show it).
    struct Refusal: Error {
        let status: GRPCStatus
        let diagnosis: Diagnosis
    }

    /// Checks, in Prism's order: the connector, the credentials' form, then the merchant and its
    /// key. INVALID_ARGUMENT for a missing or malformed header, UNAUTHENTICATED for a merchant or
    /// key that does not match; each refusal with its diagnosis (PrismAuth+Diagnosis).
    /// A merchant with `require_auth: false` takes calls without credentials: its connector is
    /// the one named, else `sandbox`, and keys are not checked.
    init(_ metadata: GRPCMetadata, bank: Bank, requestID: String) throws(Refusal) {
        self.requestID = requestID
        let merchantID = Self.present(metadata[Header.merchantID]) ?? PrismMerchant.defaultID
        tenant = Self.present(metadata[Header.tenantID]) ?? Self.defaultTenant
        if let open = bank.account(id: merchantID).flatMap(PrismMerchant.init(owned:)), !open.requiresAuth {
            let named = Self.present(metadata[Header.connector]) ?? Self.present(metadata[Header.payoutConnector]) ?? PrismConnector.sandbox
            guard let connector = PrismConnector.canonical(named) else { throw Self.invalid(Header.connector, named) }
            self.connector = connector
            merchant = open
            return
        }
        let config = try Self.connectorConfig(metadata)
        guard let named = Self.present(metadata[Header.connector]) ?? Self.present(metadata[Header.payoutConnector]) ?? config?.connector else {
            throw Self.missing(Header.connector)
        }
        guard let connector = PrismConnector.canonical(named) else { throw Self.invalid(Header.connector, named) }
        self.connector = connector
        let credentials: Credentials
        if let config { credentials = config.credentials } else { credentials = try Self.legacyCredentials(metadata) }
        guard let merchant = bank.account(id: merchantID).flatMap(PrismMerchant.init(owned:)) else {
            throw Self.unknownMerchant(merchantID, credentials, bank: bank)
        }
        if let mismatch = credentials.mismatch(merchant) { throw Self.wrongKey(mismatch, merchant, bank: bank) }
        self.merchant = merchant
    }

    private static func present(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    /// The keys a call presents, and the names it presents them under (for a diagnosis).
    struct Credentials {
        var apiKey: String
        var key1: String?
        var apiSecret: String?
        /// `x-api-key`, `x-key1`, `x-api-secret`; or the connector config's `api_key`, `key1`, `api_secret`.
        var names: (apiKey: String, key1: String, apiSecret: String)

        /// The first key that is not the merchant's (the key always, key1 and the secret when both
        /// sides have them): its name, what was sent and what the merchant has; nil when they match.
        func mismatch(_ merchant: PrismMerchant) -> (name: String, received: String, expected: String)? {
            if apiKey != merchant.apiKey { return (names.apiKey, apiKey, merchant.apiKey) }
            if let key1, let expected = merchant.key1, key1 != expected { return (names.key1, key1, expected) }
            if let apiSecret, let expected = merchant.apiSecret, apiSecret != expected { return (names.apiSecret, apiSecret, expected) }
            return nil
        }
    }

    /// `x-auth` and the keys its kind needs: `header-key` (`x-api-key`), `body-key` (+ `x-key1`),
    /// `signature-key` (+ `x-api-secret`).
    private static func legacyCredentials(_ metadata: GRPCMetadata) throws(Refusal) -> Credentials {
        guard let auth = present(metadata[Header.auth]) else { throw missing(Header.auth) }
        let needed: [String]
        switch auth.lowercased() {
        case "header-key": needed = [Header.apiKey]
        case "body-key": needed = [Header.apiKey, Header.key1]
        case "signature-key": needed = [Header.apiKey, Header.key1, Header.apiSecret]
        default: throw invalid(Header.auth, auth)
        }
        for header in needed where present(metadata[header]) == nil { throw missing(header, auth: auth) }
        return Credentials(apiKey: metadata[Header.apiKey] ?? "", key1: needed.count > 1 ? metadata[Header.key1] : nil,
                           apiSecret: needed.count > 2 ? metadata[Header.apiSecret] : nil, names: (Header.apiKey, Header.key1, Header.apiSecret))
    }

    /// `x-connector-config`: `{"config":{"<Connector>":{"api_key":…, "key1"?, "api_secret"?}}}`;
    /// nil when absent. Anything else is "Invalid data format: x-connector-config"; a config
    /// without `api_key` is "Missing required field: api_key".
    private static func connectorConfig(_ metadata: GRPCMetadata) throws(Refusal) -> (connector: String, credentials: Credentials)? {
        guard let text = present(metadata[Header.connectorConfig]) else { return nil }
        guard let json = try? JSON.parse(Array(text.utf8)), let config = json["config"]?.objectValue, config.count == 1,
              let (connector, settings) = config.first, let fields = settings.objectValue else {
            throw invalid(Header.connectorConfig, text)
        }
        guard let apiKey = fields["api_key"]?.stringValue, !apiKey.isEmpty else { throw missing("api_key") }
        let names = ("\(Header.connectorConfig) api_key", "\(Header.connectorConfig) key1", "\(Header.connectorConfig) api_secret")
        return (connector, Credentials(apiKey: apiKey, key1: fields["key1"]?.stringValue, apiSecret: fields["api_secret"]?.stringValue, names: names))
    }
}

/// The connectors `x-connector` may name: the sandbox's own, and Prism's connector list.
enum PrismConnector {
    /// The sandbox's own connector.
    static let sandbox = "sandbox"

    /// `name` as rules match it (lowercase), when it is a connector; case, `-` and `_` do not matter.
    static func canonical(_ name: String) -> String? {
        let key = Self.key(name)
        return byKey[key]
    }

    private static func key(_ name: String) -> String { String(name.lowercased().filter { $0 != "_" && $0 != "-" }) }

    /// Prism's connectors (its `Connector` enum, lowercase), and the sandbox.
    static let names = [
        sandbox, "aci", "adyen", "adyenplatform", "airwallex", "authorizedotnet", "bambora", "bamboraapac", "bankofamerica", "billwerk",
        "bitpay", "bluecode", "bluesnap", "boku", "braintree", "cashfree", "cashtocode", "chargebee", "checkout", "coinbase", "coingate",
        "cryptopay", "ctp_mastercard", "ctp_visa", "cybersource", "datatrans", "deutschebank", "deutschebank_payouts", "digitalvirgo",
        "dlocal", "ebanx", "elavon", "fiserv", "fiservemea", "fiuu", "forte", "getnet", "gigadat", "globalpay", "globepay", "gocardless",
        "gpayments", "helcim", "hipay", "iatapay", "inespay", "itaubank", "jpmorgan", "klarna", "mifinity", "mollie", "moneris",
        "multisafepay", "nexinets", "nexixpay", "nmi", "nomupay", "noon", "novalnet", "nuvei", "opennode", "payload", "payme", "payone",
        "paypal", "paysafe", "paystack", "paytm", "payu", "phonepe", "pinelabs_online", "placetopay", "powertranz", "rapyd", "razorpay",
        "razorpayv2", "redsys", "shift4", "square", "stax", "stripe", "trustpay", "tsys", "volt", "wellsfargo", "wise", "worldline",
        "worldpay", "worldpayvantiv", "xendit", "zen",
    ]

    private static let byKey = Dictionary(names.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
}
