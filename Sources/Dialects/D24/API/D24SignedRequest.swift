import SandboxBank
import SandboxSupport
import SandboxWire

// Authentication of the signed cashout endpoints, in the order the D24 guide gives: the body is
// well-formed JSON (502), `login`/`pass` name a merchant (401), `Payload-Signature` is the
// lowercase hex HMAC-SHA256 of the exact body bytes with the merchant's API signature (302,
// D24's page "Calculating the Payload-Signature"), and the client's address is allowed when the merchant has an allow-list (402).
// Each refusal carries its diagnosis (D24Diagnosis): which check failed, and why.

/// A signed request that passed authentication: its JSON body and its merchant.
struct D24SignedRequest {
    let body: D24Body
    let merchant: D24Merchant

    init(_ request: HTTPRequest, bank: Bank, keys: D24SigningKeys) throws(D24Error) {
        guard let body = D24Body(request) else { throw .malformedBody }
        guard case .string(let login)? = body["login"], case .string(let pass)? = body["pass"] else {
            throw D24Error.invalidCredentials.diagnosed(D24Diagnosis.missingCredentials(body))
        }
        guard let merchant = bank.account(id: login).flatMap(D24Merchant.init(owned:)) else {
            throw D24Error.invalidCredentials.diagnosed(D24Diagnosis.unknownLogin(login, bank: bank))
        }
        guard constantTimeEquals(pass, merchant.pass) else {
            throw D24Error.invalidCredentials.diagnosed(D24Diagnosis.wrongPass(pass, merchant))
        }
        let expected = D24Signature.payload(of: request.body, key: keys.key(for: merchant))
        let signature = request.headers["Payload-Signature"]
        guard let signature, constantTimeEquals(signature, expected) else {
            throw D24Error.invalidSignature.diagnosed(D24Diagnosis.signature(received: signature, expected: expected, body: request.body,
                                                                              merchant: merchant, bank: bank, keys: keys))
        }
        guard merchant.allows(request.remoteAddress?.host) else {
            throw D24Error.unregisteredIP.diagnosed(D24Diagnosis.ipNotAllowed(request.remoteAddress?.host, merchant))
        }
        self.body = body
        self.merchant = merchant
    }

    /// A text field: a JSON string, or (when `numbers`) a number as its literal text; nil when absent
    /// or null; 300 for anything else.
    func text(_ key: String, _ camelCaseName: String, _ label: String, numbers: Bool = true) throws(D24Error) -> String? {
        try Self.text(body[key], numbers: numbers, refused: .invalidParam(camelCaseName, label))
    }

    /// A text field's value: a JSON string, or (when `numbers`) a number as its literal text (real
    /// clients send `amount`, `cashout_id` and `bank_code` both ways); nil when absent or null;
    /// `refused` for anything else.
    static func text(_ value: JSON?, numbers: Bool = true, refused: @autoclosure () -> D24Error) throws(D24Error) -> String? {
        switch value {
        case nil, .null?: nil
        case .string(let value)?: value
        case .number(let value)? where numbers: value
        default: throw refused()
        }
    }

    /// The cashout id: a whole number, as a JSON number or a numeric string.
    func cashoutID() throws(D24Error) -> Int? {
        guard let text = try text("cashout_id", "cashoutId", "Cashout ID") else { return nil }
        guard let id = Int(text), id > 0 else { throw .invalidParam("cashoutId", "Cashout ID") }
        return id
    }

    /// `external_id`: a JSON string, as at creation (``D24Field/takesNumbers``), not blank (creation refuses a blank one).
    func externalID() throws(D24Error) -> String? {
        let externalID = try text("external_id", "externalId", "External ID", numbers: D24Field.externalID.takesNumbers)
        if let externalID, D24Syntax.isBlank(externalID) { throw .invalidParam("externalId", "External ID") }
        return externalID
    }

    /// The merchant's own payout named by `cashout_id` (which decides when both ids are sent) or
    /// `external_id`; another merchant's ids are not found (509). Each id sent is read, so one of
    /// the wrong type is refused even beside the other.
    func payout(in bank: Bank) throws(D24Error) -> Payout {
        let id = try cashoutID(), externalID = try externalID()
        if let id {
            guard let payout = bank.payout(id: id), payout.account == merchant.login else { throw .notFound }
            return payout
        }
        guard let externalID else { throw .invalidParam("cashoutId", "Cashout ID") }
        guard let payout = bank.payout(account: merchant.login, reference: externalID) else { throw .notFound }
        return payout
    }
}

extension D24SignedRequest {
    /// A boolean field: JSON `true`/`false` (or the strings); absent is false.
    func flag(_ key: String, _ camelCaseName: String, _ label: String) throws(D24Error) -> Bool {
        switch body[key] {
        case nil, .null?: false
        case .bool(let value)?: value
        case .string("true")?: true
        case .string("false")?: false
        default: throw .invalidParam(camelCaseName, label)
        }
    }
}
