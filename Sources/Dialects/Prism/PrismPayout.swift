import SandboxBank
import SandboxWire

/// A payout of the PayoutService dialect as its callers see it: the bank's neutral lifecycle in
/// `PayoutEnums.PayoutStatus` names, and the five fields every PayoutService response carries.
enum PrismPayout {
    /// The bank's lifecycle in PayoutService's words, in this one place:
    ///
    /// | bank | PayoutStatus |
    /// |---|---|
    /// | staged | REQUIRES_FULFILLMENT (Stage; Transfer executes it) |
    /// | awaitingDetails | REQUIRES_PAYOUT_METHOD_DATA (CreateLink) |
    /// | pending, onHold | PENDING (not yet sent: Void cancels it) |
    /// | delivered | INITIATED (sent to the processor: too late to Void) |
    /// | completed | SUCCESS |
    /// | rejected | FAILED (refunded) |
    /// | cancelled | CANCELLED (refunded) |
    /// | returned | REVERSED (a late return after SUCCESS, refunded) |
    /// | expired | EXPIRED |
    static func status(_ status: PayoutStatus) -> String {
        switch status {
        case .staged: "REQUIRES_FULFILLMENT"
        case .awaitingDetails: "REQUIRES_PAYOUT_METHOD_DATA"
        case .pending, .onHold: "PENDING"
        case .delivered: "INITIATED"
        case .completed: "SUCCESS"
        case .rejected: "FAILED"
        case .cancelled: "CANCELLED"
        case .returned: "REVERSED"
        case .expired: "EXPIRED"
        }
    }

    /// The HTTP status the simulated connector answers with: 200 for a payout it accepted, 400
    /// for one it declined.
    static let acceptedStatusCode: UInt64 = 200, declinedStatusCode: UInt64 = 400

    /// The payout's fields, by these names: what scenario rules match (`merchant` and `dialect`
    /// are every payout's).
    enum Field {
        /// The `x-connector` named, lowercase.
        static let connector = "connector"
        /// The `x-tenant-id` (default `public`).
        static let tenant = "tenant"
        /// The payout method's type, the member of `payout_method_data` set (`card`, `ach`,
        /// `sepa`, `paypal`...), or the enrolled disburse account's for a `connector_payout_method_id`.
        static let method = "method"
        /// `connector_payout_method_id`, when given.
        static let methodID = "connector_payout_method_id"
        /// The amount in major units ("10.00"): every API's rules compare amounts in major units.
        static let amount = "amount"
        /// The amount's currency (`amount.currency`).
        static let currency = "currency"
        static let destinationCurrency = "destination_currency"
        /// The recipient's name: the method's holder name, else the customer's name (magic values).
        static let recipientName = "recipient_name"
        static let webhookURL = "webhook_url"
        static let priority = "priority"
        /// The `x-request-id` of the Create.
        static let requestID = "request_id"
        /// CreateLink's page for the recipient (`PrismLinks`), and when it expires.
        static let link = "payout_link", linkExpiresAt = "payout_link_expires_at"
        /// The whole request as proto3 JSON: fields the sandbox does not use are kept here; a
        /// Transfer's as `transfer_request`.
        static let request = "request", transferRequest = "transfer_request"

    }

    /// What CreateRecipient answers (its disburse account is enrolled next), and what
    /// EnrollDisburseAccount answers (a Create is next), as Hyperswitch's recipient flows do.
    static let recipientCreated = "REQUIRES_VENDOR_ACCOUNT_CREATION", accountEnrolled = "REQUIRES_CREATION"

    /// A response message (`fullName`, one of the eight RPCs') for `payout`: its merchant
    /// payout id, status, the sandbox's id as `connector_payout_id`, status_code 200, and for a
    /// FAILED or REVERSED payout the bank's reason as the connector's error.
    static func response(_ fullName: String, _ payout: Payout, registry: ProtoRegistry) -> ProtoMessage {
        var response = response(fullName, reference: payout.reference, status: status(payout.status), connectorID: String(payout.id),
                                registry: registry)
        if let failure = failure(payout.status, code: payout.reasonCode, reason: payout.reason) {
            response["error"] = .message(error(code: failure.code, message: failure.message, registry: registry))
        }
        return response
    }

    /// A response message with the four fields a call the connector accepted answers.
    static func response(_ fullName: String, reference: String?, status: String, connectorID: String, registry: ProtoRegistry) -> ProtoMessage {
        var response = registry.message(fullName)
        if let reference { response["merchant_payout_id"] = .string(reference) }
        response["payout_status"] = .string(status)
        response["connector_payout_id"] = .string(connectorID)
        response["status_code"] = .uint(acceptedStatusCode)
        return response
    }

    /// The connector error of a FAILED or REVERSED payout: the bank's code and reason, else
    /// `payout_rejected` or `payout_reversed` and Prism's words; nil for another status.
    static func failure(_ status: PayoutStatus, code: String?, reason: String?) -> (code: String, message: String)? {
        switch status {
        case .rejected: (code ?? "payout_rejected", reason ?? PrismMessage.rejected)
        case .returned: (code ?? "payout_reversed", reason ?? PrismMessage.reversed)
        default: nil
        }
    }

    /// The decline code that answers INELIGIBLE rather than FAILED (the magic name `INELIGIBLE`,
    /// or a scenario's decline with this code).
    static let ineligibleCode = "payout_method_ineligible"

    /// A processor decline inside an OK response, as Prism returns one: FAILED (INELIGIBLE for
    /// `ineligibleCode`), the connector's error and the unified one, and the connector's HTTP status.
    static func declined(_ fullName: String, reference: String?, code: String, message: String, registry: ProtoRegistry) -> ProtoMessage {
        var response = registry.message(fullName)
        if let reference { response["merchant_payout_id"] = .string(reference) }
        response["payout_status"] = .string(code == ineligibleCode ? "INELIGIBLE" : status(.rejected))
        response["error"] = .message(error(code: code, message: message, registry: registry))
        response["status_code"] = .uint(declinedStatusCode)
        return response
    }

    /// `ErrorInfo` with `connector_details {code, message, reason}` and `unified_details {code, message}`.
    static func error(code: String, message: String, registry: ProtoRegistry) -> ProtoMessage {
        var connector = registry.message("types.ConnectorErrorDetails")
        connector["code"] = .string(code)
        connector["message"] = .string(message)
        connector["reason"] = .string(message)
        var unified = registry.message("types.UnifiedErrorDetails")
        unified["code"] = .string(code)
        unified["message"] = .string(message)
        var info = registry.message("types.ErrorInfo")
        info["connector_details"] = .message(connector)
        info["unified_details"] = .message(unified)
        return info
    }
}

/// `Money.minor_amount` in its currency's minor units, as the bank's two-decimal `Money`.
enum PrismAmount {
    /// Currencies without minor units (ISO 4217 exponent 0).
    static let zeroDecimal: Set<String> = ["BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND",
                                           "VUV", "XAF", "XOF", "XPF"]
    /// Currencies with three decimals (exponent 3).
    static let threeDecimal: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]

    /// The largest amount taken: 15 integer digits, as every API's.
    static let maximumMajor: Int64 = 999_999_999_999_999

    /// nil when `minor` is not a positive amount the bank can hold (a fraction of a cent of a
    /// three-decimal currency, or more than 15 digits).
    static func money(minor: Int64, currency: String) -> Money? {
        guard minor > 0 else { return nil }
        let hundredths: Int64
        if zeroDecimal.contains(currency) {
            guard minor <= maximumMajor else { return nil }
            hundredths = minor * 100
        } else if threeDecimal.contains(currency) {
            guard minor % 10 == 0 else { return nil }
            hundredths = minor / 10
        } else {
            hundredths = minor
        }
        guard hundredths / 100 <= maximumMajor else { return nil }
        return Money(hundredths: hundredths)
    }
}
