import SandboxBank
import SandboxWire
import SandboxSupport

// The refusals of PrismCaller's checks: the status Prism answers (PrismMessage's words, the same
// over gRPC and Connect), and beside it the diagnosis: `metadata` for a header missing or
// malformed, `unknown_merchant`, `wrong_key` (which key, what was sent, what the merchant has).

extension PrismCaller {
    /// INVALID_ARGUMENT "Missing required field: NAME"; `auth`: the `x-auth` kind that needs it.
    static func missing(_ name: String, auth: String? = nil) -> Refusal {
        let why = switch name {
        case Header.connector: "name the connector (x-connector: sandbox), or send x-connector-config"
        case Header.auth: "say how the keys come: x-auth: header-key (with x-api-key), body-key (+ x-key1) or signature-key (+ x-api-secret)"
        case "api_key": "x-connector-config's connector needs an \"api_key\""
        default: "x-auth: \(auth ?? "") needs it"
        }
        return Refusal(status: GRPCStatus(.invalidArgument, PrismMessage.missing(name)),
                       diagnosis: Diagnosis("metadata", "The call has no \(name) metadata: \(why)", ["header": .string(name)]))
    }

    /// INVALID_ARGUMENT "Invalid data format: NAME" for `value`.
    static func invalid(_ name: String, _ value: String) -> Refusal {
        let expected = switch name {
        case Header.connector: "a connector Prism knows, such as sandbox, stripe or adyen"
        case Header.auth: "header-key, body-key or signature-key"
        default: #"{"config":{"<Connector>":{"api_key":"…"}}}"#
        }
        return Refusal(status: GRPCStatus(.invalidArgument, PrismMessage.invalid(name)),
                       diagnosis: Diagnosis("metadata", "\(name) is \"\(value.prefix(200))\", expected \(expected)",
                                            ["header": .string(name), "received": .string(value)]))
    }

    /// UNAUTHENTICATED: `x-merchant-id` (or its default) names no PayoutService merchant.
    static func unknownMerchant(_ id: String, _ credentials: Credentials, bank: Bank) -> Refusal {
        let merchants = bank.accounts.compactMap(PrismMerchant.init(owned:))
        var message = "x-merchant-id \"\(id)\" is no PayoutService merchant"
        if let owner = merchants.first(where: { $0.apiKey == credentials.apiKey }) {
            message += "; the key sent is merchant \(owner.id)'s: send x-merchant-id: \(owner.id)"
        } else {
            message += " (\(merchants.prefix(5).map(\.id).joined(separator: ", ")); GET /sandbox/prism-merchants lists them)"
        }
        return Refusal(status: GRPCStatus(.unauthenticated, PrismMessage.invalidCredentials),
                       diagnosis: Diagnosis("unknown_merchant", message, ["merchant_id": .string(id),
                                                                          "merchants": .array(merchants.prefix(20).map { .string($0.id) })]))
    }

    /// UNAUTHENTICATED: a key that is not the merchant's.
    static func wrongKey(_ mismatch: (name: String, received: String, expected: String), _ merchant: PrismMerchant, bank: Bank) -> Refusal {
        var message = "\(mismatch.name) \"\(mismatch.received)\" is not merchant \(merchant.id)'s, \"\(mismatch.expected)\""
        if mismatch.name.hasSuffix("api_key") || mismatch.name == Header.apiKey,
           let owner = bank.accounts.lazy.compactMap(PrismMerchant.init(owned:)).first(where: { $0.apiKey == mismatch.received }) {
            message += ": it is merchant \(owner.id)'s key; send x-merchant-id: \(owner.id)"
        }
        return Refusal(status: GRPCStatus(.unauthenticated, PrismMessage.invalidCredentials),
                       diagnosis: Diagnosis("wrong_key", message, ["merchant_id": .string(merchant.id), "key": .string(mismatch.name),
                                                                   "received": .string(mismatch.received), "expected": .string(mismatch.expected)]))
    }
}
