import CashoutSandbox
import SandboxBank
import SandboxPrism

// PayoutService's payouts in a Swift team's tests:
//
//     let sandbox = try await Sandbox.start()
//     // ... the client under test calls types.PayoutService/Create (gRPC or Connect JSON) with
//     //     merchant_payout_id "order-1" and a webhook_url its own server answers ...
//     await sandbox.advance(by: .seconds(15))
//     #expect(sandbox.payoutService.payout(merchantPayoutID: "order-1")?.apiStatus == "SUCCESS")
//     let webhook = try #require(sandbox.payoutService.webhooks(to: "order-1").last)
//     try sandbox.payoutService.verifyWebhook(body: Array(webhook.body.utf8), headers: webhook.headers)

extension Sandbox {
    /// The PayoutService side of the sandbox: its merchants' payouts, webhooks, signatures and
    /// balances, e.g. `sandbox.payoutService.payout(merchantPayoutID: "order-1")?.apiStatus`.
    public var payoutService: PayoutServiceMerchants { PayoutServiceMerchants(sandbox: self) }
}

/// PayoutService's merchants of one sandbox, as tests read them: each is the `x-merchant-id` its
/// calls name, with an API key (`prism_merchants` in a scenario file).
///
/// ```swift
/// let payouts = sandbox.payoutService
/// #expect(payouts.payout(merchantPayoutID: "order-1")?.status == .completed)   // SUCCESS
/// #expect(payouts.balance() == Money("999990.00"))
/// ```
public struct PayoutServiceMerchants: Sendable {
    let sandbox: Sandbox

    /// The merchant every sandbox has unless a scenario replaces it, and the one a call without
    /// `x-merchant-id` is for: `DefaultMerchantId`, API key `sandbox_prism_key`.
    public static let defaultMerchantID = PrismMerchant.defaultID

    /// A merchant's payout by the `merchant_payout_id` its Create gave (the default merchant's
    /// unless told); nil when it has none of that id. `externalID` is that id, `id` the
    /// `connector_payout_id`, `apiStatus` the `payout_status` (`SUCCESS`, `REVERSED`...):
    ///
    /// ```swift
    /// let payout = try #require(sandbox.payoutService.payout(merchantPayoutID: "order-1"))
    /// #expect(payout.apiStatus == "SUCCESS" && payout.amount == Money("10.00"))
    /// ```
    ///
    /// - Parameters:
    ///   - merchantPayoutID: The `merchant_payout_id` of the Create.
    ///   - merchant: The merchant's `x-merchant-id`; ``defaultMerchantID`` (`DefaultMerchantId`) by default.
    /// - Returns: The payout; nil when that merchant has none of that id, or is no PayoutService merchant.
    public func payout(merchantPayoutID: String, merchant: String = defaultMerchantID) -> Cashout? {
        guard owns(merchant) else { return nil }
        return sandbox.bank.payout(account: merchant, reference: merchantPayoutID).map(sandbox.typed)
    }

    /// A merchant's payouts in creation order (staged ones and those awaiting a recipient's
    /// details included), e.g. `sandbox.payoutService.payouts().map(\.apiStatus)`.
    ///
    /// - Parameters:
    ///   - merchant: The merchant's `x-merchant-id`; ``defaultMerchantID`` (`DefaultMerchantId`) by default.
    /// - Returns: The payouts, oldest first; empty for an id that is no PayoutService merchant.
    public func payouts(of merchant: String = defaultMerchantID) -> [Cashout] {
        guard owns(merchant) else { return [] }
        return sandbox.bank.payouts(account: merchant).map(sandbox.typed)
    }

    /// The webhooks of a payout, one per status change after its Create's answer, oldest first,
    /// each as the sandbox sent it (`body`, `headers` with `X-Webhook-Signature`) with its
    /// delivery attempts; none for an unknown payout:
    ///
    /// ```swift
    /// let hooks = sandbox.payoutService.webhooks(to: "order-1")
    /// #expect(hooks.map { $0.form["payout_status"] } == ["INITIATED", "SUCCESS"])
    /// ```
    ///
    /// - Parameters:
    ///   - merchantPayoutID: The payout's `merchant_payout_id`.
    ///   - merchant: The merchant's `x-merchant-id`; ``defaultMerchantID`` (`DefaultMerchantId`) by default.
    /// - Returns: The webhooks, oldest first; empty for an unknown payout or merchant.
    public func webhooks(to merchantPayoutID: String, merchant: String = defaultMerchantID) -> [Webhook] {
        guard owns(merchant), let payout = sandbox.bank.payout(account: merchant, reference: merchantPayoutID) else { return [] }
        return sandbox.webhooks(of: payout)
    }

    /// A merchant's available balance, in its settlement currency (USD unless its scenario
    /// says otherwise); nil when there is no PayoutService merchant of that id:
    /// `#expect(sandbox.payoutService.balance() == Money("1000000.00"))`.
    ///
    /// - Parameters:
    ///   - merchant: The merchant's `x-merchant-id`; ``defaultMerchantID`` (`DefaultMerchantId`) by default.
    /// - Returns: The balance; nil for an id that is no PayoutService merchant.
    public func balance(of merchant: String = defaultMerchantID) -> Money? {
        owns(merchant) ? sandbox.bank.account(id: merchant)?.balance : nil
    }

    /// A merchant's balance movements (a debit per payout, a refund per failure or reversal),
    /// oldest first: `sandbox.payoutService.ledger().map(\.kind) == [.debit, .refund]`.
    ///
    /// - Parameters:
    ///   - merchant: The merchant's `x-merchant-id`; ``defaultMerchantID`` (`DefaultMerchantId`) by default.
    /// - Returns: The entries, oldest first (amounts negative for debits); empty for an id that is no PayoutService merchant.
    public func ledger(of merchant: String = defaultMerchantID) -> [LedgerEntry] {
        owns(merchant) ? sandbox.bank.ledger(account: merchant) : []
    }

    /// The `X-Webhook-Signature` the sandbox puts on a webhook with this body for `merchant`:
    /// `sha256=` and the lowercase hex HMAC-SHA256 of the exact bytes, keyed with the merchant's
    /// API key. Throws ``CashoutSandboxTesting/UnknownMerchant`` for an id that is no PayoutService merchant:
    ///
    /// ```swift
    /// let body = Array(#"{"event_id":"evt_1"}"#.utf8)
    /// request.setValue(try sandbox.payoutService.signature(for: body), forHTTPHeaderField: "X-Webhook-Signature")
    /// ```
    ///
    /// - Parameters:
    ///   - body: The webhook body's exact bytes.
    ///   - merchant: The merchant's `x-merchant-id`; ``defaultMerchantID`` (`DefaultMerchantId`) by default.
    /// - Returns: The header's value: `sha256=` and 64 lowercase hex digits.
    /// - Throws: ``CashoutSandboxTesting/UnknownMerchant`` for an id that is no PayoutService merchant.
    public func signature(for body: some Collection<UInt8>, merchant: String = defaultMerchantID) throws(UnknownMerchant) -> String {
        Self.signature(for: body, apiKey: try apiKey(merchant))
    }

    /// The `X-Webhook-Signature` of a body signed with `apiKey`:
    /// `PayoutServiceMerchants.signature(for: Array("{}".utf8), apiKey: "sandbox_prism_key")`.
    ///
    /// - Parameters:
    ///   - body: The webhook body's exact bytes.
    ///   - apiKey: The merchant's API key (`sandbox_prism_key` for the default merchant).
    /// - Returns: The header's value: `sha256=` and 64 lowercase hex digits.
    public static func signature(for body: some Collection<UInt8>, apiKey: String) -> String {
        PrismWebhook.signature(of: body, apiKey: apiKey)
    }

    /// Checks a webhook as a merchant's server receives it: `headers` (any case) must carry
    /// `X-Webhook-Signature` with the sandbox's signature of `body`'s exact bytes for `merchant`.
    /// Throws ``CashoutSandboxTesting/WebhookVerificationFailure`` saying what is wrong (an unknown merchant, no
    /// header, another signature, with the one expected); what a receiver under test should
    /// refuse, this refuses:
    ///
    /// ```swift
    /// let webhook = try #require(sandbox.payoutService.webhooks(to: "order-1").first)
    /// try sandbox.payoutService.verifyWebhook(body: Array(webhook.body.utf8), headers: webhook.headers)
    /// ```
    ///
    /// - Parameters:
    ///   - body: The body's exact bytes, as received.
    ///   - headers: The request's header fields, by name in any case.
    ///   - merchant: The merchant whose API key signed it, by `x-merchant-id`; ``defaultMerchantID`` (`DefaultMerchantId`) by default.
    /// - Throws: ``CashoutSandboxTesting/WebhookVerificationFailure``, its `reason` `.unknownMerchant`, `.missingSignature` or
    ///   `.wrongSignature` (with the signature expected).
    public func verifyWebhook(body: some Collection<UInt8>, headers: [String: String],
                              merchant: String = defaultMerchantID) throws(WebhookVerificationFailure) {
        let header = PrismWebhook.signatureHeader
        guard let apiKey = try? apiKey(merchant) else { throw WebhookVerificationFailure(merchant: merchant, reason: .unknownMerchant) }
        guard let received = headers.first(where: { $0.key.lowercased() == header.lowercased() })?.value else {
            throw WebhookVerificationFailure(merchant: merchant, reason: .missingSignature)
        }
        let expected = Self.signature(for: body, apiKey: apiKey)
        guard received == expected else {
            throw WebhookVerificationFailure(merchant: merchant, reason: .wrongSignature(received: received, expected: expected))
        }
    }

    /// Whether `id` is a PayoutService merchant's (another API's account of that id is not).
    private func owns(_ id: String) -> Bool {
        sandbox.bank.account(id: id).flatMap(PrismMerchant.init(owned:)) != nil
    }

    private func apiKey(_ id: String) throws(UnknownMerchant) -> String {
        guard let merchant = sandbox.bank.account(id: id).flatMap(PrismMerchant.init(owned:)) else { throw UnknownMerchant(login: id) }
        return merchant.apiKey
    }
}

/// A PayoutService webhook that is not the sandbox's: why, in words (`description`) and as a
/// value (`reason`).
///
/// ```swift
/// #expect(throws: WebhookVerificationFailure(merchant: "DefaultMerchantId", reason: .missingSignature)) {
///     try sandbox.payoutService.verifyWebhook(body: Array(body.utf8), headers: [:])
/// }
/// ```
public struct WebhookVerificationFailure: Error, Equatable, CustomStringConvertible {
    /// What is wrong with it.
    public enum Reason: Sendable, Equatable {
        /// The merchant named is no PayoutService merchant of this sandbox.
        case unknownMerchant
        /// The headers have no `X-Webhook-Signature`.
        case missingSignature
        /// The header is not the merchant's signature of the body: `received` is the header's value, `expected` the
        /// signature the sandbox makes of that body (``PayoutServiceMerchants/signature(for:merchant:)``).
        case wrongSignature(received: String, expected: String)
    }

    /// The merchant whose key the body was checked with.
    public let merchant: String
    /// What is wrong with the webhook.
    public let reason: Reason

    /// A failure as ``PayoutServiceMerchants/verifyWebhook(body:headers:merchant:)`` throws it, to compare with in `#expect(throws:)`.
    ///
    /// - Parameters:
    ///   - merchant: The merchant whose key the body was checked with.
    ///   - reason: What is wrong with the webhook.
    public init(merchant: String, reason: Reason) {
        self.merchant = merchant
        self.reason = reason
    }

    /// The failure in a sentence, naming the header and, for a wrong signature, both values.
    public var description: String {
        let header = PrismWebhook.signatureHeader
        return switch reason {
        case .unknownMerchant: "no PayoutService merchant \"\(merchant)\" in this sandbox"
        case .missingSignature: "no \(header) header"
        case .wrongSignature(let received, let expected):
            "\(header) \(received) is not merchant \(merchant)'s signature of the body: expected \(expected)"
        }
    }
}
