package import SandboxBank
package import SandboxContract
package import SandboxSupport

// What the integration report reads in D24 requests, and the checks that apply: D24's notifications
// carry no status (D24's page "Notifications"), so an app learns a change only by asking `POST /v3/cashout/status`.

extension D24Dialect: ReportingDialect {
    static let reportTerms = ReportTerms(statusQuery: D24Operation.status.route, reference: "external_id",
                                         notificationURL: "your notification_url", notificationSignature: "the control field",
                                         credentials: "login, pass and Payload-Signature")
    package var integrationChecks: [IntegrationCheck] { integrationChecks(.standard) }

    /// An app has `followUpWithin` after acknowledging a notification to ask for the status.
    package func integrationChecks(_ thresholds: ReportThresholds) -> [IntegrationCheck] {
        IntegrationChecks.payoutAPI(Self.reportTerms, followUp: .statusQuery(within: thresholds.followUpWithin), thresholds: thresholds)
    }

    /// A ledger names a cashout by the merchant's `external_id`.
    package var ledgerTerms: LedgerTerms? { LedgerTerms(referenceKey: "external_id") { $0.reference } }

    /// What a create pays to whom: its amount, and the beneficiary as `duplicate_after_lost_response` knows one.
    static let createContent: Set<String> = ["country", "currency", "amount", "document_id", "bank_code", "bank_account"]

    /// The merchant is the body's `login`; a create pays `document_id`'s `bank_account`
    /// `amount`; a status query names `cashout_id` or `external_id`, and so do an update of the
    /// status (`PUT /v3/cashout/status`: a hold, a release) and a cancel.
    package func facts(of call: OperationCall, bank: Bank) -> RequestFacts? {
        let text = call.text
        var facts = RequestFacts(account: text("login"), reference: text("external_id"))
        switch call.operation.role {
        case .create:
            let amount = text("amount").map { Money($0)?.description ?? $0 } ?? ""
            let beneficiary = [text("country"), text("document_id"), text("bank_code"), text("bank_account")]
                .map { $0 ?? "" }.joined(separator: "/")
            facts.action = .create(beneficiary: beneficiary, amount: amount)
            facts.content = (call.body?.objectValue ?? [:]).filter { Self.createContent.contains($0.key) }
        case .statusQuery:
            facts.action = .statusQuery
            facts.payoutID = text("cashout_id").flatMap { Int($0) }
        default:
            facts.payoutID = text("cashout_id").flatMap { Int($0) }
        }
        return facts
    }

    /// A create's answer names its cashout (`cashout_id`); any answer's words are its status or its error code.
    package func facts(_ facts: RequestFacts, answered answer: JSON, operation: APIOperation) -> RequestFacts {
        var facts = facts
        if operation.role == .create {
            facts.payoutID = answer["cashout_id"].flatMap { $0.stringValue ?? $0.numberText }.flatMap { Int($0) }
        }
        facts.answerWords = Self.answerWords(answer)
        return facts
    }

    /// `Delivered`, `Rejected 808` (a status answer's description and rejection code), `code 302` (an error's).
    static func answerWords(_ answer: JSON) -> String? {
        func number(_ key: String) -> String? { answer[key].flatMap { $0.numberText ?? $0.stringValue } }
        if let word = answer["cashout_status_description"]?.stringValue {
            return word + (number("rejection_code").map { " \($0)" } ?? "")
        }
        return number("code").map { "code \($0)" }
    }
}
