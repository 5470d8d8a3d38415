import SandboxContract
import SandboxBank
import SandboxWire
import SandboxSupport

// Cashouts as the bank sees them, forced outcomes (what a provider's staging panel offers), and
// the ledger.

extension AdminAPI {
    func listCashouts(_ request: HTTPRequest) -> HTTPResponse {
        // A status by the sandbox's name (STAGED and EXPIRED too), else by an API's own word (SUCCESS).
        let status = request.query("status")
        let words = statusWords
        let names = Set(PayoutStatus.allCases.map(\.name))
        let known = names.union(dialects.values.flatMap { dialect in PayoutStatus.allCases.compactMap { dialect.statusWord($0) } })
        guard status.map(known.contains) ?? true else {
            return Router.error(400, AdminMessage.statusFilter(Array(known)))
        }
        let byName = status.map(names.contains) ?? true
        let payouts = bank.payouts(account: request.query("merchant")).filter {
            status == nil || (byName ? $0.status.name == status : words($0.dialect, $0.status) == status)
        }
        let rejections = rejections
        return .json(["cashouts": .array(payouts.map { AdminJSON.payout($0, bank: bank, detailed: false, words: words, rejections: rejections) })])
    }

    func getCashout(_ request: HTTPRequest) -> HTTPResponse {
        guard let payout = payout(request) else { return notFound(request) }
        return .json(AdminJSON.payout(payout, bank: bank, detailed: true, words: statusWords, rejections: rejections))
    }

    func forceCashoutAction(_ request: HTTPRequest) -> HTTPResponse { force(request) }

    func getLedger(_ request: HTTPRequest) -> HTTPResponse {
        .json(["entries": .array(bank.ledger(account: request.query("merchant")).map(AdminJSON.ledgerEntry))])
    }

    /// Each dialect's words for its payouts' statuses (`api_status`).
    var statusWords: AdminJSON.StatusWords {
        let dialects = dialects
        return { dialect, status in dialects[dialect]?.statusWord(status) }
    }

    /// What each dialect's API answers for a rejection (`rejection_code`, `rejection_reason`).
    var rejections: AdminJSON.Rejections {
        let dialects = dialects
        return { dialect, code, reason in dialects[dialect]?.answeredRejection(code: code, reason: reason) ?? (code, reason) }
    }

    fileprivate func payout(_ request: HTTPRequest) -> Payout? {
        request.parameters["id"].flatMap { Int($0) }.flatMap { bank.payout(id: $0) }
    }

    fileprivate func notFound(_ request: HTTPRequest) -> HTTPResponse {
        Router.error(404, AdminMessage.noCashout(request.parameters["id"] ?? ""))
    }

    /// `{"action":"deliver|complete|reject|hold|release|cancel","rejection_code":801,
    /// "rejection_reason":"...","bank_reference_id":"...","status_reason":"..."}`. Rejecting a COMPLETED cashout is the
    /// late rejection (a return, refunded). Without a code, the cashout's dialect chooses one
    /// (D24: 807, or 826 for a return). A change the lifecycle does not allow is a 409.
    private func force(_ request: HTTPRequest) -> HTTPResponse {
        guard let payout = payout(request) else { return notFound(request) }
        guard let body = Self.object(request) else { return Self.badBody }
        let rejectionCode = body["rejection_code"]?.integerValue.map(String.init)
        if body["rejection_code"] != nil, rejectionCode == nil { return Router.error(400, AdminMessage.rejectionCode) }
        guard let action = body["action"]?.stringValue.flatMap(ForcedAction.init(rawValue:)) else {
            return Router.error(400, AdminMessage.forcedAction)
        }
        // A reason, reference or status detail that is not text is refused, not dropped (Behaviour and choices,
        // "A forced action's texts").
        if let key = ["rejection_reason", "bank_reference_id", "status_reason"].first(where: { body[$0] != nil && body[$0]?.stringValue == nil }) {
            return Router.error(400, AdminMessage.expectedString(key))
        }
        let target = action.status
        var (reasonCode, reason): (String?, String?) = (nil, nil)
        if target == .rejected {
            let forced = dialects[payout.dialect]?.forcedRejection(code: rejectionCode, afterCompletion: payout.status == .completed)
            (reasonCode, reason) = (forced?.code ?? rejectionCode, body["rejection_reason"]?.stringValue ?? forced?.reason)
        }
        do throws(TransitionError) {
            try bank.changeStatus(payoutID: payout.id, to: target, by: ForcedAction.actor, reasonCode: reasonCode, reason: reason,
                                  bankReference: body["bank_reference_id"]?.stringValue, statusDetail: body["status_reason"]?.stringValue)
        } catch {
            let from = error.from.name
            let to = error.to.name
            return .json(["code": 409, "message": .string("cannot \(action.rawValue) a \(from) cashout: \(from) -> \(to) is not allowed"),
                          "from": .string(from), "to": .string(to)], status: 409)
        }
        return .json(AdminJSON.payout(bank.payout(id: payout.id) ?? payout, bank: bank, detailed: true, words: statusWords,
                                      rejections: rejections))
    }
}

// A cashout's timeline (`GET /sandbox/cashouts/{id}/timeline`, the Testing your app guide, "Why a run failed"): made
// where reports are (it reads the request log, and the report's error findings that name the cashout), off the event loops;
// its ETag is what it was made from (a report's, and the clock's stops kept), so the dashboard's poll gets a 304 while
// nothing moved, as the Report view's does.
extension AdminAPI {
    func getCashoutTimeline(_ request: HTTPRequest) -> HTTPResponse {
        guard let payout = payout(request) else { return notFound(request) }
        let version = ReportCache.Version(requestLog: requests, bank: bank, reports: reports)
        let tag = "\"c\(payout.id)-\(version.tag(reports.thresholds).dropFirst().dropLast())-s\(timelines.stopsKept)\""
        if let tags = request.headers["If-None-Match"], ReportCache.matches(tags, tag) { return HTTPResponse(status: 304, headers: ["ETag": tag]) }
        return .deferred { answer in
            reports.worker.run {
                let reconciliation = reports.reconciliation.last
                let report = try? IntegrationReport.make(bank: bank, requestLog: requests, sender: sender, dialects: dialects,
                                                         account: payout.account, thresholds: reports.thresholds,
                                                         reconciliation: reconciliation, at: bank.clock.now).get()
                let findings = report.map { Timeline.errors(of: $0).filter { $0.cashouts.contains(payout.id) } } ?? []
                let sources = Timeline.Sources(bank: bank, requestLog: requests, dialects: dialects, recorder: timelines,
                                               reconciliation: reconciliation)
                var response = HTTPResponse.json(Timeline.make(of: [payout.id], title: "cashout \(payout.id)", from: sources,
                                                               findings: findings).json)
                response.headers.add("ETag", tag)
                answer(response)
            }
        }
    }
}
