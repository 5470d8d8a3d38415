@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxPrism
import Testing

/// Metadata authentication exactly as the PayoutService guide says ("The default merchant and the metadata").
@Suite struct PrismAuthTests {
    private func expectStatus(_ sandbox: Sandbox, _ headers: HTTPHeaders, _ code: Int, _ message: String?,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let answer = try sandbox.prism("Get", lookup("Get", merchant: "order-1"), headers: headers)
        #expect(answer.code == code, "\(answer.message ?? "")", sourceLocation: sourceLocation)
        if let message { #expect(answer.message == message, sourceLocation: sourceLocation) }
    }

    @Test func theConnectorHeader() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        _ = try sandbox.prism("Create", createRequest())
        let key: HTTPHeaders = ["x-auth": "header-key", "x-api-key": DefaultMerchant.apiKey]
        try expectStatus(sandbox, key, 3, "Missing required field: x-connector")
        try expectStatus(sandbox, key.adding("x-connector", "nosuchpay"), 3, "Invalid data format: x-connector")
        try expectStatus(sandbox, key.adding("x-connector", ""), 3, PrismMessage.missing("x-connector"))
        for name in ["sandbox", "SANDBOX", "Stripe", "adyen", "pinelabs_online", "PineLabsOnline"] {
            try expectStatus(sandbox, key.adding("x-connector", name), 0, nil)
        }
        try expectStatus(sandbox, key.adding("x-payout-connector", "itaubank"), 0, nil)
    }

    @Test func xAuthAndItsKeys() throws {
        let sandbox = try startPrismSandbox(extra: [PrismMerchant.account(id: "acme", apiKey: "k", key1: "k1", apiSecret: "s",
                                                                            balance: Money("100.00")!)])
        defer { sandbox.stop() }
        let acme: HTTPHeaders = ["x-connector": "sandbox", "x-merchant-id": "acme"]
        try expectStatus(sandbox, acme, 3, "Missing required field: x-auth")
        try expectStatus(sandbox, acme.adding("x-auth", "magic-key"), 3, "Invalid data format: x-auth")
        try expectStatus(sandbox, acme.adding("x-auth", "header-key"), 3, "Missing required field: x-api-key")
        try expectStatus(sandbox, acme.adding("x-auth", "body-key").adding("x-api-key", "k"), 3, "Missing required field: x-key1")
        try expectStatus(sandbox, acme.adding("x-auth", "signature-key").adding("x-api-key", "k").adding("x-key1", "k1"), 3,
                         "Missing required field: x-api-secret")
        // Complete credentials: the payout is unknown, so NOT_FOUND says they passed.
        try expectStatus(sandbox, acme.adding("x-auth", "header-key").adding("x-api-key", "k"), 5, nil)
        try expectStatus(sandbox, acme.adding("x-auth", "body-key").adding("x-api-key", "k").adding("x-key1", "k1"), 5, nil)
        try expectStatus(sandbox, acme.adding("x-auth", "signature-key").adding("x-api-key", "k").adding("x-key1", "k1")
                            .adding("x-api-secret", "s"), 5, nil)
        // Wrong pieces.
        try expectStatus(sandbox, acme.adding("x-auth", "header-key").adding("x-api-key", "wrong"), 16, PrismMessage.invalidCredentials)
        try expectStatus(sandbox, acme.adding("x-auth", "body-key").adding("x-api-key", "k").adding("x-key1", "no"), 16, nil)
        try expectStatus(sandbox, acme.adding("x-auth", "signature-key").adding("x-api-key", "k").adding("x-key1", "k1")
                            .adding("x-api-secret", "no"), 16, nil)
        // Another merchant's key, and an unknown merchant.
        try expectStatus(sandbox, acme.adding("x-auth", "header-key").adding("x-api-key", DefaultMerchant.apiKey), 16, nil)
        try expectStatus(sandbox, ["x-connector": "sandbox", "x-merchant-id": "ghost", "x-auth": "header-key", "x-api-key": "k"], 16, nil)
        // No x-merchant-id: DefaultMerchantId.
        try expectStatus(sandbox, ["x-connector": "sandbox", "x-auth": "header-key", "x-api-key": DefaultMerchant.apiKey], 5, nil)
    }

    @Test func connectorConfigInsteadOfXAuth() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let config = #"{"config":{"Stripe":{"api_key":"sandbox_prism_key"}}}"#
        try expectStatus(sandbox, ["x-connector": "stripe", "x-connector-config": config], 5, nil)
        try expectStatus(sandbox, ["x-connector-config": config], 5, nil)  // the connector from the config
        try expectStatus(sandbox, ["x-connector-config": #"{"config":{"Stripe":{"api_key":"wrong"}}}"#], 16, PrismMessage.invalidCredentials)
        try expectStatus(sandbox, ["x-connector": "stripe", "x-connector-config": "{not json"], 3, "Invalid data format: x-connector-config")
        try expectStatus(sandbox, ["x-connector": "stripe", "x-connector-config": #"{"config":{"Stripe":{}}}"#], 3,
                         "Missing required field: api_key")
        try expectStatus(sandbox, ["x-connector-config": #"{"config":{"NoSuchPay":{"api_key":"k"}}}"#], 3, "Invalid data format: x-connector")
    }

    @Test func requestIDIsEchoedOrGenerated() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        let generated = try sandbox.prism("Create", createRequest())
        let id = try #require(generated.response.headers["x-request-id"])
        #expect(id.hasPrefix("req_") && id.count == 20)
        let refused = try sandbox.prism("Create", createRequest(), headers: ["x-request-id": "mine"])
        #expect(refused.code == 3)
        #expect(refused.response.headers["x-request-id"] == "mine")  // trailers-only: in the headers
    }

    @Test func tenantAndConnectorAreRecordedOnThePayout() throws {
        let sandbox = try startPrismSandbox()
        defer { sandbox.stop() }
        _ = try sandbox.prism("Create", createRequest(), headers: defaultAuth.adding("x-tenant-id", "acme-tenant"))
        _ = try sandbox.prism("Create", createRequest("order-2"), headers: ["x-payout-connector": "Adyen", "x-auth": "header-key",
                                                                             "x-api-key": DefaultMerchant.apiKey])
        let payouts = sandbox.bank.payouts(account: DefaultMerchant.id)
        #expect(payouts.map { $0.fields["tenant"] } == ["acme-tenant", "public"])
        #expect(payouts.map { $0.fields["connector"] } == ["sandbox", "adyen"])
        #expect(payouts.map { $0.fields["method"] } == ["card", "card"])
        #expect(payouts.first?.fields["amount"] == "10.00")
    }
}

extension HTTPHeaders {
    /// These headers and one more.
    func adding(_ name: String, _ value: String) -> HTTPHeaders {
        var headers = self
        headers.add(name, value)
        return headers
    }
}
