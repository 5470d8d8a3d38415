import SandboxHTTP
import SandboxReport

// `GET /sandbox/report[?account=ID]`: the integration report (the Testing your app guide, "What your app gets wrong"),
// made off the event loops and answered 304 to an `If-None-Match` of its `ETag` while nothing it reads changed (ReportCache).

extension AdminAPI {
    func registerReport(in router: inout Router) {
        router.add("GET /sandbox/report") { request in
            let account = request.query("account")
            let version = ReportCache.Version(journal: requests, bank: bank)
            if let tags = request.headers["If-None-Match"], ReportCache.matches(tags, version.tag) {
                return HTTPResponse(status: 304, headers: ["ETag": version.tag])
            }
            if let made = reports.answer(account: account, at: version) { return made }
            return .deferred { answer in
                reports.worker.run {
                    let version = ReportCache.Version(journal: requests, bank: bank)  // what came while it waited counts too
                    if let made = reports.answer(account: account, at: version) { return answer(made) }
                    let (status, json) = IntegrationReport.answer(bank: bank, journal: requests, sender: sender, dialects: dialects,
                                                                  account: account, at: version.now)
                    var response = HTTPResponse.json(json, status: status)
                    if status == 200 { response.headers.add("ETag", version.tag) }
                    reports.keep(response, account: account, at: version)
                    answer(response)
                }
            }
        }
    }
}
