import SandboxBank
import SandboxWire
import SandboxSupport

// Stage → Transfer and CreateLink: payouts made without a debit, executed later (PrismAPI).

extension PrismAPI {
    /// `Stage`: a payout staged without a debit, REQUIRES_FULFILLMENT, from `amount` (its
    /// recipient's name from `customer`). Stage has no payout id of the merchant's: its
    /// `merchant_quote_id` is the payout's reference, answered as `merchant_payout_id`, by which
    /// Transfer and Get find it, and a second Stage with the same quote id answers the first.
    func stage(_ request: ProtoMessage, _ caller: PrismCaller) throws(GRPCStatus) -> ProtoMessage {
        let output = "types.PayoutServiceStageResponse"
        let reference = Self.nonEmpty(request.string("merchant_quote_id"))
        if let reference, let existing = bank.payout(account: caller.merchant.id, reference: reference) {
            return PrismPayout.response(output, existing, registry: registry)
        }
        let (currency, amount) = try Self.amount(request)
        var fields = Self.fields(request, caller, currency: currency, amount: amount)
        fields[PrismPayout.Field.recipientName] = Self.recipientName(request)
        return try open(output, PayoutRequest(dialect: PrismDialect.name, account: caller.merchant.id, reference: reference, currency: currency,
                                              amount: amount, status: .staged, fields: fields), reference: reference)
    }

    /// Creates `payout` (staged, or awaiting details) without a debit: its response, or the
    /// decline inside an OK response.
    func open(_ output: String, _ payout: PayoutRequest, reference: String?) throws(GRPCStatus) -> ProtoMessage {
        do throws(PayoutRefusal) {
            return PrismPayout.response(output, try bank.createPayout(payout), registry: registry)
        } catch {
            if case .duplicateReference = error, let reference, let existing = bank.payout(account: payout.account, reference: reference) {
                return PrismPayout.response(output, existing, registry: registry)
            }
            let (code, message) = try Self.decline(error, currency: payout.currency)
            return PrismPayout.declined(output, reference: reference, code: code, message: message, registry: registry)
        }
    }

    /// `Transfer`: executes a staged payout (named by `connector_payout_id`, else
    /// `connector_quote_id`, else `merchant_payout_id`: the Stage's ids): the debit, PENDING, and
    /// the bank's timeline, chosen again now that the payout has the Transfer's method, recipient
    /// and `webhook_url` (where its notifications go), and its request as `transfer_request`.
    /// NOT_FOUND for an unknown payout or `connector_payout_method_id`; FAILED_PRECONDITION for one that is not staged
    /// (transferred already, cancelled, or awaiting its recipient's details); a balance or limit
    /// that refuses the debit is a decline inside an OK response, and the payout stays staged.
    func transfer(_ request: ProtoMessage, _ caller: PrismCaller) throws(GRPCStatus) -> ProtoMessage {
        let output = "types.PayoutServiceTransferResponse"
        // The quote id is the Stage's connector_payout_id, or (a client's own) its merchant_quote_id.
        var lookup = request
        if request.string("connector_payout_id").isEmpty, let quote = Self.nonEmpty(request.string("connector_quote_id")) {
            if Int(quote) != nil {
                lookup["connector_payout_id"] = .string(quote)
            } else if request.string("merchant_payout_id").isEmpty {
                lookup["merchant_payout_id"] = .string(quote)
            }
        }
        let staged = try payout(lookup, caller)
        guard staged.status == .staged else {
            throw GRPCStatus(.failedPrecondition, PrismMessage.notStaged(PrismPayout.status(staged.status)))
        }
        var details = PayoutDetails(fields: try Self.destination(request, caller))
        details.callbackURL = details.fields[PrismPayout.Field.webhookURL]
        details.fields[PrismPayout.Field.transferRequest] = request.json().serializedString()
        let executed: Payout?
        do throws(PayoutRefusal) {
            executed = try bank.execute(payoutID: staged.id, by: "merchant", adding: details)
        } catch {
            if case .notExecutable(let status) = error {
                throw GRPCStatus(.failedPrecondition, PrismMessage.notStaged(PrismPayout.status(status)))
            }
            let (code, message) = try Self.decline(error, currency: staged.currency)
            var declined = PrismPayout.declined(output, reference: staged.reference, code: code, message: message, registry: registry)
            declined["payout_status"] = .string(PrismPayout.status(staged.status))
            declined["connector_payout_id"] = .string(String(staged.id))
            return declined
        }
        guard let executed else { throw GRPCStatus(.notFound, PrismMessage.payoutNotFound(String(staged.id))) }
        return PrismPayout.response(output, executed, registry: registry)
    }

    // MARK: CreateLink

    /// `CreateLink`: a payout awaiting its recipient's details, without a debit
    /// (REQUIRES_PAYOUT_METHOD_DATA), from `amount`, with a page the sandbox serves
    /// (`PrismLinks`) where the recipient enters them; the payout then goes on as a Create's
    /// (debit, PENDING, the timeline), or is EXPIRED after `PrismLinks.lifetime`. Idempotent on
    /// `merchant_payout_id` as Create is.
    ///
    /// Where the link goes: Prism's CreateLink response has only the five fields every response
    /// has, so the sandbox answers the page's URL in the response header metadata `x-payout-link`
    /// (gRPC clients read it as initial metadata, e.g. grpcurl `-v`, Python `call.initial_metadata()`),
    /// and records it on the payout as the field `payout_link` (with `payout_link_expires_at`),
    /// which the admin API's payout record shows (`GET /sandbox/cashouts/{id}`).
    func createLink(_ request: ProtoMessage, _ caller: PrismCaller, host: String?) throws(GRPCStatus) -> (ProtoMessage, [(String, String)]) {
        let output = "types.PayoutServiceCreateLinkResponse"
        let reference = Self.nonEmpty(request.string("merchant_payout_id"))
        if let reference, let existing = bank.payout(account: caller.merchant.id, reference: reference) {
            let link = existing.fields[PrismPayout.Field.link].map { [(PrismLinks.header, $0)] } ?? []
            return (PrismPayout.response(output, existing, registry: registry), link)
        }
        let (currency, amount) = try Self.amount(request)
        typealias Field = PrismPayout.Field
        let url = PrismLinks.url(host: host, token: PrismLinks.newToken())
        var fields = Self.fields(request, caller, currency: currency, amount: amount)
        fields[Field.link] = url
        fields[Field.linkExpiresAt] = bank.clock.now.adding(PrismLinks.lifetime).iso8601
        fields[Field.method] = request.message("payout_method_data")?.oneofCase("payout_method_data")
        fields[Field.recipientName] = Self.recipientName(request)
        fields[Field.webhookURL] = Self.nonEmpty(request.string("webhook_url"))
        let response = try open(output, PayoutRequest(dialect: PrismDialect.name, account: caller.merchant.id, reference: reference,
                                                      currency: currency, amount: amount, status: .awaitingDetails,
                                                      callbackURL: fields[Field.webhookURL], fields: fields, expiresAfter: PrismLinks.lifetime),
                                reference: reference)
        return (response, response.string("connector_payout_id").isEmpty ? [] : [(PrismLinks.header, url)])
    }
}
