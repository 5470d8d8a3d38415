import SandboxContract
import SandboxBank
import SandboxWire
import SandboxSupport

// The D24 Cashouts API v3 endpoints (D24's Cashouts docs (docs.d24.com), "Endpoints"): create, status, update status and cancel,
// signed with `Payload-Signature`; bank codes and exchange rates, with the read-only key.

/// Serves the D24 dialect over a `Bank`.
///
/// ```swift
/// var router = Router()
/// D24API(bank: bank).register(in: &router)
/// ```
struct D24API: Sendable {
    let bank: Bank
    let keys: D24SigningKeys

    init(bank: Bank, keys: D24SigningKeys = D24SigningKeys()) {
        self.bank = bank
        self.keys = keys
    }

    /// Adds its endpoints (declared with their documentation in Docs/D24OpenAPI.swift) to `router`.
    func register(in router: inout Router) {
        router.add(OpenAPIDocument.d24Endpoints, serving: self)
    }

    /// What `endpoint` answers, or its refusal in D24's shape.
    func answer(_ request: HTTPRequest, _ endpoint: (HTTPRequest) throws(D24Error) -> HTTPResponse) -> HTTPResponse {
        do throws(D24Error) { return try endpoint(request) } catch { return error.response }
    }

    // MARK: - Signed endpoints

    /// `POST /v3/cashout`: `{"cashout_id":"1000001"}`.
    func create(_ request: HTTPRequest) throws(D24Error) -> HTTPResponse {
        let signed = try D24SignedRequest(request, bank: bank, keys: keys)
        let fields = try D24CreateFields(signed)
        if let error = D24FieldValidator.firstError(in: fields) { throw D24Error(error) }
        let onHold = try signed.flag("on_hold", "onHold", "On hold")
        guard let country = fields.country, let amount = fields.amount.flatMap({ Money($0) }), let externalID = fields.externalID,
              let currency = fields.currency ?? D24Countries.defaultCurrency(of: country) else {
            throw .invalidParam("amount", "Amount")  // unreachable once the validator passed
        }
        let payout: Payout
        do throws(PayoutRefusal) {
            payout = try bank.createPayout(PayoutRequest(
                dialect: D24Dialect.name, account: signed.merchant.login, reference: externalID, country: country, currency: currency,
                amount: amount, status: onHold ? .onHold : .pending, callbackURL: fields.notificationURL, fields: fields.wireFields))
        } catch {
            throw D24Error(error)
        }
        return Self.created(payout.id)
    }

    /// `{"cashout_id":"1000001"}`, written straight into its bytes rather than through an object:
    /// a load scenario answers a hundred thousand of these.
    static func created(_ id: Int) -> HTTPResponse {
        var body: [UInt8] = []
        body.reserveCapacity(32)
        body += #"{"cashout_id":"#.utf8
        JSON.string(String(id)).write(into: &body)
        body += "}".utf8
        return .json(serialized: body)
    }

    /// `POST /v3/cashout/status`.
    func status(_ request: HTTPRequest) throws(D24Error) -> HTTPResponse {
        let signed = try D24SignedRequest(request, bank: bank, keys: keys)
        return .json(D24Status.body(try signed.payout(in: bank)))
    }

    /// `PUT /v3/cashout/status`: PENDING <-> ON_HOLD only.
    func updateStatus(_ request: HTTPRequest) throws(D24Error) -> HTTPResponse {
        let signed = try D24SignedRequest(request, bank: bank, keys: keys)
        guard let name = try signed.text("status", "status", "Status") else { throw .invalidParam("status", "Status") }
        guard let target = D24Status.status(named: name) else { throw .statusNotSupported(name) }
        let payout = try signed.payout(in: bank)
        guard target == .pending || target == .onHold else { throw .invalidTransition }
        return .json(D24Status.body(try change(payout, to: target)))
    }

    /// `DELETE /v3/cashout/cancel`: both ids required; from PENDING or ON_HOLD.
    func cancel(_ request: HTTPRequest) throws(D24Error) -> HTTPResponse {
        let signed = try D24SignedRequest(request, bank: bank, keys: keys)
        guard let id = try signed.cashoutID() else { throw .invalidParam("cashoutId", "Cashout ID") }
        guard let externalID = try signed.externalID() else { throw .invalidParam("externalId", "External ID") }
        guard let payout = bank.payout(id: id), payout.account == signed.merchant.login, payout.reference == externalID else {
            throw .notFound
        }
        return .json(D24Status.body(try change(payout, to: .cancelled)))
    }

    private func change(_ payout: Payout, to status: PayoutStatus) throws(D24Error) -> Payout {
        do throws(TransitionError) {
            return try bank.changeStatus(payoutID: payout.id, to: status, by: "merchant") ?? payout
        } catch {
            throw .invalidTransition
        }
    }

    // MARK: - Read-only endpoints

    /// `GET /v3/banks?country=BR`: `[{"code":1,"name":"Banco do Brasil"},...]`.
    func banks(_ request: HTTPRequest) -> HTTPResponse {
        if let refusal = readOnlyRefusal(request) { return refusal }
        guard let country = request.query("country"), let banks = D24Countries.banks(of: country) else {
            return HTTPResponse(status: 400)
        }
        return .json(.array(banks.map { ["code": .number($0.code), "name": .string($0.name)] }))
    }

    /// `GET /v3/exchange_rates?country=BR&amount=10`: the sandbox rate of the country's currency.
    func exchangeRates(_ request: HTTPRequest) -> HTTPResponse {
        if let refusal = readOnlyRefusal(request) { return refusal }
        let rates = bank.rates
        guard let country = request.query("country"), let currencies = D24Countries.currencies(of: country),
              let currency = currencies.first(where: { $0 != "USD" }) ?? currencies.first,
              let amount = Money(request.query("amount") ?? "1"), amount > .zero,
              let rate = rates.rateText(currency), let converted = rates.convertedText(amount, to: currency) else {
            return HTTPResponse(status: 400)
        }
        return .json(["fx_rate": .number(rate), "currency": .string(currency), "converted_amount": .number(converted)])
    }

    /// nil when `Authorization: Bearer <key>` names a merchant's read-only key; else the 401, diagnosed.
    private func readOnlyRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        let header = request.headers["Authorization"]
        if let header, header.hasPrefix("Bearer ") {
            let key = String(header.dropFirst("Bearer ".count))
            if bank.containsAccount(where: { D24Merchant(owned: $0)?.readOnlyKey == key }) { return nil }
        }
        var response = Self.invalidReadOnlyKey
        response.diagnosis = D24Diagnosis.readOnlyKey(header, bank: bank)
        return response
    }

    /// `{"code":100,"description":"Invalid credentials"}`: the deposit-style shape these endpoints use
    /// (the document's example of their 401 too).
    static let invalidReadOnlyKeyBody: JSON = ["code": 100, "description": "Invalid credentials"]
    static let invalidReadOnlyKey = HTTPResponse.json(invalidReadOnlyKeyBody, status: 401)
}
