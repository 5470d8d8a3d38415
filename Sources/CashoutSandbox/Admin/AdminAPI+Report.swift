import SandboxPrism
import SandboxContract
import SandboxBank
import SandboxWire
import SandboxSupport

// `GET /sandbox/report[?account=ID][&follow_up_within=2m&polling_limit=20&polling_per=1m]`: the integration report (the
// Testing your app guide, "What your app gets wrong"), judged by the thresholds of the query, else of the scenario setup,
// made off the event loops and answered 304 to an `If-None-Match` of its `ETag` while nothing it reads changed (ReportCache).
// `POST /sandbox/reconcile[?account=ID]`: the app's ledger in the body compared with the bank (the guide's "Reconciliation"),
// kept for the report.

extension AdminAPI {
    func getReport(_ request: HTTPRequest) -> HTTPResponse {
        let account = request.query("account")
        let thresholds: ReportThresholds
        switch Self.thresholds(request, else: reports.thresholds) {
        case .success(let read): thresholds = read
        case .failure(let refusal): return refusal.response
        }
        let version = ReportCache.Version(requestLog: requests, bank: bank, reports: reports)
        if let tags = request.headers["If-None-Match"], ReportCache.matches(tags, version.tag(thresholds)) {
            return HTTPResponse(status: 304, headers: ["ETag": version.tag(thresholds)])
        }
        if let made = reports.answer(account: account, thresholds: thresholds, at: version) { return made }
        return .deferred { answer in
            reports.worker.run {
                let version = ReportCache.Version(requestLog: requests, bank: bank, reports: reports)  // what came while it waited counts too
                if let made = reports.answer(account: account, thresholds: thresholds, at: version) { return answer(made) }
                let (status, json) = IntegrationReport.answer(bank: bank, requestLog: requests, sender: sender, dialects: dialects,
                                                              account: account, thresholds: thresholds,
                                                              reconciliation: reports.reconciliation.last, at: version.now)
                var response = HTTPResponse.json(json, status: status)
                if status == 200 { response.headers.add("ETag", version.tag(thresholds)) }
                reports.keep(response, account: account, thresholds: thresholds, at: version)
                answer(response)
            }
        }
    }

    package func reconcile(_ request: HTTPRequest) -> HTTPResponse {
        guard let ledger = try? JSON.parse(request.body) else { return Router.error(400, AdminMessage.reconcileBody) }
        let account = request.query("account")
        if let account, bank.account(id: account) == nil { return Router.error(404, AdminMessage.noReportAccount(account)) }
        return .deferred { answer in
            reports.worker.run {
                switch reports.reconcile(ledger: ledger, source: "request body", account: account, bank: bank, requestLog: requests,
                                               sender: sender, dialects: dialects) {
                case .success(let reconciliation): answer(.json(reconciliation.json))
                case .failure(let problem): answer(Router.error(400, problem.message))
                }
            }
        }
    }

    /// A 400 in the admin API's format.
    struct Refusal: Error {
        let response: HTTPResponse
    }

    /// `fallback` with what the query's `follow_up_within`, `polling_limit` and `polling_per` set; a 400 naming a bad one.
    static func thresholds(_ request: HTTPRequest, else fallback: ReportThresholds) -> Result<ReportThresholds, Refusal> {
        var thresholds = fallback
        for name in ["follow_up_within", "polling_per"] {
            guard let text = request.query(name) else { continue }
            guard let duration = ReportThresholds.duration(text) else {
                return .failure(Refusal(response: Router.error(400, AdminMessage.reportDuration(name, text))))
            }
            if name == "polling_per" { thresholds.pollingPer = duration } else { thresholds.followUpWithin = duration }
        }
        if let text = request.query("polling_limit") {
            guard let limit = Int(text), ReportThresholds.limits.contains(limit) else {
                return .failure(Refusal(response: Router.error(400, AdminMessage.reportLimit(text))))
            }
            thresholds.pollingLimit = limit
        }
        return .success(thresholds)
    }
}
