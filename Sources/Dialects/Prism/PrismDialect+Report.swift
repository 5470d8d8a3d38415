package import SandboxBank
package import SandboxContract
package import SandboxSupport
import SandboxWire

// What the integration report reads in PayoutService calls, and the checks that apply: its
// notifications carry the status, so an app that accepts one (or calls Get) has learnt it.

extension PrismDialect: ReportingDialect {
    static let reportTerms = ReportTerms(statusQuery: PrismOperation.get.grpcMethod ?? "", reference: "merchant_payout_id",
                                         notificationURL: "your webhook_url",
                                         notificationSignature: "the \(PrismWebhook.signatureHeader) header",
                                         credentials: "x-merchant-id, x-auth and the connector's keys in the call's metadata")

    package var integrationChecks: [IntegrationCheck] { integrationChecks(.standard) }

    package func integrationChecks(_ thresholds: ReportThresholds) -> [IntegrationCheck] {
        IntegrationChecks.payoutAPI(Self.reportTerms, followUp: .acknowledgement, thresholds: thresholds)
    }

    /// A ledger names a payout by its `merchant_payout_id`.
    package var ledgerTerms: LedgerTerms? { LedgerTerms(referenceKey: "merchant_payout_id") { $0.reference } }

    /// The merchant is `x-merchant-id` (`DefaultMerchantId` without it); Create and Transfer pay
    /// `amount` to the enrolled method, or to the method data given; Get names a payout. A message
    /// is read by its proto3 JSON names or, as Connect clients may send them, its field names.
    package func facts(of call: OperationCall, bank: Bank) -> RequestFacts? {
        let (member, text) = (Self.member, Self.text)
        let body = call.body
        let merchant = call.headers[PrismCaller.Header.merchantID].flatMap { $0.isEmpty ? nil : $0 } ?? PrismMerchant.defaultID
        var facts = RequestFacts(account: merchant, reference: text(body, "merchant_payout_id"))
        switch call.operation.role {
        case .create:
            let money = member(body, "amount")
            let amount = [text(money, "currency"), text(money, "minor_amount")].map { $0 ?? "" }.joined(separator: " ")
            let method = text(body, "connector_payout_method_id") ?? member(body, "payout_method_data")?.serializedString() ?? ""
            facts.action = .create(beneficiary: method, amount: amount)
            for name in ["amount", "connector_payout_method_id", "payout_method_data"] { facts.content[name] = member(body, name) }
        case .statusQuery:
            facts.action = .statusQuery
            facts.payoutID = text(body, "connector_payout_id").flatMap { Int($0) }
        default:
            break
        }
        return facts
    }

    /// A message's field `name`, by its proto3 JSON name or its field name.
    static func member(_ json: JSON?, _ name: String) -> JSON? {
        json?[FieldSchema.jsonName(name)] ?? json?[name]
    }

    /// A message's field `name` as text: a string, or a number as sent.
    static func text(_ json: JSON?, _ name: String) -> String? { member(json, name).flatMap { $0.stringValue ?? $0.numberText } }

    /// A create's answer names its payout (`connector_payout_id`); any answer's words are the
    /// payout's status it gave (`SUCCESS`).
    package func facts(_ facts: RequestFacts, answered answer: JSON, operation: APIOperation) -> RequestFacts {
        var facts = facts
        if operation.role == .create { facts.payoutID = Self.text(answer, "connector_payout_id").flatMap { Int($0) } }
        facts.answerWords = Self.text(answer, "payout_status")
        return facts
    }
}
