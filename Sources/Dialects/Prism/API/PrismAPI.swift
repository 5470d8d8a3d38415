import SandboxBank
import SandboxContract
import SandboxWire
import Synchronization
import SandboxSupport

// Hyperswitch Prism's `types.PayoutService` over gRPC (Protos/payouts.proto, and the PayoutService guide): every call
// authenticates from its metadata (`PrismCaller`), echoes `x-request-id` in its response headers
// (or trailers, for a refused call), and answers the five response fields (`PrismPayout`).
// The eight methods are PrismOperation's.

/// Serves the PayoutService dialect's gRPC methods over a `Bank`.
///
/// ```swift
/// var grpc = GRPCServer(files: PrismProtos.files)
/// PrismAPI(bank: bank, registry: grpc.registry).register(in: &grpc)
/// ```
struct PrismAPI: Sendable {
    let bank: Bank
    let registry: ProtoRegistry

    func register(in grpc: inout GRPCServer) {
        let api = self
        grpc.handle(PrismOperation.create) { request, context in api.call(context) { caller throws(GRPCStatus) in try api.create(request, caller) } }
        grpc.handle(PrismOperation.get) { request, context in api.call(context) { caller throws(GRPCStatus) in try api.get(request, caller) } }
        grpc.handle(PrismOperation.void) { request, context in api.call(context) { caller throws(GRPCStatus) in try api.void(request, caller) } }
        grpc.handle(PrismOperation.stage) { request, context in api.call(context) { caller throws(GRPCStatus) in try api.stage(request, caller) } }
        grpc.handle(PrismOperation.createLink) { request, context in
            api.call(context) { caller throws(GRPCStatus) in try api.createLink(request, caller, host: context.request.headers["host"]) }
        }
        grpc.handle(PrismOperation.transfer) { request, context in
            api.call(context) { caller throws(GRPCStatus) in try api.transfer(request, caller) }
        }
        grpc.handle(PrismOperation.createRecipient) { request, context in
            api.call(context) { caller throws(GRPCStatus) in try api.createRecipient(request, caller) }
        }
        grpc.handle(PrismOperation.enrollDisburseAccount) { request, context in
            api.call(context) { caller throws(GRPCStatus) in try api.enrollDisburseAccount(request, caller) }
        }
    }

    /// Authenticates the call and runs `body`; the request id goes back either way.
    private func call(_ context: GRPCCallContext, _ body: (PrismCaller) throws(GRPCStatus) -> ProtoMessage) -> GRPCReply {
        call(context) { caller throws(GRPCStatus) -> (ProtoMessage, [(String, String)]) in (try body(caller), []) }
    }

    /// `call`, for a method that answers header metadata of its own besides the request id.
    private func call(_ context: GRPCCallContext, _ body: (PrismCaller) throws(GRPCStatus) -> (ProtoMessage, [(String, String)])) -> GRPCReply {
        let requestID = PrismCaller.requestID(context.metadata, generate: Self.newRequestID)
        let caller: PrismCaller
        do throws(PrismCaller.Refusal) {
            caller = try PrismCaller(context.metadata, bank: bank, requestID: requestID)
        } catch {
            var reply = GRPCReply.failure(error.status, trailers: [PrismCaller.Header.requestID: requestID])
            reply.diagnosis = error.diagnosis
            return reply
        }
        do throws(GRPCStatus) {
            let (message, extra) = try body(caller)
            var headers: GRPCMetadata = [PrismCaller.Header.requestID: requestID]
            for (name, value) in extra { headers.add(name, value) }
            return .message(message, headers: headers)
        } catch {
            return .failure(error, trailers: [PrismCaller.Header.requestID: requestID])
        }
    }

    /// A request id for a call that brings none: `req_` and 16 hex digits, each new (SplitMix64 of
    /// a counter from a random start: no system call per id).
    static func newRequestID() -> String {
        var mix = SplitMix64(seed: requestCounter.add(1, ordering: .relaxed).newValue)
        let hex = String(mix.next(), radix: 16)
        return "req_" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    private static let requestCounter = Atomic<UInt64>(UInt64.random(in: 0 ... .max))

    // MARK: Create

    /// `Create`: pays out now (debit) from `amount` and a method (`payout_method_data` or
    /// `connector_payout_method_id`); PENDING, then the bank's timeline. A second Create with the
    /// same `merchant_payout_id` answers the first payout as it stands, and debits nothing.
    /// A `connector_payout_method_id` that EnrollDisburseAccount gave pays out to that account
    /// (its method type and holder's name); any other id is NOT_FOUND, as a connector refuses a
    /// method it never stored.
    func create(_ request: ProtoMessage, _ caller: PrismCaller) throws(GRPCStatus) -> ProtoMessage {
        let output = "types.PayoutServiceCreateResponse"
        let reference = Self.nonEmpty(request.string("merchant_payout_id"))
        if let reference, let existing = bank.payout(account: caller.merchant.id, reference: reference) {
            return PrismPayout.response(output, existing, registry: registry)
        }
        let (currency, amount) = try Self.amount(request)
        typealias Field = PrismPayout.Field
        var fields = Self.fields(request, caller, currency: currency, amount: amount)
        for field in try Self.destination(request, caller) { fields[field.name] = field.value }
        guard fields[Field.method] != nil else { throw GRPCStatus(.invalidArgument, PrismMessage.missing("payout_method_data")) }
        let payout: Payout
        do throws(PayoutRefusal) {
            payout = try bank.createPayout(PayoutRequest(dialect: PrismDialect.name, account: caller.merchant.id, reference: reference,
                                                         currency: currency, amount: amount, callbackURL: fields[Field.webhookURL],
                                                         fields: fields))
        } catch {
            if case .duplicateReference = error, let reference, let existing = bank.payout(account: caller.merchant.id, reference: reference) {
                return PrismPayout.response(output, existing, registry: registry)  // a concurrent Create with the same id won
            }
            let (code, message) = try Self.decline(error, currency: currency)
            return PrismPayout.declined(output, reference: reference, code: code, message: message, registry: registry)
        }
        return PrismPayout.response(output, payout, registry: registry)
    }

    /// The member of Create, Stage and CreateLink that `amount(_:)` requires (the OpenAPI document's `required`).
    static let amountField = "amount"

    /// `amount`: its currency and value, required and positive.
    static func amount(_ request: ProtoMessage) throws(GRPCStatus) -> (currency: String, amount: Money) {
        guard let money = request.message(amountField) else { throw GRPCStatus(.invalidArgument, PrismMessage.missing(amountField)) }
        guard let currency = money.enumName("currency"), currency != "CURRENCY_UNSPECIFIED" else {
            throw GRPCStatus(.invalidArgument, PrismMessage.missing("amount.currency"))
        }
        guard let amount = PrismAmount.money(minor: money.int("minor_amount"), currency: currency) else {
            throw GRPCStatus(.invalidArgument, PrismMessage.invalid("amount"))
        }
        return (currency, amount)
    }

    /// The fields every payout records: the caller's connector, tenant and request id, the
    /// amount, the destination currency, and the whole request as proto3 JSON (`request`: what
    /// the sandbox does not use is kept, and the admin API shows it).
    static func fields(_ request: ProtoMessage, _ caller: PrismCaller, currency: String, amount: Money) -> Fields {
        typealias Field = PrismPayout.Field
        var fields: Fields = [Field.connector: caller.connector, Field.tenant: caller.tenant, Field.amount: amount.description,
                              Field.currency: currency, Field.requestID: caller.requestID, Field.request: request.json().serializedString()]
        fields[Field.destinationCurrency] = request.enumName("destination_currency").flatMap { $0 == "CURRENCY_UNSPECIFIED" ? nil : $0 }
        return fields
    }

    /// Where a request (Create, Transfer) pays out to: the method's type (`payout_method_data`'s
    /// member, else the disburse account of `connector_payout_method_id`), the id, the recipient's
    /// name, the priority and the webhook URL. NOT_FOUND for a `connector_payout_method_id` the
    /// caller's merchant did not enroll (never handed out, or another merchant's).
    static func destination(_ request: ProtoMessage, _ caller: PrismCaller) throws(GRPCStatus) -> Fields {
        typealias Field = PrismPayout.Field
        let methodID = nonEmpty(request.string("connector_payout_method_id"))
        var enrolled: PrismRecipients.DisburseAccount?
        if let methodID {
            enrolled = PrismRecipients.disburseAccount(methodID, of: caller.merchant)
            guard enrolled != nil else { throw GRPCStatus(.notFound, PrismMessage.payoutMethodNotFound(methodID)) }
        }
        var fields: Fields = [:]
        fields[Field.method] = request.message("payout_method_data")?.oneofCase("payout_method_data") ?? enrolled?.method
        fields[Field.methodID] = methodID
        fields[Field.recipientName] = recipientName(request) ?? enrolled?.recipientName
        fields[Field.webhookURL] = nonEmpty(request.string("webhook_url"))
        if request.has("priority") { fields[Field.priority] = request.enumName("priority") }
        return fields
    }

    /// A bank refusal as the simulated connector's decline (code, message); an account that is
    /// not the caller's cannot happen once authenticated.
    static func decline(_ refusal: PayoutRefusal, currency: String) throws(GRPCStatus) -> (String, String) {
        switch refusal {
        case .insufficientFunds: return ("insufficient_funds", PrismMessage.insufficientFunds)
        case .limitExceeded(let limit): return ("limit_exceeded", PrismMessage.limitExceeded("\(limit)"))
        case .unsupportedCurrency: return ("unsupported_currency", PrismMessage.unsupportedCurrency(currency))
        case .belowMinimum(let currency, let amount): return ("amount_too_small", PrismMessage.belowMinimum(currency, amount.description))
        case .declined(let decline): return (decline.code, decline.message ?? "Declined by the connector")
        case .unknownAccount, .duplicateReference, .notExecutable:
            throw GRPCStatus(.unauthenticated, PrismMessage.invalidCredentials)
        }
    }

    /// The recipient's name: the method's holder name, else the customer's, else the billing
    /// address's first and last names (of the fields the request has: Stage has no method).
    static func recipientName(_ request: ProtoMessage) -> String? {
        func part(_ name: String) -> ProtoMessage? { request.schema.field(named: name) == nil ? nil : request.message(name) }
        if let data = part("payout_method_data"), let member = data.oneofCase("payout_method_data"), let method = data.message(member) {
            for name in ["card_holder_name", "account_holder_name"] {
                if let text = text(method, name) { return text }
            }
        }
        if let name = part("customer").flatMap({ text($0, "name") }) { return name }
        guard let address = part("address")?.message("billing_address") else { return nil }
        let names = [text(address, "first_name"), text(address, "last_name")].compactMap { $0 }
        return names.isEmpty ? nil : names.joined(separator: " ")
    }

    /// A string field's value, or a SecretString's, when `message` has the field and it is not empty.
    static func text(_ message: ProtoMessage, _ name: String) -> String? {
        guard message.schema.field(named: name) != nil else { return nil }
        switch message[name] {
        case .string(let value)?: return nonEmpty(value)
        case .message(let secret)? where secret.schema.field(named: "value") != nil: return nonEmpty(secret.string("value"))
        default: return nil
        }
    }

    static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    // MARK: Get and Void

    /// `Get`: the payout as it stands, by `connector_payout_id` or `merchant_payout_id`.
    func get(_ request: ProtoMessage, _ caller: PrismCaller) throws(GRPCStatus) -> ProtoMessage {
        PrismPayout.response("types.PayoutServiceGetResponse", try payout(request, caller), registry: registry)
    }

    /// `Void`: cancels a payout not yet sent (PENDING: CANCELLED, refunded); a CANCELLED one
    /// answers as it is; any other is FAILED_PRECONDITION.
    func void(_ request: ProtoMessage, _ caller: PrismCaller) throws(GRPCStatus) -> ProtoMessage {
        let output = "types.PayoutServiceVoidResponse"
        let payout = try payout(request, caller)
        if payout.status == .cancelled { return PrismPayout.response(output, payout, registry: registry) }
        let voided: Payout?
        do throws(TransitionError) {
            voided = try bank.changeStatus(payoutID: payout.id, to: .cancelled, by: "merchant")
        } catch {
            throw GRPCStatus(.failedPrecondition, PrismMessage.forbidden("void", status: PrismPayout.status(error.from)))
        }
        guard let voided else { throw GRPCStatus(.notFound, PrismMessage.payoutNotFound(String(payout.id))) }
        return PrismPayout.response(output, voided, registry: registry)
    }

    /// The caller's payout named by `connector_payout_id` (the sandbox's id) or else
    /// `merchant_payout_id`: NOT_FOUND when it has none of that id, INVALID_ARGUMENT for no id.
    func payout(_ request: ProtoMessage, _ caller: PrismCaller) throws(GRPCStatus) -> Payout {
        if let id = Self.nonEmpty(request.string("connector_payout_id")) {
            guard let number = Int(id), let payout = bank.payout(id: number), payout.account == caller.merchant.id,
                  payout.dialect == PrismDialect.name else { throw GRPCStatus(.notFound, PrismMessage.payoutNotFound(id)) }
            return payout
        }
        guard let reference = Self.nonEmpty(request.string("merchant_payout_id")) else {
            throw GRPCStatus(.invalidArgument, PrismMessage.missing("connector_payout_id"))
        }
        guard let payout = bank.payout(account: caller.merchant.id, reference: reference) else {
            throw GRPCStatus(.notFound, PrismMessage.payoutNotFound(reference))
        }
        return payout
    }
}
