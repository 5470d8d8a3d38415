import SandboxBank
import SandboxWire
import SandboxSupport

// D24 Cashouts v3 refusals: codes and messages of D24's Cashouts docs (docs.d24.com), "API Codes"; HTTP statuses as the D24
// guide, "Codes", gives them
// (401 for 401/402/302/524; 400 for 502 and KYC; 412 for every other business or validation code).

/// A refusal in the API's own shape: `{"code": N, "message": "..."}`.
struct D24Error: Error, Sendable, Equatable {
    let code: Int
    let message: String
    /// KYC refusals (504) carry a reason and its code.
    var reason: String?
    var reasonCode: Int?
    /// Why authentication failed, beside the answer (never sent).
    var diagnosis: Diagnosis?

    var httpStatus: Int {
        switch code {
        case 401, 402, 302, 524: 401
        case 502, 504: 400
        default: 412
        }
    }

    /// What it answers: `{"code": N, "message": "..."}`, with a KYC refusal's reason; the OpenAPI
    /// document's examples are these bodies (D24OpenAPI).
    var body: JSON {
        var body: [String: JSON] = ["code": .number(code), "message": .string(message)]
        if let reason { body["reason"] = .string(reason) }
        if let reasonCode { body["reason_code"] = .number(reasonCode) }
        return .object(body)
    }

    var response: HTTPResponse {
        var response = HTTPResponse.json(body, status: httpStatus)
        response.diagnosis = diagnosis
        return response
    }

    /// This refusal with why it was made.
    func diagnosed(_ diagnosis: Diagnosis) -> D24Error {
        var error = self
        error.diagnosis = diagnosis
        return error
    }

    /// The messages of D24's "API Codes" page for codes a scenario may decline with.
    static let standardMessages: [Int: String] = [
        300: "Invalid params", 302: "Invalid control string", 303: "Invalid bank code", 401: "Invalid credentials",
        402: "Unregistered IP address (Go to API Access to whitelist the IP in the Merchant Panel)",
        503: "The transaction cannot be completed due to regulatory limits applied to the beneficiary account.",
        504: "User unauthorized due to cadastral situation.", 508: "Limit exceeded: TRANSACTION", 511: "External ID already used",
        514: "Insufficient funds", 515: "Invalid user status: BLOCKED", 518: "Country not available",
        519: "Merchant not enabled. Contact your Account Manager", 524: "Invalid Credentials. Contact integration@d24.com",
        525: "Close loop rejection", 526: "Invalid currency", 537: "Could not make the cashout. Contact integration@d24.com",
        538: "Invalid account status: BLACKLISTED",
        539: "Payout method unavailable. The country and/or bank selected is not available. Please check with your Account Manager",
        540: "Beneficiary email or phone is required", 541: "email already used by another beneficiary",
        542: "phone already used by another beneficiary", 543: "must be a valid phone number", 702: "Could not cancel cashout",
        703: "Could not make the cashout. Contact integration@d24.com",
    ]

    static let invalidCredentials = standard(401)
    static let invalidSignature = standard(302)
    static let unregisteredIP = standard(402)
    static let malformedBody = D24Error(code: 502, message: "Invalid request body - Please check that the JSON is well formatted")
    static let notFound = D24Error(code: 509, message: "Cashout not found with this ID")
    static let invalidTransition = D24Error(code: 510, message: "Invalid status transition")
    static let duplicateExternalID = standard(511)
    static let insufficientFunds = standard(514)

    /// The refusal of `code` with its message of D24's "API Codes" page (`standardMessages`).
    private static func standard(_ code: Int) -> D24Error {
        D24Error(code: code, message: standardMessages[code] ?? "")
    }

    /// A KYC decline (504) with its reason, as a scenario's decline gives them.
    static func kycDeclined(reason: String, reasonCode: Int) -> D24Error {
        D24Error(code: 504, message: standard(504).message, reason: reason, reasonCode: reasonCode)
    }

    static func limitExceeded(_ which: String) -> D24Error {
        D24Error(code: 508, message: "Limit exceeded: \(which)")
    }

    static func statusNotSupported(_ status: String) -> D24Error {
        D24Error(code: 521, message: "Status \(status) not supported for this type of request")
    }

    static func minimumAmount(currency: String, amount: String) -> D24Error {
        D24Error(code: 533, message: "Invalid Amount. The minimum amount is \(currency) \(amount) or equivalent in USD")
    }

    /// Code 300 for a field outside the create request's field table (`cashoutId`, `status`...).
    static func invalidParam(_ camelCaseName: String, _ label: String) -> D24Error {
        D24Error(code: 300, message: "\(camelCaseName): Invalid or missing \(label)")
    }

    init(code: Int, message: String, reason: String? = nil, reasonCode: Int? = nil) {
        self.code = code
        self.message = message
        self.reason = reason
        self.reasonCode = reasonCode
    }

    init(_ error: D24FieldError) {
        self.init(code: error.code, message: error.message)
    }
}

extension D24Error {
    /// The bank's refusal in D24 terms.
    init(_ refusal: PayoutRefusal) {
        switch refusal {
        case .unknownAccount: self = .invalidCredentials
        case .duplicateReference: self = .duplicateExternalID
        case .unsupportedCurrency: self.init(D24FieldError.invalidCurrency)
        case .belowMinimum(let currency, let amount): self = .minimumAmount(currency: currency, amount: amount.description)
        case .limitExceeded(let limit): self = .limitExceeded(Self.word(limit))
        case .insufficientFunds: self = .insufficientFunds
        case .declined(let decline):
            let code = Int(decline.code) ?? 537
            self.init(code: code, message: decline.message ?? D24Error.standardMessages[code] ?? "Could not make the cashout",
                      reason: decline.details["reason"], reasonCode: decline.details["reason_code"].flatMap { Int($0) })
        case .notExecutable: self = .invalidTransition  // D24 stages nothing
        }
    }

    /// The word the 508 message of D24's "API Codes" page names each limit with.
    static func word(_ limit: PayoutRefusal.Limit) -> String {
        switch limit {
        case .transaction: "TRANSACTION"
        case .daily: "DAILY"
        case .monthly: "MONTHLY"
        }
    }
}
