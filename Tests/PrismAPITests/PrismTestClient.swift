@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxContract
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxPrism
import TestHelpers
import Testing

// Shared helpers for the PayoutService API tests: every test starts its own sandbox (manual
// clock, port 0) and calls its gRPC methods in process through the router, with HTTP/2 requests
// carrying framed protobuf bodies and metadata headers, as the HTTP/2 server hands them over.

/// The default merchant.
enum DefaultMerchant {
    static let id = "DefaultMerchantId"
    static let apiKey = "sandbox_prism_key"
}

/// The registry of Prism's protos, to build requests and decode answers.
let prismRegistry = ProtoRegistry(PrismProtos.files)

/// Starts a sandbox on a manual clock with the standard dialects' default accounts plus `extra`.
func startPrismSandbox(extra: [Account] = []) throws -> Sandbox {
    var configuration = Sandbox.Configuration()
    configuration.clockMode = .manual
    configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
    if !extra.isEmpty { configuration.accounts = Sandbox.standardDialects.flatMap(\.defaultAccounts) + extra }
    return try Sandbox.launch(configuration)
}

/// The metadata of a call by the default merchant with `x-auth: header-key`.
let defaultAuth: HTTPHeaders = ["x-connector": "sandbox", "x-auth": "header-key", "x-api-key": DefaultMerchant.apiKey]

/// A call's answer: its grpc-status and grpc-message, its headers, and its message decoded.
struct PrismAnswer {
    let response: HTTPResponse
    let code: Int?
    let message: String?
    let body: ProtoMessage?

    var status: String? { body?.enumName("payout_status") }
    var connectorPayoutID: String { body?.string("connector_payout_id") ?? "" }
}

extension Sandbox {
    /// Calls `/types.PayoutService/<method>` with `message` and `headers` as metadata.
    func prism(_ method: String, _ message: ProtoMessage, headers: HTTPHeaders = defaultAuth) throws -> PrismAnswer {
        var all: HTTPHeaders = ["content-type": "application/grpc", "te": "trailers"]
        for (name, value) in headers { all.add(name, value) }
        let request = HTTPRequest(method: "POST", target: "/types.PayoutService/\(method)", version: .http2, headers: all,
                                  body: GRPCDeframer.frame(message.encoded()))
        let response = respond(to: request)
        let fields = response.trailers ?? response.headers
        var deframer = GRPCDeframer()
        let messages = try deframer.append(response.body)
        let output = "types.PayoutService\(method)Response"
        return PrismAnswer(response: response, code: fields["grpc-status"].flatMap { Int($0) },
                           message: fields["grpc-message"].map(GRPCStatus.percentDecoded),
                           body: try messages.first.map { try prismRegistry.decode(output, from: $0) })
    }

    /// The merchant's balance now.
    func balance(_ merchant: String = DefaultMerchant.id) -> Money? { bank.account(id: merchant)?.balance }

    /// The requests the built-in sink NAME received, as a client reads them (`GET /sandbox/sink/NAME`).
    func sinkRequests(_ name: String) throws -> [JSON] {
        try JSON.parse(TestHTTP.send(method: "GET", url: "\(baseURL)/sandbox/sink/\(name)").body)["requests"]?.arrayValue ?? []
    }

    /// The notifications the built-in sink NAME received, each body parsed.
    func sinkNotifications(_ name: String) throws -> [JSON] {
        try sinkRequests(name).map { try JSON.parse(Array(($0["body"]?.stringValue ?? "").utf8)) }
    }
}

/// A Create request: `minor` USD cents to a card held by `holder`, with `merchantPayoutID`.
func createRequest(_ merchantPayoutID: String? = "order-1", minor: Int64 = 1000, currency: String = "USD",
                   holder: String = "Ana Lima", withMethod: Bool = true, withAmount: Bool = true) -> ProtoMessage {
    var request = prismRegistry.message("types.PayoutServiceCreateRequest")
    if let merchantPayoutID { request["merchant_payout_id"] = .string(merchantPayoutID) }
    if withAmount {
        var money = prismRegistry.message("types.Money")
        money["minor_amount"] = .int(minor)
        money["currency"] = .string(currency)
        request["amount"] = .message(money)
    }
    request["destination_currency"] = .string(currency)
    if withMethod {
        var number = prismRegistry.message("types.CardNumberType")
        number["value"] = "4111111111111111"
        var card = prismRegistry.message("types.CardPayout")
        card["card_number"] = .message(number)
        if card.schema.field(named: "card_holder_name") != nil {
            var name = prismRegistry.message("types.SecretString")
            name["value"] = .string(holder)
            card["card_holder_name"] = .message(name)
        }
        var method = prismRegistry.message("types.PayoutMethod")
        method["card"] = .message(card)
        request["payout_method_data"] = .message(method)
    }
    return request
}

/// A Get or Void request by `connector_payout_id` (or `merchant_payout_id`).
func lookup(_ method: String, connector: String? = nil, merchant: String? = nil) -> ProtoMessage {
    var request = prismRegistry.message("types.PayoutService\(method)Request")
    if let connector { request["connector_payout_id"] = .string(connector) }
    if let merchant { request["merchant_payout_id"] = .string(merchant) }
    return request
}
