import SandboxBank
import SandboxWire

// CreateRecipient and EnrollDisburseAccount: the ids a later Create pays out to (PrismAPI, PrismRecipients).

extension PrismAPI {
    /// `CreateRecipient`: a recipient of later payouts (its name from the method's holder, the
    /// customer or the billing address, its `recipient_type`), kept on the merchant
    /// (`PrismRecipients`). Answers its id, `rcp_000001`, as `connector_payout_id`, and
    /// REQUIRES_VENDOR_ACCOUNT_CREATION: its disburse account is enrolled next. No money moves;
    /// `amount` is not needed.
    func createRecipient(_ request: ProtoMessage, _ caller: PrismCaller) throws(GRPCStatus) -> ProtoMessage {
        let recipient = PrismRecipients.Recipient(
            name: Self.recipientName(request),
            type: request.enumName("recipient_type").flatMap { $0 == "PAYOUT_RECIPIENT_TYPE_UNSPECIFIED" ? nil : $0 },
            method: request.message("payout_method_data")?.oneofCase("payout_method_data"))
        let id = try recipients.add(recipient, merchant: caller.merchant.id)
        return PrismPayout.response("types.PayoutServiceCreateRecipientResponse", reference: Self.nonEmpty(request.string("merchant_payout_id")),
                                    status: PrismPayout.recipientCreated, connectorID: id, registry: registry)
    }

    /// The field EnrollDisburseAccount requires (the OpenAPI document's `required`).
    static let payoutMethodField = "payout_method_data"

    /// `EnrollDisburseAccount`: the account a recipient is paid to (`payout_method_data`, needed),
    /// for the recipient named by `customer.connector_customer_id` when given. Answers its id,
    /// `pm_000001`, as `connector_payout_id`, and REQUIRES_CREATION: a Create with
    /// `connector_payout_method_id` set to it pays out to this account.
    func enrollDisburseAccount(_ request: ProtoMessage, _ caller: PrismCaller) throws(GRPCStatus) -> ProtoMessage {
        guard let method = request.message(Self.payoutMethodField)?.oneofCase(Self.payoutMethodField) else {
            throw GRPCStatus(.invalidArgument, PrismMessage.missing(Self.payoutMethodField))
        }
        let recipientID = request.message("customer").flatMap { Self.text($0, "connector_customer_id") }
        let recipient = recipientID.flatMap { PrismRecipients.recipient($0, of: caller.merchant) }
        let account = PrismRecipients.DisburseAccount(method: method, recipientName: Self.recipientName(request) ?? recipient?.name,
                                                      recipient: recipientID)
        let id = try recipients.enroll(account, merchant: caller.merchant.id)
        return PrismPayout.response("types.PayoutServiceEnrollDisburseAccountResponse",
                                    reference: Self.nonEmpty(request.string("merchant_payout_id")),
                                    status: PrismPayout.accountEnrolled, connectorID: id, registry: registry)
    }

    var recipients: PrismRecipients { PrismRecipients(bank: bank) }
}
