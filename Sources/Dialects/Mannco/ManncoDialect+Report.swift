package import SandboxBank
package import SandboxContract
import SandboxWire
package import SandboxSupport

// What the integration report reads in Mannco requests, and its checks: Mannco's users hear by
// email, never by webhook, so what an app can get wrong is its calls: retrying a refusal that
// nothing changed, and going on with a token after it expired.

extension ManncoDialect: ReportingDialect {
    static let reportTerms = ReportTerms(statusQuery: ManncoOperation.history.route, reference: "cashoutId", notificationURL: "",
                                         notificationSignature: "", credentials: "the JWT of POST /user/login, as Authorization: Bearer")

    package var integrationChecks: [IntegrationCheck] {
        // An expired token is the lifecycle working, not a signing error: expired_token_used
        // judges what the app did next.
        [IntegrationChecks.signatureErrors(Self.reportTerms, ignoring: [ManncoDiagnosis.expiredCheck]), Self.retriedAfterRefusal,
         Self.expiredTokenUsed, Self.duplicateAfterLostResponse, IntegrationChecks.retriedBeforeRetryAfter(Self.reportTerms),
         IntegrationChecks.ledgerMismatch(Self.reportTerms)]
    }

    /// A ledger names a cashout by the `cashoutId` `/cashout/process` answered (Mannco takes no
    /// reference of the app's).
    package var ledgerTerms: LedgerTerms? {
        LedgerTerms(referenceKey: "cashout_id", meaning: "the cashoutId /cashout/process answered") { String($0.id) }
    }

    /// The user is the one the token names (expired or not), or at login the one whose `apiKey`
    /// it is; a cashout pays `amount` to `method`.
    package func facts(of call: OperationCall, bank: Bank) -> RequestFacts? {
        let authorization = call.headers["Authorization"]
        var facts = RequestFacts(account: ManncoToken.subject(authorization: authorization), credential: authorization)
        switch call.operation.role {
        case .login:
            let key = call.text("apiKey")
            facts.account = key.flatMap { key in bank.account(where: { ManncoUser(owned: $0)?.apiKey == key })?.id }
        case .create:
            func text(_ key: String) -> String { call.text(key) ?? "" }
            facts.action = .create(beneficiary: text("method") + "/" + text("email"), amount: text("amount"))
            facts.content = (call.body?.objectValue ?? [:]).filter { ["method", "email", "amount"].contains($0.key) }
        case .statusQuery:
            facts.action = .statusQuery
        default:
            break
        }
        return facts
    }

    /// A refusal (`success: false`) says why in `content`; a process answers its `cashoutId`, the
    /// history its cashouts and their statuses.
    package func facts(_ facts: RequestFacts, answered answer: JSON, operation: APIOperation) -> RequestFacts {
        var facts = facts
        if answer["success"] == false { facts.refusal = answer["content"]?.stringValue }
        switch operation.role {
        case .create:
            facts.payoutID = answer["content"]?["cashoutId"]?.numberText.flatMap { Int($0) }
        case .statusQuery:
            for cashout in answer["content"]?["cashouts"]?.arrayValue ?? [] {
                guard let id = cashout["id"]?.numberText.flatMap({ Int($0) }) else { continue }
                facts.listed.append(id)
                facts.listedWords[id] = cashout["status"]?.stringValue
            }
        default:
            break
        }
        // A refusal's words (`Cooldown period`), or the status of the cashout a call answered (`pending`).
        facts.answerWords = facts.refusal ?? answer["content"]?["status"]?.stringValue
        return facts
    }

    /// `retried_after_refusal`: `/cashout/process` sent again, the same, after "Pending cashout
    /// exists" or "Cooldown period", and refused again for it: nothing had changed.
    static let retriedAfterRefusal = IntegrationCheck(id: "retried_after_refusal", severity: .warning, advice: """
        "Pending cashout exists" holds until the open cashout ends and "Cooldown period" for 24 hours after the last \
        accepted one: show the user why, and offer the cashout again once GET /user/getCashoutHistory shows the \
        cashout ended (or the cooldown passed), instead of retrying.
        """, description: "POST /cashout/process sent again unchanged after \"Pending cashout exists\" or \"Cooldown period\", and "
            + "refused again; exercised by such a refusal") { evidence in
        var exercised = false
        var retried: [Occurrence] = []
        var refused: (request: ReportedRequest, retries: [ReportedRequest])?
        func close() {
            guard let chain = refused, !chain.retries.isEmpty else { return }
            retried.append(Occurrence(cashouts: [], summary: "after \"\(chain.request.facts.refusal ?? "")\", POST /cashout/process was sent "
                                          + "\(chain.retries.count) more time\(chain.retries.count == 1 ? "" : "s") unchanged, and refused again",
                                      evidence: ([chain.request] + chain.retries).prefix(IntegrationChecks.evidenceLimit).map { $0.evidence() }))
        }
        for request in evidence.requests where request.exchange.route == ManncoOperation.process.route {
            let refusal = request.facts.refusal.flatMap { [ManncoMessage.pendingExists, ManncoMessage.cooldown].contains($0) ? $0 : nil }
            if let chain = refused, refusal == chain.request.facts.refusal, request.facts.action == chain.request.facts.action {
                refused?.retries.append(request)
                continue
            }
            close()
            refused = refusal.map { _ in (request, []) }
            exercised = exercised || refusal != nil
        }
        close()
        return IntegrationCheck.outcome(exercised: exercised, retried)
    }

    /// `duplicate_after_lost_response`: a cashout whose answer was lost, sent again before the app
    /// looked at its history. Mannco takes no reference of the app's, so a blind resend is refused
    /// "Pending cashout exists" (the first was made: an app that books that as refused gives the
    /// seller the money back) or, the first having ended already, pays a second time.
    static let duplicateAfterLostResponse = IntegrationCheck(id: "duplicate_after_lost_response", severity: .error, advice: """
        When the answer to POST /cashout/process is lost (a timeout, a closed connection), the cashout may have been \
        made: look for it in GET /user/getCashoutHistory (same amount and method, requested since you sent it) before \
        sending it again. A resend is refused "Pending cashout exists" while the first is open, or pays twice once it \
        has ended.
        """, description: "a cashout whose answer was lost sent again without a look at GET /user/getCashoutHistory first; "
            + "exercised by a lost answer (fault drop_after_commit) the app then acted on: a history read or another "
            + "cashout") { evidence in
        var exercised = false
        var blind: [Occurrence] = []
        let answered = Set(evidence.creates.compactMap(\.facts.payoutID))
        for lost in evidence.creates where lost.exchange.dropped {
            // What the app did next: a look at the history, or a cashout.
            let next = evidence.requests.first { request in
                guard request.id > lost.id else { return false }
                if case .create = request.facts.action { return true }
                return request.facts.action == .statusQuery && request.exchange.succeeded
            }
            guard let next else { continue }
            exercised = true
            guard next.facts.action == lost.facts.action else { continue }
            let made = evidence.payouts.first { $0.createdAt == lost.at && !answered.contains($0.id) }
            let what = next.facts.payoutID.map { "and a second cashout, \($0), was made" }
                ?? next.facts.refusal.map { "refused \"\($0)\": an app that books that as refused pays the seller back" } ?? "refused"
            blind.append(Occurrence(
                cashouts: (made.map { [$0.id] } ?? []) + (next.facts.payoutID.map { [$0] } ?? []),
                summary: "the answer to a cashout of \(ManncoDialect.amountText(lost)) was lost\(made.map { " (cashout \($0.id) was made)" } ?? ""), "
                    + "and the app sent it again without looking at GET /user/getCashoutHistory: \(what)",
                evidence: [lost.evidence(), next.evidence("sent again without a look at the history")]))
        }
        return IntegrationCheck.outcome(exercised: exercised, blind)
    }

    /// `amount 10100, method payoneer`, as a cashout request was sent.
    private static func amountText(_ request: ReportedRequest) -> String {
        guard case .create(let beneficiary, let amount) = request.facts.action else { return "" }
        return "amount \(amount) (cents) by \(beneficiary.split(separator: "/").first.map(String.init) ?? beneficiary)"
    }

    /// `expired_token_used`: a token sent again after a 403 said it had expired.
    static let expiredTokenUsed = IntegrationCheck(id: "expired_token_used", severity: .error, advice: """
        A 403 whose token expired (tokens last 31 days) means logging in again with POST /user/login: \
        replace the stored token and repeat the call once with the new one.
        """, description: "a token sent again after a 403 said it had expired; exercised once a token is refused as expired") { evidence in
        var expired: [String: ReportedRequest] = [:]
        var reused: [String: [ReportedRequest]] = [:]
        for request in evidence.requests {
            guard let token = request.facts.credential else { continue }
            if expired[token] != nil {
                reused[token, default: []].append(request)
            } else if request.refusal?.check == ManncoDiagnosis.expiredCheck {
                expired[token] = request
            }
        }
        let occurrences = expired.values.sorted { $0.id < $1.id }.compactMap { first -> Occurrence? in
            guard let token = first.facts.credential, let again = reused[token] else { return nil }
            return Occurrence(cashouts: [], summary: "a token refused as expired was sent \(again.count) more time\(again.count == 1 ? "" : "s") "
                                  + "without logging in again",
                              evidence: ([first] + again).prefix(IntegrationChecks.evidenceLimit).map { $0.evidence() })
        }
        return IntegrationCheck.outcome(exercised: !expired.isEmpty, occurrences)
    }
}
