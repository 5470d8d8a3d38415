import SandboxAPIDocs
import SandboxHTTP
import SandboxJSON
import SandboxReport

// `GET /sandbox/report[?account=ID]`: the integration report (the Testing your app guide, "What your app gets wrong"),
// made off the event loops and answered 304 to an `If-None-Match` of its `ETag` while nothing it reads changed (ReportCache).
// `POST /sandbox/reconcile[?account=ID]`: the app's ledger in the body compared with the bank (the guide's "Reconciliation"),
// kept for the report.

extension AdminAPI {
    func registerReport(in router: inout Router) {
        router.add("GET /sandbox/report") { request in
            let account = request.query("account")
            let version = ReportCache.Version(journal: requests, bank: bank, reports: reports)
            if let tags = request.headers["If-None-Match"], ReportCache.matches(tags, version.tag) {
                return HTTPResponse(status: 304, headers: ["ETag": version.tag])
            }
            if let made = reports.answer(account: account, at: version) { return made }
            return .deferred { answer in
                reports.worker.run {
                    let version = ReportCache.Version(journal: requests, bank: bank, reports: reports)  // what came while it waited counts too
                    if let made = reports.answer(account: account, at: version) { return answer(made) }
                    let (status, json) = IntegrationReport.answer(bank: bank, journal: requests, sender: sender, dialects: dialects,
                                                                  account: account, reconciliation: reports.reconciliation.last,
                                                                  at: version.now)
                    var response = HTTPResponse.json(json, status: status)
                    if status == 200 { response.headers.add("ETag", version.tag) }
                    reports.keep(response, account: account, at: version)
                    answer(response)
                }
            }
        }
        router.add("POST /sandbox/reconcile") { request in
            guard let ledger = try? JSON.parse(request.body) else { return Router.error(400, AdminMessage.reconcileBody) }
            let account = request.query("account")
            if let account, bank.account(id: account) == nil { return Router.error(404, AdminMessage.noReportAccount(account)) }
            return .deferred { answer in
                reports.worker.run {
                    switch Sandbox.reconcile(ledger: ledger, source: "request body", account: account, bank: bank, dialects: dialects, reports: reports) {
                    case .success(let reconciliation): answer(.json(reconciliation.json))
                    case .failure(let problem): answer(Router.error(400, problem.message))
                    }
                }
            }
        }
    }
}
