import SandboxContract
import SandboxBank
import SandboxWire
import SandboxSupport

// The Mannco.store user cashout API (Mannco.store's API docs, and the Mannco guide): login for a JWT, then
// cashouts to Payoneer or Tipalti with fees, a minimum, one pending cashout and a 24-hour
// cooldown, the history and the balance, and linking payout methods. Every answer is the
// `err/success/content` envelope (`ManncoResponse`); errors are `ManncoError`s.

/// Serves the Mannco dialect over a `Bank`.
///
/// ```swift
/// var router = Router()
/// ManncoAPI(bank: bank).register(in: &router)
/// ```
struct ManncoAPI: Sendable {
    let bank: Bank

    /// Adds its endpoints (declared with their documentation in Docs/ManncoOpenAPI.swift) to `router`.
    func register(in router: inout Router) {
        router.add(OpenAPIDocument.manncoEndpoints, serving: self)
    }

    /// Linking payout methods, and the link page.
    var links: ManncoLinks { ManncoLinks(bank: bank) }

    /// What `endpoint` answers, or its refusal in Mannco's envelope.
    func answer(_ endpoint: () throws(ManncoError) -> HTTPResponse) -> HTTPResponse {
        do throws(ManncoError) { return try endpoint() } catch { return error.response }
    }

    /// The user whose token the request carries, as it is now; 403 `forbidden` without one.
    @Sendable func user(_ request: HTTPRequest) throws(ManncoError) -> ManncoUser {
        switch ManncoToken.verify(authorization: request.headers["Authorization"], at: bank.clock.now) {
        case .refused(let diagnosis): throw .diagnosed(.noToken, diagnosis)
        case .user(let id):
            guard let user = bank.account(id: id).flatMap(ManncoUser.init(owned:)) else {
                throw .diagnosed(.noToken, ManncoDiagnosis.unknownUser(id))
            }
            return user
        }
    }

    /// `GET /user/balance`: `content.balance`, in cents.
    func balance(_ request: HTTPRequest) throws(ManncoError) -> HTTPResponse {
        ManncoResponse.success(.object([("balance", .number(try user(request).balanceCents))]))
    }

    /// `POST /user/login {"apiKey"}` (JSON or form): `content.jwt`.
    func login(_ request: HTTPRequest) throws(ManncoError) -> HTTPResponse {
        let given = ManncoBody.fields(request)["apiKey"]
        guard let key = given?.stringValue ?? given?.numberText, !key.isEmpty else { throw .missing("apiKey") }  // a form's digits read as a number
        guard let account = bank.account(where: { ManncoUser(owned: $0)?.apiKey == key }) else {
            throw .diagnosed(.forbidden(ManncoMessage.invalidAPIKey), ManncoDiagnosis.unknownAPIKey(key, bank: bank))
        }
        return ManncoResponse.success(.object([("jwt", .value(.string(ManncoToken.issue(user: account.id, at: bank.clock.now))))]))
    }

    /// `POST /cashout/process {"amount","method","email"?}`: the input, the minimum, then the
    /// bank's atomic checks (verification, the method linked, one pending cashout, the cooldown;
    /// the scenario's declines; the balance), each refusal in the order the Mannco guide gives.
    func process(_ request: HTTPRequest, user: ManncoUser) throws(ManncoError) -> HTTPResponse {
        let input = try ManncoProcessRequest(ManncoBody.fields(request))
        guard input.amount >= ManncoProcessRequest.minimumAmount else { throw .business(ManncoMessage.belowMinimum) }
        let fields: Fields = [ManncoCashout.Field.user: user.id, ManncoCashout.Field.method: input.method.rawValue,
                              ManncoCashout.Field.amount: Money(hundredths: input.amount).description,
                              ManncoCashout.Field.email: input.email ?? user.email]
        let payout: Payout
        do throws(PayoutRefusal) {
            payout = try bank.createPayout(PayoutRequest(dialect: ManncoDialect.name, account: user.id, currency: user.account.currency,
                                                         amount: Money(hundredths: input.amount), fields: fields)) { admission in
                ManncoAdmission.check(admission, method: input.method)
            }
        } catch {
            throw ManncoError(error)
        }
        let cashout = ManncoCashout(payout: payout)
        return ManncoResponse.success(.object([
            ("cashoutId", .number(Int64(payout.id))), ("amount", .number(cashout.cents)), ("method", .value(.string(input.method.rawValue))),
            ("fee", .number(cashout.fee)), ("netAmount", .number(cashout.cents - cashout.fee)), ("status", .value(.string(cashout.status))),
            ("estimatedCompletion", .value(.string(String(cashout.estimatedCompletion)))),
            ("message", .value(.string(ManncoMessage.submitted))),
        ]))
    }

    /// `GET /user/getCashoutHistory?page=&perpage=` (aliases `count`, `limit`): newest first,
    /// pages from 1, 20 a page by default and at most 50.
    func history(_ request: HTTPRequest, user: ManncoUser) throws(ManncoError) -> HTTPResponse {
        let page = try Self.whole(request.query("page"), default: 1, error: ManncoMessage.invalidPage)
        let size = min(Self.maximumPageSize, try Self.whole(request.query("perpage") ?? request.query("count") ?? request.query("limit"),
                                                            default: Self.defaultPageSize, error: ManncoMessage.invalidPerpage))
        let payouts = bank.payouts(account: user.id)
        let completed = payouts.reduce(Money.zero) { $0 + ($1.status == .completed ? $1.amount : .zero) }  // Money's sum saturates
        let skipped = page - 1 > payouts.count ? payouts.count : min(payouts.count, (page - 1) * size)
        let newestFirst = payouts.reversed().dropFirst(skipped)
        return ManncoResponse.success(.object([
            ("cashouts", .array(newestFirst.prefix(size).map { ManncoCashout(payout: $0).historyRow })),
            ("total", .number(Int64(payouts.count))), ("page", .number(Int64(page))), ("perpage", .number(Int64(size))),
            ("totalCashedOut", .number(completed.hundredths)),
        ]))
    }

    /// The history's page size unless told, and the most it gives.
    static let defaultPageSize = 20, maximumPageSize = 50

    /// A query value that is a whole number of at least 1 (`default` when absent).
    private static func whole(_ text: String?, default value: Int, error: String) throws(ManncoError) -> Int {
        guard let text else { return value }
        guard let number = Int(text), number >= 1 else { throw .business(error) }
        return number
    }
}

/// The checks `POST /cashout/process` makes under the bank's lock, with the user's account and
/// cashouts as they are at that instant: twenty requests at once make one cashout.
enum ManncoAdmission {
    /// How long after an accepted request the next one is refused: 24 hours.
    static let cooldown = Duration.seconds(86_400)

    static func check(_ admission: Admission, method: ManncoMethod) -> Decline? {
        let user = ManncoUser(admission.account)
        guard user.verified else { return refusal(ManncoMessage.verificationRequired) }
        guard user.linked.contains(method.provider) else { return refusal(ManncoMessage.methodNotLinked) }
        if admission.payouts.contains(where: { ManncoCashout.isOpen($0.status) }) { return refusal(ManncoMessage.pendingExists) }
        if let last = admission.latest, admission.now < last.createdAt.adding(cooldown) {
            return refusal(ManncoMessage.cooldown)
        }
        return nil
    }

    private static func refusal(_ message: String) -> Decline { Decline(code: "300", message: message) }
}
